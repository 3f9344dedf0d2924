// Rewrites of a conv2d (lowering.hpp explains each).
#include "base/int_math.hpp"
#include "compiler/lowering.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace accel {
namespace {

// One axis of subsample_window: `out` outputs of stride `stride` over `size` pixels
// with `pad` before and `pad_after` after them; read whole unless `strided`.
SubsampleAxis subsample_axis(int64_t size, int64_t pad, int64_t pad_after, int64_t stride,
                             int64_t out, bool strided) {
    if (!strided) return {0, size, 1, pad, pad_after};
    SubsampleAxis a;
    a.step = stride;
    a.pad_before = std::min(out, ceil_div(pad, stride));  // outputs on the leading padding
    a.first = a.pad_before * stride - pad;
    a.count = a.first < size ? std::min(out - a.pad_before, ceil_div(size - a.first, stride)) : 0;
    a.pad_after = out - a.pad_before - a.count;
    return a;
}

// The load unit inserts the lowered layer's padding itself: the input is not rewritten.
bool subsample_applies(const Conv2dLayer& layer, const Lowering& lowering) {
    const SubsampleWindow w = subsample_window(layer, lowering);
    for (const SubsampleAxis& a : {w.rows, w.cols}) {
        if (a.count <= 0 || a.pad_before > kMaxLoadPad || a.pad_after > kMaxLoadPad) return false;
    }
    return true;
}

}  // namespace

bool reads_strided(const Lowering& lowering) {
    return lowering.kind == LoweringKind::Subsample || lowering.kind == LoweringKind::SubsampleRows;
}

bool reads_entries_apart(const Conv2dLayer& layer, const Lowering& lowering) {
    return reads_strided(lowering) && subsample_window(layer, lowering).cols.step > 1;
}

SubsampleWindow subsample_window(const Conv2dLayer& layer, const Lowering& lowering) {
    const Conv2dParams& p = layer.params;
    const bool cols = lowering.kind == LoweringKind::Subsample;
    return {subsample_axis(layer.shape.h, p.pad_top, p.pad_bottom, p.stride_h, layer.out_h(), true),
            subsample_axis(layer.shape.w, p.pad_left, p.pad_right, p.stride_w, layer.out_w(), cols)};
}

std::vector<Lowering> lowerings_for(const Conv2dLayer& layer, const HwParams& hw) {
    const Conv2dShape& s = layer.shape;
    const Conv2dParams& p = layer.params;
    std::vector<Lowering> out{{}};
    if (s.r == 1 && s.s == 1 && (p.stride_h > 1 || p.stride_w > 1)) {
        // Rows alone only when both are strided: otherwise it is Subsample.
        const Lowering strided[] = {{LoweringKind::Subsample, 1}, {LoweringKind::SubsampleRows, 1}};
        for (const Lowering& lo : strided) {
            const bool distinct = lo.kind == LoweringKind::Subsample || (p.stride_h > 1 && p.stride_w > 1);
            if (distinct && subsample_applies(layer, lo)) out.push_back(lo);
        }
    }
    // Packing LOADs stream P-1 entries past each window: they pad those too.
    const int64_t pack = std::min<int64_t>(hw.block_in / s.c, s.s);
    if (pack >= 2 && p.dilation_w == 1 && p.pad_left <= kMaxLoadPad &&
        p.pad_right + pack - 1 <= kMaxLoadPad) {
        out.push_back({LoweringKind::PackColumns, pack});
    }
    return out;
}

std::string lowering_name(const Lowering& lowering) {
    switch (lowering.kind) {
        case LoweringKind::None: return "none";
        case LoweringKind::Subsample: return "subsample the strided 1x1 input by strided DMA reads";
        case LoweringKind::SubsampleRows:
            return "subsample the strided 1x1 input's rows by strided DMA reads";
        case LoweringKind::PackColumns:
            return fmt::format("pack {} kernel columns per input-channel block", lowering.pack);
    }
    return "?";
}

Conv2dLayer lower_layer(const Conv2dLayer& layer, const Lowering& lowering) {
    Conv2dLayer l = layer;
    Conv2dParams& p = l.params;
    Conv2dShape& s = l.shape;
    switch (lowering.kind) {
        case LoweringKind::None: break;
        case LoweringKind::Subsample:
        case LoweringKind::SubsampleRows: {
            const SubsampleWindow w = subsample_window(layer, lowering);
            s.h = w.rows.count;
            s.w = w.cols.count;
            p.stride_h = static_cast<int>(p.stride_h / w.rows.step);
            p.stride_w = static_cast<int>(p.stride_w / w.cols.step);
            p.dilation_h = p.dilation_w = 1;
            p.pad_top = static_cast<int>(w.rows.pad_before);
            p.pad_bottom = static_cast<int>(w.rows.pad_after);
            p.pad_left = static_cast<int>(w.cols.pad_before);
            p.pad_right = static_cast<int>(w.cols.pad_after);
            break;
        }
        case LoweringKind::PackColumns: {
            const int64_t pk = lowering.pack;
            s.c = layer.shape.c * pk;
            s.s = ceil_div(layer.shape.s, pk);
            p.dilation_w = static_cast<int>(pk);
            p.pad_left = p.pad_right = 0;  // the packing LOADs pad the columns
            // Exactly as wide as the output needs: the last packed column may read past
            // the padded input, where its weights are zero.
            s.w = input_span(layer.out_w(), p.stride_w, s.s, p.dilation_w);
            break;
        }
    }
    return l;
}

TensorI8 lower_weights(const Conv2dLayer& layer, const Lowering& lowering, const TensorI8& w) {
    if (lowering.kind != LoweringKind::PackColumns) return w;
    const Conv2dShape& s0 = layer.shape;
    const Conv2dShape s = lower_layer(layer, lowering).shape;
    TensorI8 out({s.r, s.s, s.c, s.k});  // zero: the taps past the kernel's last column
    for (int64_t r = 0; r < s.r; ++r)
        for (int64_t j = 0; j < s.s; ++j)
            for (int64_t k = 0; k < lowering.pack; ++k) {
                const int64_t col = j * lowering.pack + k;
                if (col >= s0.s) continue;
                for (int64_t c = 0; c < s0.c; ++c)
                    for (int64_t o = 0; o < s.k; ++o) {
                        out.data[static_cast<size_t>(((r * s.s + j) * s.c + k * s0.c + c) * s.k + o)] =
                            w.data[static_cast<size_t>(((r * s0.s + col) * s0.c + c) * s0.k + o)];
                    }
            }
    return out;
}

}  // namespace accel
