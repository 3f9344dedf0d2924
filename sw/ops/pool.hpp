// TFLite's int8 MAX_POOL_2D and AVERAGE_POOL_2D: Prepare (padding, activation range)
// and reference_integer_ops::MaxPool / AveragePool. The window is clipped to the image,
// so padding never enters a maximum or an average.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"
#include "ops/quant_params.hpp"
#include "ops/sliding_window.hpp"

namespace accel {

struct Pool2dOptions {
    WindowOptions window{.padding = Padding::Valid, .stride_h = 2, .stride_w = 2};
    int filter_h = 2, filter_w = 2;
};

struct Pool2dParams {
    WindowGeometry window;
    int filter_h = 1, filter_w = 1;
    int32_t act_min = -128, act_max = 127;
};

// input_shape [N,H,W,C]. Pooling keeps the quantization, so the output's scale and
// zero point must equal the input's (TFLite checks a scale difference of at most 1e-6).
Pool2dParams prepare_pool2d(const std::vector<int64_t>& input_shape,
                            const Pool2dOptions& options, const QuantParams& input,
                            const QuantParams& output);

// [N,H,W,C] -> [N,window.out_h,window.out_w,C].
TensorI8 max_pool2d(const Pool2dParams& params, const TensorI8& input);

// The window's sum divided by its clipped element count, rounded half away from zero
// (a sum of 0 stays 0). Throws accel::Error when a window holds no element at all.
TensorI8 average_pool2d(const Pool2dParams& params, const TensorI8& input);

}  // namespace accel
