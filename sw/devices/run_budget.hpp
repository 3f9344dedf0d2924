// How long a run may take. A legal program can run practically forever while making
// progress all the time -- one GEMM of 65535-sized loops with zero strides is 10^22
// steps -- which no watchdog of stalls catches. So every simulated device stops a run
// at a cycle budget (docs/cli.md, "accel exec"): by default one derived from what the
// program's instructions can legitimately take.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "base/int_math.hpp"
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
// CSR access and the bound's own slips. It ends a device that livelocks.
constexpr uint64_t default_cycle_budget(uint64_t program_max_cycles) {
    constexpr uint64_t kSlack = uint64_t{1} << 20;
    return saturating_add<uint64_t>(saturating_mul<uint64_t>(2, program_max_cycles), kSlack);
}

// The most a default budget grants: a legal but practically endless program would get a
// practically endless one (the RTL simulates about a million cycles a second). Every
// layer the compiler emits stays far below it; --max-cycles raises it.
constexpr uint64_t kDefaultCycleLimit = uint64_t{1} << 30;

// The budget of a run: `max_cycles` when it is not 0, else the default budget of the
// program's bound, at most kDefaultCycleLimit.
constexpr uint64_t run_cycle_budget(uint64_t max_cycles, uint64_t program_max_cycles) {
    if (max_cycles != 0) return max_cycles;
    const uint64_t budget = default_cycle_budget(program_max_cycles);
    return budget < kDefaultCycleLimit ? budget : kDefaultCycleLimit;
}

// The fewest cycles `insn` keeps its unit busy: one per GEMM step, and one per DRAM beat
// a LOAD reads or a DRAIN writes (the bus moves a beat a cycle). Saturates at UINT64_MAX.
uint64_t min_cycles_of(const isa::Insn& insn, const HwParams& hw);

// The fewest cycles a run still needs for the instructions its units have started: a
// unit runs its instructions one after another, so it needs at least min_cycles_of each
// it has completed and of the one it is busy with; the run, as long as its slowest unit.
// A device that keeps time reads how far its units have got and stops a run whose
// started instructions need more than its budget: one GEMM of 10^22 steps stops as it
// starts, not after the budget's cycles have run. Reads the program from the device's
// DRAM as the units get to it, in program order, as fetch dispatches it.
class StartedWork {
public:
    StartedWork(const Device& device, uint32_t insn_addr, uint32_t count);

    // `completed`: the instructions each unit (isa::Unit order) has completed so far;
    // `busy`: whether it is executing the next one.
    uint64_t least_cycles(const std::array<uint64_t, isa::kUnits>& completed,
                          const std::array<bool, isa::kUnits>& busy);

private:
    struct Cursor {
        uint64_t done = 0, sum = 0;  // instructions counted whole, and their cycles
        uint64_t next = 0;           // program index from which to look for the next one
        uint64_t next_cycles = 0;    // its cycles
        bool has_next = false;
    };
    void advance(size_t unit, Cursor& c);

    const Device& device_;
    uint64_t first_ = 0, count_ = 0;  // the program's first address and instructions
    std::array<Cursor, isa::kUnits> units_{};
};

}  // namespace accel
