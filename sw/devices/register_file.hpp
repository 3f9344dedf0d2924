// The accelerator's CSRs (csr.hpp) as seen by a host driver: a 32-bit register file,
// and the run sequence every board device shares -- identity check, start, wait for
// done, read the counters. Every device uses it: the boards over their links, the
// Verilator device on its AXI4-Lite pins (verilator/verilator_device_impl.hpp).
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

#include "devices/device.hpp"
#include "hw/hw_params.hpp"

namespace accel {

class RegisterFile {
public:
    virtual ~RegisterFile() = default;
    // `offset` is a CSR offset (csr.hpp). Failures throw accel::DeviceError.
    virtual uint32_t read32(uint32_t offset) = 0;
    virtual void write32(uint32_t offset, uint32_t value) = 0;
};

struct CsrRunOptions {
    // No progress (GEMM steps, LOAD or DRAIN bytes) for this long while busy: DeviceError.
    std::chrono::milliseconds stall_timeout{10000};
    // Pause between STATUS polls (0: poll back to back, for a slow link such as a UART).
    std::chrono::microseconds poll_interval{0};
};

// accel::Error when the CFG_* registers describe other hardware than `params`.
void check_csr_identity(RegisterFile& regs, const HwParams& params, const std::string& device);

// Starts `count` instructions at `insn_addr`, waits for STATUS.done and returns the
// counters (DeviceError on a stall, naming each unit's state).
DeviceCounters run_via_csrs(RegisterFile& regs, uint32_t insn_addr, uint32_t count,
                            const std::string& device, const CsrRunOptions& options);

DeviceCounters read_csr_counters(RegisterFile& regs);

// The UNIT_STATE CSR in words: "fetch idle, load busy, compute waiting for a token,
// drain halted" (docs/architecture.md, "Unit status").
std::string describe_unit_states(RegisterFile& regs);

}  // namespace accel
