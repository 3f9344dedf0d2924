// A board running rtl/board/accel_board_top.sv, driven over its UART (docs/uart-protocol.md):
// its on-chip memory is the device's DRAM, its CSRs are reached through the bridge.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "devices/byte_channel.hpp"
#include "devices/device.hpp"
#include "devices/register_file.hpp"
#include "devices/uart_protocol.hpp"

namespace accel {

struct UartOptions {
    unsigned baud = 115200;          // for a serial port
    uart::LinkOptions link;          // response timeout, retries
    CsrRunOptions run;               // stall watchdog while the accelerator runs
};

class UartDevice final : public Device {
public:
    // Asks the board for its memory size, checks its CSR identity against `params` and
    // that its memory reads back what is written. accel::Error when the hardware differs
    // or its memory is smaller than `dram_bytes`; accel::DeviceError when the board does
    // not answer or its memory reads back wrong data.
    UartDevice(std::unique_ptr<ByteChannel> channel, const HwParams& params,
               uint64_t dram_bytes, const UartOptions& options);
    ~UartDevice() override;

    std::string name() const override { return "uart:" + channel_->name(); }
    const HwParams& params() const override { return params_; }
    uint64_t dram_bytes() const override { return mem_bytes_; }
    void write_dram(uint64_t addr, std::span<const uint8_t> bytes) override;
    void read_dram(uint64_t addr, std::span<uint8_t> bytes) const override;
    DeviceCounters run(uint32_t insn_addr, uint32_t count) override;

    const uart::Link& link() const { return *link_; }

private:
    class Registers;
    void check_range(uint64_t addr, uint64_t n, const char* what) const;
    void probe_memory();

    std::unique_ptr<ByteChannel> channel_;
    std::unique_ptr<uart::Link> link_;
    std::unique_ptr<Registers> regs_;
    HwParams params_;
    UartOptions options_;
    uint64_t mem_bytes_ = 0;
};

// `spec` is a serial port path, optionally followed by "@BAUD" (/dev/ttyUSB0@115200).
// accel::Error naming the port when it cannot be used.
std::unique_ptr<Device> make_uart_device(const std::string& spec, const HwParams& params,
                                         uint64_t dram_bytes, UartOptions options);

}  // namespace accel
