// TFLite's int8 LEAKY_RELU (reference_ops::QuantizeLeakyRelu): x >= 0 rescaled by
// input_scale / output_scale, x < 0 by input_scale * alpha / output_scale, each with its
// own fixed-point multiplier, as Prepare computes them (the products and quotients in float).
#pragma once
#include <cstdint>

#include "base/tensor.hpp"
#include "ops/quant.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct LeakyReluParams {
    int32_t input_zero_point = 0, output_zero_point = 0;
    QuantizedMultiplier identity{0, 0}, alpha{0, 0};
};

LeakyReluParams prepare_leaky_relu(const QuantParams& input, const QuantParams& output,
                                   float alpha);

// One value: the golden operator element by element (a table of it: ops/lookup_table.hpp).
int8_t leaky_relu(const LeakyReluParams& params, int8_t input);

TensorI8 leaky_relu(const LeakyReluParams& params, const TensorI8& input);

}  // namespace accel
