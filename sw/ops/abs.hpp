// TFLite's int8 ABS (elementwise.cc): |q - input zero point|, rescaled by input_scale /
// output_scale (the quotient in float) only when the two scales differ, plus the output
// zero point, clamped to int8.
#pragma once
#include <cstdint>

#include "base/tensor.hpp"
#include "ops/quant.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct AbsParams {
    int32_t input_zero_point = 0, output_zero_point = 0;
    bool rescale = false;
    QuantizedMultiplier multiplier{0, 0};  // when rescale
};

AbsParams prepare_abs(const QuantParams& input, const QuantParams& output);

// One value: the golden operator element by element (a table of it: ops/lookup_table.hpp).
int8_t abs(const AbsParams& params, int8_t input);

TensorI8 abs(const AbsParams& params, const TensorI8& input);

}  // namespace accel
