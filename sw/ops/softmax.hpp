// TFLite's int8 -> int8 SOFTMAX as its reference kernel computes it: Prepare's
// PreprocessSoftmaxScaling (input differences rescaled to Q5.26) and
// reference_ops::Softmax, gemmlowp's fixed-point exp and reciprocal. The output is
// quantized with scale 1/256 and zero point -128.
#pragma once
#include <cstdint>

#include "base/tensor.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct SoftmaxParams {
    int32_t input_multiplier = 0;  // beta * input_scale * 2^26, as multiplier and left shift
    int input_left_shift = 0;      // in [0, 31]
    int32_t diff_min = 0;          // differences from the row maximum below this give 0
};

// Throws accel::Error unless the output has zero point -128 and a scale within 0.1% of
// 1/256 (TFLite's checks), or when beta * input_scale * 2^26 is not above 1.
SoftmaxParams prepare_softmax(float beta, const QuantParams& input, const QuantParams& output);

// Softmax along the last dimension.
TensorI8 softmax(const SoftmaxParams& params, const TensorI8& input);

}  // namespace accel
