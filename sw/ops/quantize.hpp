// TFLite's QUANTIZE (float32 -> int8: reference_ops::AffineQuantize; int8 -> int8:
// reference_ops::Requantize with the multiplier Prepare quantizes from
// input_scale / output_scale) and DEQUANTIZE (int8 -> float32).
#pragma once
#include <cstdint>

#include "base/tensor.hpp"
#include "ops/quant_params.hpp"

namespace accel {

// q = clamp(round(x / scale) + zero_point, -128, 127): the division and the rounding
// (half away from zero) in float. As TFLite on x86-64, NaN and quotients outside int32
// become INT32_MIN before the zero point is added, so they quantize to -128 (or to 127
// when a negative zero point wraps the sum around).
Tensor<int8_t> quantize(const QuantParams& output, const Tensor<float>& input);

struct RequantizeParams {
    int32_t input_zero_point = 0;
    int32_t output_zero_point = 0;
    int32_t multiplier = 0;  // input_scale / output_scale
    int shift = 0;           // in [-31, 30]: the scale may be 1 or more
};

RequantizeParams prepare_requantize(const QuantParams& input, const QuantParams& output);

// q' = clamp(MBQM(q - input_zero_point) + output_zero_point, -128, 127).
TensorI8 requantize(const RequantizeParams& params, const TensorI8& input);

// x = float(double(scale) * (q - zero_point)).
Tensor<float> dequantize(const QuantParams& input, const TensorI8& values);

}  // namespace accel
