#include "compiler/layout.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/error.hpp"
#include "hw/dram_bus.hpp"
#include "hw/isa.hpp"

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
                            const TileSizes& tile, int64_t instructions,
                            const LayerPlacement& placement) {
    const Conv2dParams& p = lowered.layer.params;
    const int64_t max_span_w =
        lowered.input.streamed_cols(input_span(tile.ow, p.stride_w, tile.s, p.dilation_w));
    const TensorFootprint f = tensor_footprint(lowered, hw);
    const auto input = static_cast<uint64_t>(f.input), weights = static_cast<uint64_t>(f.weights),
               params = static_cast<uint64_t>(f.params), output = static_cast<uint64_t>(f.output);
    const auto zx_row = static_cast<uint64_t>(max_span_w * hw.inp_entry_bytes);
    // The layer's own image must fit: its tensors alone, then with its instructions.
    uint64_t tensors = 0;  // at most 2^32 and each size below 2^63: the sums cannot wrap
    for (const uint64_t bytes : {input, weights, params, zx_row, output}) {
        if (tensors + bytes > dram_bus::kMaxDramBytes) {
            throw Error(fmt::format("layer needs more than 4 GiB of device DRAM ({} bytes for "
                                    "its tensors); split the batch or the image",
                                    tensors + bytes));
        }
        tensors = align_dram_region(tensors + bytes, hw);
    }
    const uint64_t program_bytes = static_cast<uint64_t>(instructions) * isa::kInsnBytes;
    if (tensors + align_dram_region(program_bytes, hw) > dram_bus::kMaxDramBytes) {
        throw Error("layer needs more than 4 GiB of device DRAM with its instructions");
    }
    DramLayout d;
    uint64_t at = placement.base;
    auto region = [&at, &hw](DramRegion& r, uint64_t bytes) {
        r = {static_cast<uint32_t>(at), static_cast<uint32_t>(bytes)};
        at = align_dram_region(at + bytes, hw);
    };
    region(d.program, program_bytes);
    if (placement.input) {
        d.input = {*placement.input, static_cast<uint32_t>(input)};
    } else {
        region(d.input, input);
    }
    region(d.weights, weights);
    region(d.params, params);
    region(d.zx_row, zx_row);
    if (placement.output) {
        d.output = {*placement.output, static_cast<uint32_t>(output)};
    } else {
        region(d.output, output);
    }
    d.dram_bytes = at;
    return d;
}

}  // namespace accel
