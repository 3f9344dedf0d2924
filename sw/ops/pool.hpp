// TFLite's int8 MAX_POOL_2D and AVERAGE_POOL_2D: Prepare (padding, activation range)
// and reference_integer_ops::MaxPool / AveragePool. The window is clipped to the image,
// so padding never enters a maximum or an average.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"
#include "ops/activation.hpp"
#include "ops/padding.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct Pool2dOptions {
    Padding padding = Padding::Valid;
    int filter_h = 2, filter_w = 2;
    int stride_h = 2, stride_w = 2;
    FusedActivation activation = FusedActivation::None;
};

struct Pool2dParams {
    int filter_h = 1, filter_w = 1;
    int stride_h = 1, stride_w = 1;
    int pad_top = 0, pad_left = 0;  // the bottom/right padding follows from out_h/out_w
    int64_t out_h = 1, out_w = 1;
    int32_t act_min = -128, act_max = 127;
};

// input_shape [N,H,W,C]. Pooling keeps the quantization, so the output's scale and
// zero point must equal the input's (TFLite checks a scale difference of at most 1e-6).
Pool2dParams prepare_pool2d(const std::vector<int64_t>& input_shape,
                            const Pool2dOptions& options, const QuantParams& input,
                            const QuantParams& output);

// [N,H,W,C] -> [N,out_h,out_w,C].
TensorI8 max_pool2d(const Pool2dParams& params, const TensorI8& input);

// The window's sum divided by its clipped element count, rounded half away from zero
// (a sum of 0 stays 0). Throws accel::Error when a window holds no element at all.
TensorI8 average_pool2d(const Pool2dParams& params, const TensorI8& input);

}  // namespace accel
