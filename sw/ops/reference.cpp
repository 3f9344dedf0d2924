#include "ops/reference.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/double_rounding.hpp"
#include "ops/quant.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {
namespace {

void check_tensors(const Conv2dLayer& layer, const TensorI8& x, const TensorI8& w,
                   const std::vector<int32_t>& bias) {
    const Conv2dShape& s = layer.shape;
    const std::vector<int64_t> want_x{s.n, s.h, s.w, s.c};
    const std::vector<int64_t> want_w{s.r, s.s, s.c, s.k};
    if (x.shape != want_x) throw Error("conv2d_reference: input shape does not match the layer");
    if (w.shape != want_w) throw Error("conv2d_reference: weight shape does not match the layer");
    if (static_cast<int64_t>(bias.size()) != s.k) {
        throw Error(fmt::format("conv2d_reference: bias has {} values, expected K = {}",
                                bias.size(), s.k));
    }
}

// Accumulates one output pixel's K sums. Taps that fall in the padding hold zx, so
// (xp - zx) is 0 there and they are skipped. uint32 arithmetic gives the int32
// two's-complement wraparound of the contract without signed-overflow UB.
void accumulate_pixel(const Conv2dLayer& layer, const TensorI8& x, const TensorI8& w,
                      int64_t n, int64_t oh, int64_t ow, std::vector<uint32_t>& acc) {
    const Conv2dShape& s = layer.shape;
    const Conv2dParams& p = layer.params;
    const int32_t zx = p.input_zero_point;
    for (int64_t r = 0; r < s.r; ++r) {
        const int64_t ih = oh * p.stride_h - p.pad_top + r * p.dilation_h;
        if (ih < 0 || ih >= s.h) continue;
        for (int64_t t = 0; t < s.s; ++t) {
            const int64_t iw = ow * p.stride_w - p.pad_left + t * p.dilation_w;
            if (iw < 0 || iw >= s.w) continue;
            const int8_t* xc = &x.data[static_cast<size_t>(((n * s.h + ih) * s.w + iw) * s.c)];
            const int8_t* wtap = &w.data[static_cast<size_t>((r * s.s + t) * s.c * s.k)];
            for (int64_t c = 0; c < s.c; ++c) {
                const int32_t xv = int32_t{xc[c]} - zx;
                const int8_t* wk = wtap + c * s.k;
                for (int64_t k = 0; k < s.k; ++k) {  // contiguous in K: vectorizes
                    acc[static_cast<size_t>(k)] += static_cast<uint32_t>(xv * int32_t{wk[k]});
                }
            }
        }
    }
}

}  // namespace

TensorI8 conv2d_reference(const Conv2dLayer& layer, const TensorI8& x, const TensorI8& w,
                          const std::vector<int32_t>& bias) {
    validate(layer);
    check_tensors(layer, x, w, bias);
    const Conv2dShape& s = layer.shape;
    const Conv2dParams& p = layer.params;
    const int64_t oh_n = layer.out_h(), ow_n = layer.out_w();
    TensorI8 y({s.n, oh_n, ow_n, s.k});
    std::vector<uint32_t> acc(static_cast<size_t>(s.k));
    const bool double_scale = !p.double_scale.empty();
    std::vector<DoubleScale> scales;
    for (double scale : p.double_scale) scales.push_back(decompose_scale(scale));
    int8_t* out = y.data.data();
    for (int64_t n = 0; n < s.n; ++n) {
        for (int64_t oh = 0; oh < oh_n; ++oh) {
            for (int64_t ow = 0; ow < ow_n; ++ow) {
                std::transform(bias.begin(), bias.end(), acc.begin(),
                               [](int32_t b) { return static_cast<uint32_t>(b); });
                accumulate_pixel(layer, x, w, n, oh, ow, acc);
                for (int64_t k = 0; k < s.k; ++k) {
                    const auto kk = static_cast<size_t>(k);
                    const auto a = static_cast<int32_t>(acc[kk]);
                    // mbqm reaches +-(2^31-1), so zy + scaled is summed in int64 before the
                    // clamp; the double scale's sum wraps in int32, as TFLite's does.
                    const int64_t v =
                        double_scale ? wrapping_add(round_product_like_double(a, scales[kk]),
                                                    p.output_zero_point)
                                     : int64_t{p.output_zero_point} +
                                           mbqm(a, p.multiplier[kk], p.shift[kk], p.round_up);
                    *out++ = static_cast<int8_t>(std::clamp<int64_t>(v, p.act_min, p.act_max));
                }
            }
        }
    }
    return y;
}

}  // namespace accel
