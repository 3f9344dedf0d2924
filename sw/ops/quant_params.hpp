// A tensor's quantization as a .tflite model stores it: real = scale * (q - zero_point),
// one float scale (or one per channel, for filters) and int64 zero points.
#pragma once
#include <cstdint>
#include <string_view>

#include "ops/quant.hpp"

namespace accel {

struct QuantParams {
    float scale = 1.0f;
    int64_t zero_point = 0;
};

// The zero point of an int8 tensor, checked to lie in [-128, 127]; `what` names the
// tensor in the error ("input", "output", ...). Also rejects scales that are not
// positive and finite, which no Prepare can turn into a multiplier.
int32_t int8_zero_point(const QuantParams& q, std::string_view what);

// The fixed-point multiplier of from.scale / to.scale (each float widened to double,
// as TFLite's Prepare divides them): how a value changes quantization.
QuantizedMultiplier rescale_multiplier(const QuantParams& from, const QuantParams& to);

// The Prepare step of an operator that requantizes `input` to `output` (Requantize,
// Mean): sets p's input_zero_point, output_zero_point, multiplier and shift.
template <typename RescaleParams>
void prepare_rescale(RescaleParams& p, const QuantParams& input, const QuantParams& output) {
    p.input_zero_point = int8_zero_point(input, "input");
    p.output_zero_point = int8_zero_point(output, "output");
    const QuantizedMultiplier q = rescale_multiplier(input, output);
    p.multiplier = q.multiplier;
    p.shift = q.shift;
}

// The offsets of a binary operator (ADD, MUL): each input's zero point negated, to be
// added to its values, and the output's zero point.
template <typename BinaryParams>
void prepare_binary_offsets(BinaryParams& p, const QuantParams& input1, const QuantParams& input2,
                            const QuantParams& output) {
    p.input1_offset = -int8_zero_point(input1, "input1");
    p.input2_offset = -int8_zero_point(input2, "input2");
    p.output_offset = int8_zero_point(output, "output");
}

}  // namespace accel
