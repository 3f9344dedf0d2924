// TFLite's int8 DEPTHWISE_CONV_2D: Prepare (padding, per-channel requantization,
// activation range) and reference_integer_ops::DepthwiseConvPerChannel.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"
#include "ops/quant_params.hpp"
#include "ops/sliding_window.hpp"

namespace accel {

// The operator as a model states it.
struct DepthwiseConv2dOptions {
    WindowOptions window;
    int dilation_h = 1, dilation_w = 1;
};

// What the kernel computes with.
struct DepthwiseConv2dParams {
    WindowGeometry window;
    int dilation_h = 1, dilation_w = 1;
    int32_t input_offset = 0;          // -input zero point
    int32_t output_offset = 0;         // output zero point
    std::vector<int32_t> multiplier;   // one per output channel
    std::vector<int32_t> shift;        // one per output channel, in [-31, 30]
    bool round_up = false;             // the final shift's ties upward (ops/quant.hpp, mbqm_up)
    int32_t act_min = -128, act_max = 127;
};

// input_shape [N,H,W,C], filter_shape [1,R,S,C*M]; filter_scales has 1 or C*M values.
DepthwiseConv2dParams prepare_depthwise_conv2d(const std::vector<int64_t>& input_shape,
                                               const std::vector<int64_t>& filter_shape,
                                               const DepthwiseConv2dOptions& options,
                                               const QuantParams& input,
                                               const std::vector<float>& filter_scales,
                                               const QuantParams& output);

// input [N,H,W,C], filter [1,R,S,C*M] (output channel c*M + m reads input channel c),
// bias empty or C*M values. Returns [N,window.out_h,window.out_w,C*M]. Taps outside the
// image are skipped; sums wrap in int32 as TFLite's do.
TensorI8 depthwise_conv2d(const DepthwiseConv2dParams& params, const TensorI8& input,
                          const TensorI8& filter, const std::vector<int32_t>& bias);

}  // namespace accel
