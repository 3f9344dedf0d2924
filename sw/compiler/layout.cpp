#include "compiler/layout.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/error.hpp"
#include "hw/dram_bus.hpp"

namespace accel {
namespace {

// The load unit inserts at most kMaxLoadPad padding entries per side; the host pads the rest.
int64_t host_pad(int pad) { return std::max<int64_t>(0, pad - kMaxLoadPad); }

// The input's geometry in DRAM: the lowered layer's input with the padding the load unit
// cannot insert, or with a strided-read lowering the original input, which strided LOADs
// read.
InputGeometry input_geometry(const Conv2dLayer& original, const Lowering& lowering,
                             const Conv2dLayer& layer) {
    InputGeometry d;
    if (reads_strided(lowering)) {
        const SubsampleWindow w = subsample_window(original, lowering);
        d.padded_h = original.shape.h;
        d.padded_w = original.shape.w;
        d.first_y = w.rows.first;
        d.first_x = w.cols.first;
        d.step_h = w.rows.step;
        d.step_w = w.cols.step;
        d.read_h = w.rows.count;
        d.read_w = w.cols.count;
        return d;
    }
    const Conv2dParams& p = layer.params;
    d.extra_pad_top = host_pad(p.pad_top);
    d.extra_pad_bottom = host_pad(p.pad_bottom);
    d.padded_h = d.read_h = layer.shape.h + d.extra_pad_top + d.extra_pad_bottom;
    if (lowering.kind == LoweringKind::PackColumns) {  // lowerings_for: no column host_pad
        d.padded_w = d.read_w = original.shape.w;
        d.pack_taps = lowering.pack;
        d.pack_bytes = original.shape.c;
        d.pack_left = original.params.pad_left;
        return d;
    }
    d.extra_pad_left = host_pad(p.pad_left);
    d.extra_pad_right = host_pad(p.pad_right);
    d.padded_w = d.read_w = layer.shape.w + d.extra_pad_left + d.extra_pad_right;
    return d;
}

}  // namespace

LoweredLayer lower(const Conv2dLayer& original, const Lowering& lowering) {
    LoweredLayer l{original, lowering, lower_layer(original, lowering), {}};
    l.input = input_geometry(original, lowering, l.layer);
    return l;
}

TensorFootprint tensor_footprint(const LoweredLayer& lowered, const HwParams& hw) {
    const Conv2dLayer& layer = lowered.layer;
    const Conv2dShape& s = layer.shape;
    const int64_t nb = ceil_div(s.n, hw.batch), cb = ceil_div(s.c, hw.block_in);
    const int64_t kb = ceil_div(s.k, hw.block_out);
    const InputGeometry& in = lowered.input;
    TensorFootprint f;
    f.input = saturating_product({nb, cb, in.padded_h, in.padded_w, hw.inp_entry_bytes});
    f.weights = saturating_product({kb, s.r, s.s, cb, hw.wgt_entry_bytes});
    f.params = saturating_product({kb, hw.prm_entry_bytes});
    f.output = saturating_product(
        {nb, kb, layer.out_h(), layer.out_w(), hw.batch, hw.block_out});
    return f;
}

DramLayout make_dram_layout(const LoweredLayer& lowered, const HwParams& hw,
                            const TileSizes& tile) {
    const Conv2dParams& p = lowered.layer.params;
    const int64_t max_span_w =
        lowered.input.streamed_cols(input_span(tile.ow, p.stride_w, tile.s, p.dilation_w));
    const TensorFootprint f = tensor_footprint(lowered, hw);
    const uint64_t sizes[] = {
        0,  // the program: sized by schedule_conv2d
        static_cast<uint64_t>(f.input), static_cast<uint64_t>(f.weights),
        static_cast<uint64_t>(f.params), static_cast<uint64_t>(max_span_w * hw.inp_entry_bytes),
        static_cast<uint64_t>(f.output)};
    DramLayout d;
    DramRegion* regions[] = {&d.program, &d.input, &d.weights, &d.params, &d.zx_row, &d.output};
    uint64_t at = 0;  // at most 2^32 and each size below 2^63: the sums cannot wrap
    for (size_t i = 0; i < 6; ++i) {
        if (at + sizes[i] > dram_bus::kMaxDramBytes) {
            throw Error(fmt::format("layer needs more than 4 GiB of device DRAM ({} bytes for "
                                    "its tensors); split the batch or the image",
                                    at + sizes[i]));
        }
        regions[i]->base = static_cast<uint32_t>(at);
        regions[i]->bytes = static_cast<uint32_t>(sizes[i]);
        at = align_dram_region(at + sizes[i], hw);
    }
    d.dram_bytes = at;
    return d;
}

}  // namespace accel
