#include "ops/depthwise_conv2d.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/conv_quant.hpp"
#include "ops/quant.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {
namespace {

// The output channel count and the depth multiplier M = (C*M) / C.
struct Depths {
    int64_t input, output, multiplier;
};

Depths check_shapes(const std::vector<int64_t>& input_shape,
                    const std::vector<int64_t>& filter_shape) {
    if (input_shape.size() != 4 || filter_shape.size() != 4) {
        throw Error("depthwise_conv2d: input and filter must be 4-D ([N,H,W,C], [1,R,S,C*M])");
    }
    for (size_t i = 0; i < 4; ++i) {
        if (input_shape[i] < 1 || filter_shape[i] < 1) {
            throw Error("depthwise_conv2d: every input and filter dimension must be >= 1");
        }
    }
    if (filter_shape[0] != 1) {
        throw Error(fmt::format("depthwise_conv2d: filter dimension 0 is {}, must be 1",
                                filter_shape[0]));
    }
    const int64_t in_c = input_shape[3], out_c = filter_shape[3];
    if (out_c % in_c != 0) {
        throw Error(fmt::format("depthwise_conv2d: filter depth {} is not a multiple of the "
                                "input depth {}", out_c, in_c));
    }
    return {in_c, out_c, out_c / in_c};
}

}  // namespace

DepthwiseConv2dParams prepare_depthwise_conv2d(const std::vector<int64_t>& input_shape,
                                               const std::vector<int64_t>& filter_shape,
                                               const DepthwiseConv2dOptions& options,
                                               const QuantParams& input,
                                               const std::vector<float>& filter_scales,
                                               const QuantParams& output) {
    const Depths d = check_shapes(input_shape, filter_shape);
    const WindowOptions& w = options.window;
    const WindowPadding pad =
        compute_padding(w.padding, input_shape[1], input_shape[2], filter_shape[1],
                        filter_shape[2], w.stride_h, w.stride_w, options.dilation_h,
                        options.dilation_w);
    DepthwiseConv2dParams p;
    p.window = window_geometry(w, pad);
    p.dilation_h = options.dilation_h;
    p.dilation_w = options.dilation_w;
    p.input_offset = -int8_zero_point(input, "input");
    p.output_offset = int8_zero_point(output, "output");
    ChannelRequantization r =
        prepare_conv_requantization(input.scale, filter_scales, output.scale, d.output);
    p.multiplier = std::move(r.multiplier);
    p.shift = std::move(r.shift);
    prepare_activation(p, w.activation, output.scale, p.output_offset);
    return p;
}

TensorI8 depthwise_conv2d(const DepthwiseConv2dParams& p, const TensorI8& input,
                          const TensorI8& filter, const std::vector<int32_t>& bias) {
    const Depths d = check_shapes(input.shape, filter.shape);
    const auto channels = static_cast<size_t>(d.output);
    if (p.multiplier.size() != channels || p.shift.size() != channels) {
        throw Error(fmt::format("depthwise_conv2d: {} multipliers and {} shifts for {} output "
                                "channels", p.multiplier.size(), p.shift.size(), channels));
    }
    if (!bias.empty() && bias.size() != channels) {
        throw Error(fmt::format("depthwise_conv2d: {} bias values for {} output channels",
                                bias.size(), channels));
    }
    const WindowGeometry& g = p.window;
    if (g.out_h < 1 || g.out_w < 1 || p.act_min > p.act_max) {
        throw Error("depthwise_conv2d: empty output or act_min > act_max");
    }
    const int64_t n_n = input.dim(0), in_h = input.dim(1), in_w = input.dim(2);
    const int64_t f_h = filter.dim(1), f_w = filter.dim(2);
    TensorI8 out({n_n, g.out_h, g.out_w, d.output});
    int8_t* y = out.data.data();
    for (int64_t n = 0; n < n_n; ++n) {
        for (int64_t oy = 0; oy < g.out_h; ++oy) {
            for (int64_t ox = 0; ox < g.out_w; ++ox) {
                const int64_t y0 = oy * g.stride_h - g.pad_top;
                const int64_t x0 = ox * g.stride_w - g.pad_left;
                for (int64_t oc = 0; oc < d.output; ++oc) {
                    const int64_t ic = oc / d.multiplier;
                    int32_t acc = 0;
                    for (int64_t fy = 0; fy < f_h; ++fy) {
                        const int64_t iy = y0 + fy * p.dilation_h;
                        if (iy < 0 || iy >= in_h) continue;
                        for (int64_t fx = 0; fx < f_w; ++fx) {
                            const int64_t ix = x0 + fx * p.dilation_w;
                            if (ix < 0 || ix >= in_w) continue;
                            const int32_t xv = input.data[static_cast<size_t>(
                                ((n * in_h + iy) * in_w + ix) * d.input + ic)];
                            const int32_t wv = filter.data[static_cast<size_t>(
                                (fy * f_w + fx) * d.output + oc)];
                            const int32_t centered = wrapping_add(xv, p.input_offset);
                            acc = wrapping_add(acc, wrapping_mul(wv, centered));
                        }
                    }
                    const auto c = static_cast<size_t>(oc);
                    if (!bias.empty()) acc = wrapping_add(acc, bias[c]);
                    acc = wrapping_add(mbqm(acc, p.multiplier[c], p.shift[c], p.round_up), p.output_offset);
                    *y++ = static_cast<int8_t>(std::clamp(acc, p.act_min, p.act_max));
                }
            }
        }
    }
    return out;
}

}  // namespace accel
