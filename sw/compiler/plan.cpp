// Footprints of a tiling: what each buffer holds for the largest tile.
#include <algorithm>

#include "base/int_math.hpp"
#include "compiler/plan.hpp"

namespace accel {
namespace {

// Every one of the layer's `distinct` tiles at once when they all fit (never reloaded,
// never waited for), else as many copies as fit, up to `most`.
BufferUse use(int64_t entries, int64_t distinct, int64_t most, int64_t entry_bytes,
              int64_t depth) {
    BufferUse u;
    u.entries = entries;
    u.entry_bytes = entry_bytes;
    u.depth = depth;
    if (distinct > 1 && distinct <= depth / entries) {  // distinct * entries <= depth
        u.buffers = distinct;
        u.resident = true;
    } else {
        u.buffers = std::clamp<int64_t>(depth / entries, 1, most);
    }
    return u;
}

}  // namespace

const char* loop_order_name(LoopOrder order) {
    return order == LoopOrder::WeightsOuter ? "weights-outer" : "spatial-outer";
}

TilingExtents tiling_extents(const Conv2dLayer& layer, const HwParams& hw) {
    TilingExtents e;
    e.out_h = layer.out_h();
    e.out_w = layer.out_w();
    e.r = layer.shape.r;
    e.s = layer.shape.s;
    e.nb = ceil_div(layer.shape.n, hw.batch);
    e.cb = ceil_div(layer.shape.c, hw.block_in);
    e.kb = ceil_div(layer.shape.k, hw.block_out);
    e.stride_h = layer.params.stride_h;
    e.stride_w = layer.params.stride_w;
    e.dilation_h = layer.params.dilation_h;
    e.dilation_w = layer.params.dilation_w;
    return e;
}

Conv2dPlan make_plan(const Conv2dLayer& layer, const HwParams& hw, const TileSizes& tile,
                     LoopOrder order) {
    return make_plan(tiling_extents(layer, hw), hw, tile, order);
}

Conv2dPlan make_plan(const TilingExtents& e, const HwParams& hw, const TileSizes& tile,
                     LoopOrder order) {
    Conv2dPlan plan;
    plan.tile = tile;
    plan.order = order;
    plan.nb = e.nb;
    plan.cb = e.cb;
    plan.kb = e.kb;
    const int64_t span_h = input_span(tile.oh, e.stride_h, tile.r, e.dilation_h);
    const int64_t span_w = input_span(tile.ow, e.stride_w, tile.s, e.dilation_w);
    // Distinct tiles: weights differ by output-channel tile and reduction chunk, inputs
    // by batch block, spatial tile and chunk. Products saturate: a tiling of extreme
    // extents must read as "does not fit", not wrap into one that does.
    const int64_t chunks = saturating_product(
        {ceil_div(e.cb, tile.cb), ceil_div(e.r, tile.r), ceil_div(e.s, tile.s)});
    const int64_t wgt_tiles = saturating_mul(ceil_div(e.kb, tile.kb), chunks);
    const int64_t inp_tiles = saturating_product(
        {e.nb, ceil_div(e.out_h, tile.oh), ceil_div(e.out_w, tile.ow), chunks});
    plan.inp = use(saturating_product({tile.cb, span_h, span_w}), inp_tiles, kDoubleBuffer,
                   hw.inp_entry_bytes, hw.inp_depth);
    plan.wgt = use(saturating_product({tile.kb, tile.r, tile.s, tile.cb}), wgt_tiles,
                   kDoubleBuffer, hw.wgt_entry_bytes, hw.wgt_depth);
    plan.acc = use(saturating_product({tile.kb, tile.oh, tile.ow}), 1, kMaxAccRing,
                   hw.acc_entry_bytes, hw.acc_depth);
    // Parameters: every output-channel block when they all fit (each loaded at the first
    // tile that needs it), else the ring of kPrmRing tiles' worth.
    plan.prm.entry_bytes = hw.prm_entry_bytes;
    plan.prm.depth = hw.prm_depth;
    if (plan.kb <= hw.prm_depth) {
        plan.prm.entries = plan.kb;
        plan.prm.buffers = 1;
    } else {
        plan.prm.entries = tile.kb;
        plan.prm.buffers = kPrmRing;
    }
    return plan;
}

int64_t weights_loaded_once_entries(const Conv2dPlan& plan, const Conv2dShape& lowered) {
    if (plan.wgt.resident) return plan.wgt.entries * plan.wgt.buffers;
    const TileSizes& t = plan.tile;
    const bool one_tile = t.kb >= plan.kb && t.cb >= plan.cb && t.r >= lowered.r &&
                          t.s >= lowered.s;
    return one_tile ? plan.wgt.entries : 0;
}

int64_t params_loaded_once_entries(const Conv2dPlan& plan) {
    return plan.prm.buffers == 1 ? plan.prm.entries : 0;
}

bool plan_fits(const Conv2dPlan& plan) {
    const TileSizes& t = plan.tile;
    const bool positive = t.oh >= 1 && t.ow >= 1 && t.kb >= 1 && t.cb >= 1 && t.r >= 1 &&
                          t.s >= 1;
    // Every extent but the kernel's is bounded by a depth.
    return positive && t.r <= kMaxKernelTile && t.s <= kMaxKernelTile && plan.inp.fits() &&
           plan.wgt.fits() && plan.acc.fits() && plan.prm.fits();
}

// Slicing pays when one block's GEMM hides the next block's weights behind it: each
// slice LOAD pays the DRAM latency on its own.
bool first_step_sliced(const TileSizes& t, int64_t kernel_cols, const HwParams& hw) {
    const int64_t gemm = t.oh * t.ow * t.r * t.s * t.cb;
    const int64_t slice_beats = t.r * t.s * t.cb * hw.wgt_entry_bytes / hw.beat_bytes;
    return t.kb > 1 && t.s == kernel_cols && gemm >= hw.config.dram_latency_cycles + slice_beats;
}

}  // namespace accel
