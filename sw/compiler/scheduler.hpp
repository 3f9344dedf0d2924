// The scheduler: turns a conv2d plan into the instruction stream of docs/isa.md for the
// DRAM layout of layout.hpp (docs/tiling.md). The host-side conversion that fills and
// reads that DRAM lives in packing.hpp.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "compiler/layout.hpp"
#include "compiler/plan.hpp"
#include "hw/isa.hpp"
#include "ops/conv2d.hpp"

namespace accel {

struct Conv2dProgram {
    LoweredLayer lowered;                // the layer the instructions compute, as lowered
    std::vector<isa::Insn> insns;
    DramLayout layout;                   // where they and the tensors lie (layout.hpp)
    int64_t gemm_steps = 0;              // sum of the GEMMs' reduction steps
    int64_t load_bytes = 0;              // DRAM bytes the LOADs read
    int64_t drain_bytes = 0;             // DRAM bytes the DRAINs write
};

// Schedules the layer as the plan tiles it; `lowered` is lowered as the plan says
// (lower(layer, plan.lowering)). Throws accel::Error when the layer's DRAM image would
// not fit 32-bit addresses, or as soon as the program passes `max_instructions` (the
// planner's bound on the work of one candidate).
Conv2dProgram schedule_conv2d(const LoweredLayer& lowered, const HwParams& hw,
                              const Conv2dPlan& plan,
                              int64_t max_instructions = std::numeric_limits<int64_t>::max());
// The same for the original layer, lowered first.
Conv2dProgram schedule_conv2d(const Conv2dLayer& layer, const HwParams& hw,
                              const Conv2dPlan& plan,
                              int64_t max_instructions = std::numeric_limits<int64_t>::max());

}  // namespace accel
