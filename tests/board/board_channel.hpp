// The Verilated accel_board_top as a ByteChannel: host bytes are bit-banged onto uart_rx_i
// (8N1, CLKS_PER_BIT clocks per bit, with random idle gaps between bytes) and
// uart_tx_o is decoded back into bytes. Time is simulated: a read's timeout in
// milliseconds is CLK_HZ/1000 clock cycles per millisecond.
#pragma once
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "devices/byte_channel.hpp"
#include "verilated.h"

class Vaccel_board_top_tiny;

namespace accel::board_test {

class BoardChannel final : public ByteChannel {
public:
    BoardChannel(uint64_t clk_hz, uint64_t baud, uint32_t seed);
    ~BoardChannel() override;

    std::string name() const override { return "verilated accel_board_top"; }
    void write(std::span<const uint8_t> bytes) override;
    std::size_t read_some(std::span<uint8_t> out, std::chrono::milliseconds timeout) override;
    void discard_input() override { received_.clear(); }

    // Takes every byte received so far.
    std::vector<uint8_t> take();
    // Runs the clock for `cycles` (sending what is queued, receiving what comes back).
    void idle(uint64_t cycles);
    uint64_t cycles() const { return cycles_; }
    double seconds() const { return static_cast<double>(cycles_) / static_cast<double>(clk_hz_); }
    uint64_t clk_hz() const { return clk_hz_; }
    uint32_t leds() const;
    // Holds accel_board_top's rst_ni low (the reset button pressed) or releases it.
    void set_reset(bool held);
    uint64_t framing_errors() const { return framing_errors_; }
    // Probability of an idle gap (of 1..3 bit times) before each byte the host sends.
    void set_gap_probability(double p) { gap_p_ = p; }

private:
    void step();
    void drive_tx();
    void sample_rx(bool line);

    std::unique_ptr<VerilatedContext> context_;
    std::unique_ptr<Vaccel_board_top_tiny> top_;
    uint64_t clk_hz_, clocks_per_bit_;
    uint64_t cycles_ = 0;
    std::mt19937 rng_;
    double gap_p_ = 0.2;
    bool gap_taken_ = false;

    std::deque<uint8_t> to_send_;
    uint32_t tx_frame_ = 0;     // bits still to send, LSB first (start, data, stop)
    int tx_bits_ = 0;           // of tx_frame_; 0: between bytes
    uint64_t tx_count_ = 0;     // clocks left in the current bit (or gap)
    bool tx_line_ = true;

    std::deque<uint8_t> received_;
    int rx_bit_ = -1;           // -1 idle; 0 start; 1..8 data; 9 stop
    uint64_t rx_count_ = 0;
    uint32_t rx_shift_ = 0;
    uint64_t framing_errors_ = 0;
};

// A non-owning view of another channel that passes everything through; a test derives
// from it to count or corrupt the bytes going one way.
class ForwardingChannel : public ByteChannel {
public:
    explicit ForwardingChannel(ByteChannel& inner) : inner_(inner) {}
    std::string name() const override { return inner_.name(); }
    void write(std::span<const uint8_t> bytes) override { inner_.write(bytes); }
    std::size_t read_some(std::span<uint8_t> out, std::chrono::milliseconds timeout) override {
        return inner_.read_some(out, timeout);
    }
    void discard_input() override { inner_.discard_input(); }

protected:
    ByteChannel& inner_;
};

// Counts the writes through it (one per frame), so that a test keeps the channel, and its
// simulated time, after the device is gone.
class ChannelRef final : public ForwardingChannel {
public:
    explicit ChannelRef(ByteChannel& inner, uint64_t* writes = nullptr)
        : ForwardingChannel(inner), writes_(writes) {}
    void write(std::span<const uint8_t> bytes) override {
        if (writes_) ++*writes_;
        inner_.write(bytes);
    }

private:
    uint64_t* writes_;
};

}  // namespace accel::board_test
