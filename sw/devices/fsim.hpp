// The functional simulator: a Device that runs instruction streams exactly as
// docs/isa.md defines them, one whole instruction at a time, with no notion of cycles.
// For every program without a data race its DRAM contents, error mask and ISA counters
// equal the RTL's; its timing counters stay 0.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "devices/device.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"

namespace accel {

class FunctionalSim : public Device {
public:
    // `dram_bytes` below 2^32: the ISA's DRAM addresses are 32 bits, and a smaller DRAM
    // makes every wrapped address a bus error, as on the RTL's bus (accel::Error if not).
    FunctionalSim(const HwParams& params, uint64_t dram_bytes);

    std::string name() const override { return "fsim"; }
    const HwParams& params() const override { return hw_; }

    uint64_t dram_bytes() const override { return dram_.size(); }
    void write_dram(uint64_t addr, std::span<const uint8_t> bytes) override;
    void read_dram(uint64_t addr, std::span<uint8_t> bytes) const override;

    // The SRAMs keep their contents from one run to the next, as the hardware's do; the
    // token counters start at 0. The low 6 bits of insn_addr are ignored (as by the RTL).
    DeviceCounters run(uint32_t insn_addr, uint32_t count) override;

    // The cycle budget of each run (run_budget.hpp); 0, the default, derives it from the
    // program, at most kDefaultCycleLimit. fsim keeps no time: it charges every instruction, before executing it, the
    // most cycles it can take on the hardware, and a run whose charges would pass the
    // budget throws accel::DeviceError naming the units' states.
    void set_max_cycles(uint64_t cycles) { max_cycles_ = cycles; }

    // How the units' instructions interleave. 0 (the default): fetch, load, compute,
    // drain in turn, each as far as it can go -- the fastest. Otherwise a pseudo-random
    // interleaving, instruction by instruction, drawn from the seed. Race-free programs
    // give the same results under every schedule, so tests use it as a race detector.
    void set_schedule_seed(uint32_t seed) { schedule_seed_ = seed; }

private:
    struct Machine;  // the per-run state: fetch, unit queues, tokens (fsim.cpp)
    friend struct Machine;

    // Each executes one instruction whole and updates the ISA counters; LOAD and DRAIN
    // return false on a bus error, having changed nothing.
    bool exec_load(const isa::Load& l, DeviceCounters& c);
    void pack_row(const isa::Load& l, const uint8_t* stream, uint8_t* dst) const;
    void exec_gemm(const isa::Gemm& g, DeviceCounters& c);
    bool exec_drain(const isa::Drain& d, DeviceCounters& c);

    uint8_t* sram_bytes(isa::Buffer b);
    // True when [addr, addr + n) lies inside the DRAM (addr already wrapped to 32 bits).
    bool in_dram(uint32_t addr, uint64_t n) const { return uint64_t{addr} + n <= dram_.size(); }

    HwParams hw_;
    std::vector<uint8_t> dram_;
    std::vector<int8_t> inp_;    // inp_depth entries of [B][BI]
    std::vector<int8_t> wgt_;    // wgt_depth entries of [BO][BI]
    std::vector<uint32_t> acc_;  // acc_depth entries of [B][BO]; uint32 for wraparound
    std::vector<int32_t> prm_;   // prm_depth entries of bias[BO], multiplier[BO], shift[BO]
    uint32_t schedule_seed_ = 0;
    uint64_t max_cycles_ = 0;
    std::vector<uint32_t> scratch_;  // GEMM partial sums, one per [BO][BI] lane
};

}  // namespace accel
