// A tiling plan for one conv2d layer on one hardware config (docs/tiling.md): the tile
// sizes, the loop order, how each buffer is used, and what the plan is predicted to
// cost. The planner chooses it; the scheduler turns it into instructions.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/lowering.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa_fields.hpp"
#include "ops/conv2d.hpp"

namespace accel {

enum class LoopOrder {
    WeightsOuter,  // output-channel tiles outside spatial tiles: weights stay, inputs stream
    SpatialOuter,  // spatial tiles outside output-channel tiles: inputs stay, weights stream
};
const char* loop_order_name(LoopOrder order);

// Copies of a buffer that streams tiles: one loads while the other is read.
constexpr int64_t kDoubleBuffer = 2;
// The accumulators' ring: up to three tiles, so that a tile's DRAIN has two tiles'
// GEMMs, not one, before its slot is needed again (the DRAIN shares the bus with the
// loads).
constexpr int64_t kMaxAccRing = 3;
// The parameters' ring when the table cannot hold every output-channel block: four
// tiles' worth. A tile waits only for the tile kPrmRing earlier to free its slot, which
// the accumulator ring guarantees while it is shorter (scheduler.cpp, load_params).
constexpr int64_t kPrmRing = 4;
static_assert(kMaxAccRing < kPrmRing, "the parameter ring's reuse waits on the ACC ring");

// Kernel rows or columns a tile may hold: GEMM's n_r and n_s fields.
constexpr int64_t kMaxKernelTile = static_cast<int64_t>(isa::field_max(isa::kKernelExtentBits));

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
    bool input_entries_apart = false;  // each input entry is a burst of its own (Subsample)
    int64_t input_row_extra = 0;       // entries read past each row's span (PackColumns: P-1)
};
TilingExtents tiling_extents(const Conv2dLayer& layer, const HwParams& hw);

// Footprints of `tile` for `layer` (largest tile, no lowering): resident, double- or
// single-buffered as plan.cpp decides. Used by the planner and by the property tests.
Conv2dPlan make_plan(const Conv2dLayer& layer, const HwParams& hw, const TileSizes& tile,
                     LoopOrder order);
Conv2dPlan make_plan(const TilingExtents& extents, const HwParams& hw, const TileSizes& tile,
                     LoopOrder order);

// The WGT entries a plan's weights take when it loads each of its weight tiles once --
// every tile resident, or one tile for the whole layer -- so that they can stay on
// chip for the next run of the same program; 0 when it streams them. `lowered` is the
// shape of the layer the plan tiles.
int64_t weights_loaded_once_entries(const Conv2dPlan& plan, const Conv2dShape& lowered);
// The PRM entries a plan's parameters take when every output-channel block's fit the
// table, each loaded once; 0 when they go through the ring.
int64_t params_loaded_once_entries(const Conv2dPlan& plan);

// True when every buffer footprint fits and the tile respects the ISA's field limits.
bool plan_fits(const Conv2dPlan& plan);

// True when a program's first step (the first tile, its first reduction chunk) loads
// and multiplies its weights one output-channel block at a time: when it has several
// blocks over whole kernel rows and one block's GEMM hides the next block's LOAD. The
// scheduler emits it so and the planner's estimate counts it so.
bool first_step_sliced(const TileSizes& tile, int64_t kernel_cols, const HwParams& hw);

}  // namespace accel
