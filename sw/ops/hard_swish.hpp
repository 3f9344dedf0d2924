// TFLite's int8 HARD_SWISH, x * relu6(x + 3) / 6, with its reference kernel's 16-bit
// fixed-point arithmetic (reference_ops::HardSwish) and the parameters its Prepare
// computes in float.
#pragma once
#include <cstdint>

#include "base/tensor.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct HardSwishParams {
    int32_t input_zero_point = 0, output_zero_point = 0;
    int16_t output_multiplier = 0;  // input_scale / 128 / output_scale, Q15
    int output_exponent = 0;        // <= 0
    int16_t reluish_multiplier = 0;  // input_scale / 128 / (3 / 32768), Q15
    int reluish_exponent = 0;
};

// accel::Error where TFLite's Prepare fails: an output rescaling of 1 or more.
HardSwishParams prepare_hard_swish(const QuantParams& input, const QuantParams& output);

// One value: the golden operator element by element (a table of it: ops/lookup_table.hpp).
int8_t hard_swish(const HardSwishParams& params, int8_t input);

TensorI8 hard_swish(const HardSwishParams& params, const TensorI8& input);

}  // namespace accel
