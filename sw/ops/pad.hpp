// TFLite's int8 PAD without a constant_values input: the padding holds the output's
// zero point (real 0). Values are copied, not requantized: the model gives the input
// and output the same scale and zero point.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct PadParams {
    std::vector<std::array<int64_t, 2>> paddings;  // {before, after} per dimension
    int8_t pad_value = 0;
};

// paddings: one {before, after} pair per input dimension, each >= 0.
PadParams prepare_pad(const std::vector<std::array<int64_t, 2>>& paddings,
                      const QuantParams& output);

TensorI8 pad(const PadParams& params, const TensorI8& input);

}  // namespace accel
