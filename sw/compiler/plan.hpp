// A tiling plan for one conv2d layer on one hardware config (docs/tiling.md): the tile
// sizes, the loop order, how each buffer is used, and what the plan is predicted to
// cost. The planner chooses it; the scheduler turns it into instructions.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/lowering.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"

namespace accel {

enum class LoopOrder {
    WeightsOuter,  // output-channel tiles outside spatial tiles: weights stay, inputs stream
    SpatialOuter,  // spatial tiles outside output-channel tiles: inputs stay, weights stream
};
const char* loop_order_name(LoopOrder order);

// One on-chip buffer's use: `entries` of the largest tile, times `buffers` copies, against
// the buffer's depth. Copies are 2 when double-buffered, or, when `resident`, one for
// every distinct tile of the layer: each is loaded once and never overwritten.
struct BufferUse {
    int64_t entries = 0;
    int64_t buffers = 1;
    bool resident = false;
    int64_t entry_bytes = 0;
    int64_t depth = 0;
    int64_t used_bytes() const { return entries * buffers * entry_bytes; }
    int64_t capacity_bytes() const { return depth * entry_bytes; }
    bool fits() const { return entries * buffers <= depth; }
};

struct TileSizes {
    int64_t oh = 1, ow = 1;  // output rows and columns
    int64_t kb = 1;          // output-channel blocks
    int64_t cb = 1;          // input-channel blocks per reduction chunk
    int64_t r = 1, s = 1;    // kernel rows and columns per reduction chunk
};

struct Conv2dPlan {
    // The rewrite the host applies first (lowering.hpp); the tile sizes, blocks and
    // footprints below are those of the lowered layer.
    Lowering lowering;
    TileSizes tile;
    LoopOrder order = LoopOrder::WeightsOuter;
    BufferUse inp, wgt, acc, prm;
    // Blocked extents of the layer.
    int64_t nb = 1, cb = 1, kb = 1;  // batch blocks, input- and output-channel blocks
    // Predictions (cost_model.hpp), filled by the planner.
    int64_t predicted_cycles = 0;
    int64_t ideal_cycles = 0;        // GEMM issue cycles if the core never stalled
    int64_t dram_read_bytes = 0;
    int64_t dram_write_bytes = 0;
    int64_t instructions = 0;
};

// What a tiling's footprints depend on, computed once for the many tilings of a layer.
struct TilingExtents {
    int64_t out_h = 1, out_w = 1, r = 1, s = 1;
    int64_t nb = 1, cb = 1, kb = 1;  // blocked extents
    int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
};
TilingExtents tiling_extents(const Conv2dLayer& layer, const HwParams& hw);

// Footprints of `tile` for `layer` (largest tile, no lowering): resident, double- or
// single-buffered as plan.cpp decides. Used by the planner and by the property tests.
Conv2dPlan make_plan(const Conv2dLayer& layer, const HwParams& hw, const TileSizes& tile,
                     LoopOrder order);
Conv2dPlan make_plan(const TilingExtents& extents, const HwParams& hw, const TileSizes& tile,
                     LoopOrder order);

// True when every buffer footprint fits and the tile respects the ISA's field limits.
bool plan_fits(const Conv2dPlan& plan);

}  // namespace accel
