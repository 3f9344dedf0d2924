// Predicts the cycles an instruction stream takes on the RTL (docs/tiling.md, "Cost
// model"): the three units run their queues in order, wait for their tokens, and share
// one DRAM bus of axi.data_bits/8 bytes per cycle behind dram.latency_cycles.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/hw_params.hpp"
#include "hw/isa.hpp"

namespace accel {

struct CostPrediction {
    int64_t cycles = 0;       // start to done
    int64_t gemm_steps = 0;   // the core's issue cycles (ideal_cycles)
    int64_t load_busy = 0, gemm_busy = 0, drain_busy = 0;
    int64_t bus_beats = 0;    // data beats on the DRAM bus, instructions included
};

// When one instruction ran in the model: its unit (0 load, 1 compute, 2 drain) and
// its start and completion cycles.
struct InsnTime {
    int unit = 0;
    int64_t start = 0, end = 0;
};

// For streams in which every token is pushed earlier in program order than it is
// popped (all the scheduler emits).
// `timeline`, when given, receives one InsnTime per LOAD, GEMM and DRAIN in program order.
CostPrediction predict_cycles(const std::vector<isa::Insn>& program, const HwParams& hw,
                              std::vector<InsnTime>* timeline = nullptr);

}  // namespace accel
