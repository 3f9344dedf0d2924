// TFLite's int8 FULLY_CONNECTED: Prepare (per-tensor or per-channel requantization,
// activation range) and reference_integer_ops::FullyConnected / FullyConnectedPerChannel.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"
#include "ops/activation.hpp"
#include "ops/quant_params.hpp"

namespace accel {

// How the int32 sums become int8. TFLite's reference kernels multiply in double and
// round half away from zero; its optimized kernels (and a device) use the fixed-point
// multiplier and shift that Prepare computes. Both are kept so either can be checked.
enum class FullyConnectedRequantization { ReferenceDouble, FixedPoint };

struct FullyConnectedParams {
    int32_t input_offset = 0;    // -input zero point
    int32_t weights_offset = 0;  // -weights zero point; per-channel weights are symmetric: 0
    int32_t output_offset = 0;   // output zero point
    // One value per output channel, the same value K times for per-tensor weights.
    std::vector<double> effective_scale;  // input_scale * weight_scale / output_scale
    std::vector<int32_t> multiplier;
    std::vector<int32_t> shift;           // in [-31, 30]
    int32_t act_min = -128, act_max = 127;
    FullyConnectedRequantization requantization = FullyConnectedRequantization::ReferenceDouble;
    bool round_up = false;  // FixedPoint: the final shift's ties upward (ops/quant.hpp, mbqm_up)
};

// weights_shape [K, C]; weights: one scale (per-tensor, zero point weights.zero_point)
// or K scales (per-channel, symmetric). Per-tensor Prepare multiplies the two float
// scales in float before widening (GetQuantizedConvolutionMultipler), per-channel
// widens each first; the reference kernel's effective scale always widens first.
FullyConnectedParams prepare_fully_connected(const std::vector<int64_t>& weights_shape,
                                             FusedActivation activation,
                                             const QuantParams& input,
                                             const std::vector<float>& weight_scales,
                                             int64_t weights_zero_point,
                                             const QuantParams& output);

// input [..., C] is read as [batches, C] (C = the weights' last dimension, batches =
// size / C), weights [K, C], bias empty or K values. Returns [batches, K].
TensorI8 fully_connected(const FullyConnectedParams& params, const TensorI8& input,
                         const TensorI8& weights, const std::vector<int32_t>& bias);

}  // namespace accel
