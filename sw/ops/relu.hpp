// TFLite's int8 RELU, RELU6 and RELU_N1_TO_1 as standalone operators (activations.cc,
// ReluX): q - input zero point rescaled by input_scale / output_scale (the quotient in
// float), plus the output zero point, clamped to the bounds 0 and infinity, 0 and 6, or
// -1 and 1 quantized with the output's scale (roundf in float) and to int8.
#pragma once
#include <cstdint>

#include "base/tensor.hpp"
#include "ops/quant.hpp"
#include "ops/quant_params.hpp"

namespace accel {

enum class ReluKind { Relu, Relu6, ReluN1To1 };

struct ReluParams {
    int32_t input_zero_point = 0, output_zero_point = 0;
    QuantizedMultiplier multiplier{0, 0};
    int32_t act_min = -128, act_max = 127;
};

ReluParams prepare_relu(ReluKind kind, const QuantParams& input, const QuantParams& output);

// One value: the golden operator element by element (a table of it: ops/lookup_table.hpp).
int8_t relu(const ReluParams& params, int8_t input);

TensorI8 relu(const ReluParams& params, const TensorI8& input);

}  // namespace accel
