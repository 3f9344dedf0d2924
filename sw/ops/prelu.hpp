// TFLite's int8 PRELU (reference_ops::BroadcastPrelu4DSlow): x >= 0 rescaled by
// input_scale / output_scale, x < 0 multiplied by alpha and rescaled by input_scale *
// alpha_scale / output_scale (each quotient in float, as Prepare computes it). Alpha
// broadcasts against the input: one slope, or one per channel ([C], [1,1,C], ...).
#pragma once
#include <cstdint>

#include "base/tensor.hpp"
#include "ops/quant.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct PreluParams {
    int32_t input_offset = 0, alpha_offset = 0;  // -zero points
    int32_t output_offset = 0;                   // output zero point
    QuantizedMultiplier identity{0, 0}, alpha{0, 0};
};

PreluParams prepare_prelu(const QuantParams& input, const QuantParams& alpha,
                          const QuantParams& output);

// One input value and its slope: the golden operator element by element.
int8_t prelu(const PreluParams& params, int8_t input, int8_t alpha);

TensorI8 prelu(const PreluParams& params, const TensorI8& input, const TensorI8& alpha);

}  // namespace accel
