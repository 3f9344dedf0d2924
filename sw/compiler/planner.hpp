// The planner: chooses, for one conv2d layer on one hardware config, the tiling plan
// (plan.hpp) with the fewest predicted cycles (docs/tiling.md, "The planner").
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "compiler/layout.hpp"
#include "compiler/plan.hpp"

namespace accel {

// Every plan the planner chooses from: each lowering of the layer (lowering.hpp) with
// each tiling of the lowered layer that fits, unpredicted. The test-only exhaustive
// oracle predicts them all.
std::vector<Conv2dPlan> tile_space(const Conv2dLayer& layer, const HwParams& hw);

// Fills the plan's predicted_cycles, ideal_cycles, DRAM bytes and instruction count from
// its schedule through the cost model (cost_model.hpp); `lowered` is the layer lowered
// as the plan says. Throws accel::Error as schedule_conv2d does.
void predict_plan(const LoweredLayer& lowered, const HwParams& hw, Conv2dPlan& plan,
                  int64_t max_instructions = std::numeric_limits<int64_t>::max());
// The same for the original layer, lowered first.
void predict_plan(const Conv2dLayer& layer, const HwParams& hw, Conv2dPlan& plan,
                  int64_t max_instructions = std::numeric_limits<int64_t>::max());

// A program's length, the cost model's prediction and the DRAM bytes it reads, as
// predict_plan fills them into a plan.
struct ProgramPrediction {
    int64_t instructions = 0;
    int64_t predicted_cycles = 0;
    int64_t dram_read_bytes = 0;
};
// Those of the program of a later run of a plan whose weights, parameters or both stayed
// on chip (BufferWindow::loaded).
ProgramPrediction predict_later_run(const LoweredLayer& lowered, const HwParams& hw,
                                     const Conv2dPlan& plan, bool weights_loaded,
                                     bool params_loaded);

// Chooses the plan with the fewest predicted cycles (planner.cpp). Throws accel::Error
// saying which buffer is short, and by how much, when not even the smallest tile fits.
Conv2dPlan plan_conv2d(const Conv2dLayer& layer, const HwParams& hw);

}  // namespace accel
