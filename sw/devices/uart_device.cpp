#include "devices/uart_device.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {

// The CSRs through the bridge's REG_READ/REG_WRITE.
class UartDevice::Registers final : public RegisterFile {
public:
    explicit Registers(uart::Link& link) : link_(link) {}
    uint32_t read32(uint32_t offset) override { return link_.read_reg(offset); }
    void write32(uint32_t offset, uint32_t value) override { link_.write_reg(offset, value); }

private:
    uart::Link& link_;
};

namespace {

// Bytes written and read back at each end of the board's memory when the device opens.
constexpr uint64_t kProbeBytes = 64;

}  // namespace

UartDevice::UartDevice(std::unique_ptr<ByteChannel> channel, const HwParams& params,
                       uint64_t dram_bytes, const UartOptions& options)
    : channel_(std::move(channel)),
      link_(std::make_unique<uart::Link>(*channel_, options.link)),
      regs_(std::make_unique<Registers>(*link_)),
      params_(params),
      options_(options) {
    const uart::BoardInfo info = link_->info();
    if (info.version != uart::kVersion) {
        throw DeviceError(fmt::format("{}: the board speaks protocol version {}, this host {}",
                                      name(), info.version, uart::kVersion));
    }
    mem_bytes_ = info.mem_bytes;
    if (dram_bytes > mem_bytes_) {
        throw Error(fmt::format("{}: the layer needs {} bytes of device memory, the board has {}",
                                name(), dram_bytes, mem_bytes_));
    }
    check_csr_identity(*regs_, params_, name());
    probe_memory();
}

// A memory that reads back wrong data (an SDRAM not initialised, a bad pin, a fault)
// would make every result wrong: a pattern with every bit both 0 and 1 is written at both
// ends of the memory and must read back as written, or the device is not used.
void UartDevice::probe_memory() {
    const uint64_t n = std::min(kProbeBytes, mem_bytes_ / 2);
    std::array<uint8_t, kProbeBytes> want{}, got{};
    for (uint64_t at : {uint64_t{0}, mem_bytes_ - n}) {
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t v = i * 37 + 0x5b;  // the top end gets the inverse
            want[i] = static_cast<uint8_t>(at == 0 ? v : ~v);
        }
        link_->write_mem(static_cast<uint32_t>(at), std::span(want.data(), n));
        link_->read_mem(static_cast<uint32_t>(at), std::span(got.data(), n));
        for (uint64_t i = 0; i < n; ++i) {
            if (got[i] != want[i]) {
                throw DeviceError(fmt::format(
                    "{}: the board's memory reads back 0x{:02x} at 0x{:x} where 0x{:02x} was "
                    "written: its memory is faulty", name(), got[i], at + i, want[i]));
            }
        }
    }
}

UartDevice::~UartDevice() = default;

void UartDevice::check_range(uint64_t addr, uint64_t n, const char* what) const {
    if (addr > mem_bytes_ || n > mem_bytes_ - addr) {
        throw Error(fmt::format("{}: {} of {} bytes at 0x{:x} is outside the board's {} bytes",
                                name(), what, n, addr, mem_bytes_));
    }
}

void UartDevice::write_dram(uint64_t addr, std::span<const uint8_t> bytes) {
    check_range(addr, bytes.size(), "write");
    link_->write_mem(static_cast<uint32_t>(addr), bytes);
}

void UartDevice::read_dram(uint64_t addr, std::span<uint8_t> bytes) const {
    check_range(addr, bytes.size(), "read");
    link_->read_mem(static_cast<uint32_t>(addr), bytes);
}

DeviceCounters UartDevice::run(uint32_t insn_addr, uint32_t count) {
    return run_via_csrs(*regs_, insn_addr, count, name(), options_.run);
}

std::unique_ptr<Device> make_uart_device(const std::string& spec, const HwParams& params,
                                         uint64_t dram_bytes, UartOptions options) {
    std::string path = spec;
    const size_t at = spec.rfind('@');
    if (at != std::string::npos) {
        path = spec.substr(0, at);
        const std::string rate = spec.substr(at + 1);
        unsigned baud = 0;
        const auto [end, ec] = std::from_chars(rate.data(), rate.data() + rate.size(), baud);
        if (ec != std::errc() || end != rate.data() + rate.size() || baud == 0) {
            throw Error(fmt::format("uart:{}: '{}' is not a baud rate", spec, rate));
        }
        options.baud = baud;
    }
    if (path.empty()) throw Error(fmt::format("uart:{}: names no serial port", spec));
    return std::make_unique<UartDevice>(open_serial_port(path, options.baud), params, dram_bytes,
                                        options);
}

}  // namespace accel
