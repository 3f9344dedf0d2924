// TFLite's int8 RSQRT (elementwise.cc): for v = q - input zero point, 1 / sqrt(v) by
// gemmlowp's fixed-point Newton-Raphson (GetInvSqrtQuantizedMultiplierExp), shifted into
// an integer with 20 bits, then rescaled by 1 / (sqrt(input_scale) * output_scale); v = 0
// gives 127. TFLite's Eval fails on a value below the zero point (a negative input).
#pragma once
#include <cstdint>

#include "base/tensor.hpp"
#include "ops/quant.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct RsqrtParams {
    int32_t input_zero_point = 0, output_zero_point = 0;
    QuantizedMultiplier multiplier{0, 0};  // its shift less 20 is >= -31
};

// accel::Error where the rescaling does not fit MultiplyByQuantizedMultiplier.
RsqrtParams prepare_rsqrt(const QuantParams& input, const QuantParams& output);

// 1 / sqrt(v) as a multiplier and a left shift (TFLite's kReverseShift convention).
QuantizedMultiplier inv_sqrt_multiplier(int32_t v);

// One value: the golden operator element by element (a table of it: ops/lookup_table.hpp).
// Values below the zero point compute as the kernel's arithmetic does; rsqrt() of a
// tensor refuses them, as TFLite's Eval does.
int8_t rsqrt(const RsqrtParams& params, int8_t input);

// accel::Error for a value below the input zero point.
TensorI8 rsqrt(const RsqrtParams& params, const TensorI8& input);

}  // namespace accel
