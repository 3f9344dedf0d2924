// How long a run may take. A legal program can run practically forever while making
// progress all the time -- one GEMM of 65535-sized loops with zero strides is 10^22
// steps -- which no watchdog of stalls catches. So every simulated device stops a run
// at a cycle budget (docs/cli.md, "accel exec"): by default one derived from what the
// program's instructions can legitimately take.
#pragma once
#include <cstdint>
#include <span>

#include "devices/device.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"

namespace accel {

// The most cycles `insn` can keep its unit busy on `hw`: one cycle per GEMM step, SRAM
// entry and DRAM beat, every DRAM burst paying the whole latency as if alone on the bus.
// An upper bound, not a prediction; saturates at UINT64_MAX.
uint64_t max_cycles_of(const isa::Insn& insn, const HwParams& hw);

// The most cycles running `count` instructions from `insn_addr` can take: max_cycles_of
// each and its fetch, summed over the instructions fetch would run (up to the first
// FINISH, or the first word it would reject). Of a device's DRAM, or of a DRAM image
// loaded at address 0 (zeros past it).
uint64_t program_max_cycles(const Device& device, uint32_t insn_addr, uint32_t count);
uint64_t program_max_cycles(std::span<const uint8_t> image, uint32_t insn_addr,
                            uint32_t count, const HwParams& hw);

// A run's default budget: twice what the program can take, plus 2^20 cycles for reset,
// CSR access and the bound's own slips. It ends a device that livelocks; a legal but
// practically endless program gets a practically endless budget, which `accel exec`
// caps for the hand-written streams it runs.
constexpr uint64_t default_cycle_budget(uint64_t program_max_cycles) {
    constexpr uint64_t kSlack = uint64_t{1} << 20;
    return program_max_cycles > (UINT64_MAX - kSlack) / 2 ? UINT64_MAX
                                                           : 2 * program_max_cycles + kSlack;
}

}  // namespace accel
