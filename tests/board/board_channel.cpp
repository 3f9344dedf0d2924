#include "board_channel.hpp"

#include "Vaccel_board_top_tiny.h"

namespace accel::board_test {

BoardChannel::BoardChannel(uint64_t clk_hz, uint64_t baud, uint32_t seed)
    : context_(std::make_unique<VerilatedContext>()),
      clk_hz_(clk_hz),
      clocks_per_bit_(clk_hz / baud),
      rng_(seed) {
    top_ = std::make_unique<Vaccel_board_top_tiny>(context_.get(), "board");
    top_->rst_ni = 1;  // the reset button released
    top_->uart_rx_i = 1;
    top_->clk_i = 0;
    top_->eval();
    idle(64);  // the power-on reset
}

BoardChannel::~BoardChannel() { top_->final(); }

uint32_t BoardChannel::leds() const { return top_->led_o; }

void BoardChannel::write(std::span<const uint8_t> bytes) {
    to_send_.insert(to_send_.end(), bytes.begin(), bytes.end());
}

void BoardChannel::drive_tx() {
    if (tx_count_ > 0) {
        --tx_count_;
        return;
    }
    if (tx_bits_ > 0) {  // next bit of the byte under way
        tx_line_ = tx_frame_ & 1;
        tx_frame_ >>= 1;
        --tx_bits_;
        tx_count_ = clocks_per_bit_ - 1;
        return;
    }
    tx_line_ = true;
    if (to_send_.empty()) return;
    if (!gap_taken_ && std::bernoulli_distribution(gap_p_)(rng_)) {  // idle before this byte
        tx_count_ = clocks_per_bit_ * (1 + rng_() % 3) - 1;
        gap_taken_ = true;
        return;
    }
    gap_taken_ = false;
    tx_frame_ = (1u << 9) | (uint32_t{to_send_.front()} << 1);  // stop, data, start
    to_send_.pop_front();
    tx_bits_ = 10;
    tx_line_ = tx_frame_ & 1;
    tx_frame_ >>= 1;
    --tx_bits_;
    tx_count_ = clocks_per_bit_ - 1;
}

// Decodes the board's line: a falling edge starts a byte; bits are sampled mid-bit.
void BoardChannel::sample_rx(bool line) {
    if (rx_bit_ < 0) {
        if (!line) {
            rx_bit_ = 0;
            rx_count_ = clocks_per_bit_ / 2;
        }
        return;
    }
    if (rx_count_ > 0) {
        --rx_count_;
        return;
    }
    rx_count_ = clocks_per_bit_ - 1;
    if (rx_bit_ == 0) {
        if (line) rx_bit_ = -1;  // a glitch
        else rx_bit_ = 1, rx_shift_ = 0;
    } else if (rx_bit_ <= 8) {
        rx_shift_ |= uint32_t{line} << (rx_bit_ - 1);
        ++rx_bit_;
    } else {
        if (line) received_.push_back(static_cast<uint8_t>(rx_shift_));
        else ++framing_errors_;
        rx_bit_ = -1;
    }
}

void BoardChannel::step() {
    drive_tx();
    top_->uart_rx_i = tx_line_;
    top_->clk_i = 1;
    top_->eval();
    top_->clk_i = 0;
    top_->eval();
    ++cycles_;
    sample_rx(top_->uart_tx_o);
}

void BoardChannel::set_reset(bool held) { top_->rst_ni = held ? 0 : 1; }

std::vector<uint8_t> BoardChannel::take() {
    std::vector<uint8_t> out(received_.begin(), received_.end());
    received_.clear();
    return out;
}

void BoardChannel::idle(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) step();
}

std::size_t BoardChannel::read_some(std::span<uint8_t> out, std::chrono::milliseconds timeout) {
    const uint64_t limit = static_cast<uint64_t>(timeout.count()) * clk_hz_ / 1000;
    uint64_t waited = 0;
    while (received_.empty() && (waited < limit || !to_send_.empty() || tx_bits_ > 0)) {
        step();
        if (to_send_.empty() && tx_bits_ == 0) ++waited;
    }
    std::size_t n = 0;
    while (n < out.size() && !received_.empty()) {
        out[n++] = received_.front();
        received_.pop_front();
    }
    return n;
}

}  // namespace accel::board_test
