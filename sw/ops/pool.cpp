#include "ops/pool.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {
namespace {

void check_input(const Pool2dParams& p, const TensorI8& input, const char* op) {
    if (input.rank() != 4) throw Error(fmt::format("{}: input must be [N,H,W,C]", op));
    const WindowGeometry& g = p.window;
    if (p.filter_h < 1 || p.filter_w < 1 || g.stride_h < 1 || g.stride_w < 1 || g.out_h < 1 ||
        g.out_w < 1 || p.act_min > p.act_max) {
        throw Error(fmt::format("{}: filter, stride and output sizes must be >= 1 and "
                                "act_min <= act_max", op));
    }
}

// Visits every output position with the window's bounds clipped to the image.
template <typename Reduce>
TensorI8 pool(const Pool2dParams& p, const TensorI8& input, Reduce reduce) {
    const int64_t batches = input.dim(0), in_h = input.dim(1), in_w = input.dim(2);
    const int64_t depth = input.dim(3);
    const WindowGeometry& g = p.window;
    TensorI8 out({batches, g.out_h, g.out_w, depth});
    int8_t* y = out.data.data();
    for (int64_t n = 0; n < batches; ++n) {
        for (int64_t oy = 0; oy < g.out_h; ++oy) {
            const int64_t y0 = oy * g.stride_h - g.pad_top;
            const int64_t fy_begin = std::max<int64_t>(0, -y0);
            const int64_t fy_end = std::min<int64_t>(p.filter_h, in_h - y0);
            for (int64_t ox = 0; ox < g.out_w; ++ox) {
                const int64_t x0 = ox * g.stride_w - g.pad_left;
                const int64_t fx_begin = std::max<int64_t>(0, -x0);
                const int64_t fx_end = std::min<int64_t>(p.filter_w, in_w - x0);
                for (int64_t c = 0; c < depth; ++c) {
                    *y++ = reduce([&](auto&& visit) {
                        for (int64_t fy = fy_begin; fy < fy_end; ++fy) {
                            for (int64_t fx = fx_begin; fx < fx_end; ++fx) {
                                visit(input.data[static_cast<size_t>(
                                    ((n * in_h + y0 + fy) * in_w + x0 + fx) * depth + c)]);
                            }
                        }
                    });
                }
            }
        }
    }
    return out;
}

}  // namespace

Pool2dParams prepare_pool2d(const std::vector<int64_t>& input_shape,
                            const Pool2dOptions& options, const QuantParams& input,
                            const QuantParams& output) {
    if (input_shape.size() != 4) throw Error("pool2d: input must be [N,H,W,C]");
    const int32_t input_zero_point = int8_zero_point(input, "input");
    const int32_t output_zero_point = int8_zero_point(output, "output");
    if (input_zero_point != output_zero_point ||
        std::abs(input.scale - output.scale) > 1.0e-6f) {
        throw Error(fmt::format("pool2d: output quantization (scale {}, zero point {}) must "
                                "equal the input's (scale {}, zero point {})", output.scale,
                                output_zero_point, input.scale, input_zero_point));
    }
    const WindowOptions& w = options.window;
    const WindowPadding pad = compute_padding(w.padding, input_shape[1], input_shape[2],
                                              options.filter_h, options.filter_w, w.stride_h,
                                              w.stride_w);
    Pool2dParams p;
    p.window = window_geometry(w, pad);
    p.filter_h = options.filter_h;
    p.filter_w = options.filter_w;
    prepare_activation(p, w.activation, output.scale, output_zero_point);
    return p;
}

TensorI8 max_pool2d(const Pool2dParams& p, const TensorI8& input) {
    check_input(p, input, "max_pool2d");
    return pool(p, input, [&](auto&& window) {
        int32_t max = -128;  // also the result of an empty window, as in TFLite
        window([&](int8_t v) { max = std::max<int32_t>(max, v); });
        return static_cast<int8_t>(std::clamp(max, p.act_min, p.act_max));
    });
}

TensorI8 average_pool2d(const Pool2dParams& p, const TensorI8& input) {
    check_input(p, input, "average_pool2d");
    return pool(p, input, [&](auto&& window) {
        int32_t sum = 0, count = 0;
        window([&](int8_t v) {
            sum += v;
            ++count;
        });
        if (count == 0) throw Error("average_pool2d: a window lies entirely in the padding");
        // Round half away from zero; C++ division truncates toward zero.
        const int32_t avg = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
        return static_cast<int8_t>(std::clamp(avg, p.act_min, p.act_max));
    });
}

}  // namespace accel
