// Where a conv2d layer's tensors lie in DRAM (docs/tiling.md): the layer as the device
// runs it -- lowered once, with the geometry of the input its LOADs read -- the bytes of
// its tensors, and the regions of its DRAM image. Packing the user's tensors into these
// layouts is packing.hpp's.
#pragma once
#include <cstdint>
#include <optional>

#include "base/int_math.hpp"
#include "compiler/lowering.hpp"
#include "compiler/plan.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"

namespace accel {

// The input in DRAM as the LOADs read it: [NB][CB][Hp][Wp] entries of BATCH x BLOCK_IN
// int8. Hp, Wp include `extra_pad` rows/columns of zx that the load unit cannot insert
// itself (past kMaxLoadPad). With a strided-read lowering it is the original input, of
// which the LOADs read every step_h-th row from first_y and every step_w-th column from
// first_x: the lowered layer's row y is row first_y + y*step_h here (columns alike).
// With the packing lowering it is the original input too, which packing LOADs read: the
// lowered column j packs its padded columns j .. j+pack_taps-1 (pack_bytes channels
// each), streamed from unpadded column j - pack_left. A LOAD's window is clipped to rows
// [0, read_h) and columns [0, read_w) of the input as the LOADs index it: Hp x Wp, or the
// rows and columns a strided read keeps.
struct InputGeometry {
    int64_t extra_pad_top = 0, extra_pad_bottom = 0, extra_pad_left = 0, extra_pad_right = 0;
    int64_t padded_h = 0, padded_w = 0;  // Hp, Wp
    int64_t read_h = 0, read_w = 0;      // the rows and columns the LOADs index (above)
    int64_t first_y = 0, first_x = 0, step_h = 1, step_w = 1;
    int64_t pack_taps = 1, pack_bytes = 0, pack_left = 0;

    bool host_padded() const {
        return extra_pad_top + extra_pad_bottom + extra_pad_left + extra_pad_right != 0;
    }
    // The columns a LOAD streams for a window `span` entries wide: a packing LOAD reads
    // pack_taps - 1 past it.
    int64_t streamed_cols(int64_t span) const { return span + pack_taps - 1; }
};

// A conv2d layer as the device runs it: the original, the lowering (lowering.hpp), the
// lowered layer, computed once, and its input's geometry in DRAM. Everything after the
// planner's choice of a lowering -- scheduler, packing, the network's placement -- reads
// this one object.
struct LoweredLayer {
    Conv2dLayer original;  // what the user asked for (the golden reference computes it)
    Lowering lowering;
    Conv2dLayer layer;     // lower_layer(original, lowering): what the instructions compute
    InputGeometry input;
};
LoweredLayer lower(const Conv2dLayer& original, const Lowering& lowering);

// The DRAM bytes of a lowered layer's tensors, in the blocked layouts below, saturating at
// INT64_MAX for extreme shapes. Their total bounds the layer's DRAM image from below: the
// planner refuses a layer whose tensors alone pass 4 GiB before searching.
struct TensorFootprint {
    int64_t input = 0, weights = 0, params = 0, output = 0;
    int64_t total() const {
        return saturating_add(saturating_add(input, weights), saturating_add(params, output));
    }
};
TensorFootprint tensor_footprint(const LoweredLayer& lowered, const HwParams& hw);

struct DramRegion {
    uint32_t base = 0;
    uint32_t bytes = 0;
};

// The regions of a layer in the device's DRAM:
//  program  the instructions, first
//  input    the input (InputGeometry)
//  weights  [KB][R][S][CB] entries of BLOCK_OUT x BLOCK_IN int8 ([o][i])
//  params   [KB] entries: bias (zx folded in) int32[BO], multiplier int32[BO], shift int32[BO]
//  zx_row   a row of input entries holding zx, read for tiles that lie wholly in padding
//  output   [NB][KB][OH][OW] entries of BATCH x BLOCK_OUT int8
struct DramLayout {
    DramRegion program, input, weights, params, zx_row, output;
    uint64_t dram_bytes = 0;  // the end of the layer's own regions, rounded up
};

// The part of an on-chip buffer a layer's program uses: `entries` from entry `base`
// (0: to the end of the buffer). A network gives each layer whose weights (in WGT) or
// parameters (in PRM) stay on chip across inferences a region of its own, and the
// others what is left (network/weight_residency.hpp). With `loaded`, they are already
// there, put by an earlier program of the same layer: the program does not load them.
// Only for a plan that loads each tile of them once (weights_loaded_once_entries,
// params_loaded_once_entries).
struct BufferWindow {
    uint32_t base = 0;
    uint32_t entries = 0;
    bool loaded = false;
};

// Where a layer goes in the device's DRAM: its program at `base` and its constants
// (weights, parameters, zx row) behind it; the input and output where the caller keeps
// them (a network's arena), or, when not given, in the layer's own image: the input
// between the program and the constants, the output last. `weights` and `params` are
// its parts of the weight buffer and of the parameter table.
struct LayerPlacement {
    uint32_t base = 0;
    std::optional<uint32_t> input, output;
    BufferWindow weights, params;
};

// The regions of the lowered layer tiled by `tile`, with a program of `instructions`,
// placed as `placement` says, each of its own aligned (align_dram_region). Throws
// accel::Error when the layer's own image would pass the 4 GiB the ISA addresses: its
// tensors alone, or with its instructions.
DramLayout make_dram_layout(const LoweredLayer& lowered, const HwParams& hw,
                            const TileSizes& tile, int64_t instructions,
                            const LayerPlacement& placement = {});

}  // namespace accel
