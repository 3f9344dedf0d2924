// TFLite's int8 SQUARED_DIFFERENCE: both inputs shifted left by 7 bits and rescaled to
// twice the larger input scale (as ADD's Prepare does with 20 bits), their difference
// squared in int32 and rescaled by (twice the larger scale)^2 / (2^14 * output scale);
// broadcasting (ops/broadcast.hpp) over at most 4 dimensions.
#pragma once
#include <cstdint>

#include "base/tensor.hpp"
#include "ops/quant.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct SquaredDifferenceParams {
    int left_shift = 7;
    int32_t input1_offset = 0, input2_offset = 0;  // -zero points
    int32_t output_offset = 0;                      // output zero point
    QuantizedMultiplier input1{0, 0}, input2{0, 0}, output{0, 0};  // each shift <= 0
};

// accel::Error where TFLite's Prepare fails: a rescaling that is not below 1.
SquaredDifferenceParams prepare_squared_difference(const QuantParams& input1,
                                                   const QuantParams& input2,
                                                   const QuantParams& output);

// One pair of values: the golden operator element by element.
int8_t squared_difference(const SquaredDifferenceParams& params, int8_t a, int8_t b);

TensorI8 squared_difference(const SquaredDifferenceParams& params, const TensorI8& input1,
                            const TensorI8& input2);

}  // namespace accel
