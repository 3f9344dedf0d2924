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

// The program of a predicted plan (predict_plan: plan.instructions is its length, or
// more than it when placement's weights or params are `loaded` and their LOADs are
// dropped), placed in the device's DRAM and on-chip buffers as `placement` says: every LOAD and DRAIN is
// emitted with the final address of what it reads or writes. `lowered` is the layer lowered as the
// plan says (lower(layer, plan.lowering)). Throws accel::Error when the layer's DRAM
// image would not fit 32-bit addresses, or the plan was not predicted.
Conv2dProgram schedule_conv2d(const LoweredLayer& lowered, const HwParams& hw,
                              const Conv2dPlan& plan, const LayerPlacement& placement = {});
// The same for the original layer in an image of its own, lowered first.
Conv2dProgram schedule_conv2d(const Conv2dLayer& layer, const HwParams& hw,
                              const Conv2dPlan& plan);

// The instructions of a plan whose length is not known yet (the planner's candidates),
// for the cost model and for checks of what they do in SRAM: their DRAM addresses are
// those of the layer's own image with an empty program region, which the cost model
// does not read -- not a program to run. Throws accel::Error as schedule_conv2d does,
// and as soon as the program passes `max_instructions` (the planner's bound on the work
// of one candidate). `weights` and `params` as LayerPlacement's: with `loaded`, the
// program of a later run, which finds them on chip.
Conv2dProgram schedule_unplaced(const LoweredLayer& lowered, const HwParams& hw,
                                const Conv2dPlan& plan,
                                int64_t max_instructions = std::numeric_limits<int64_t>::max(),
                                const BufferWindow& weights = {}, const BufferWindow& params = {});

}  // namespace accel
