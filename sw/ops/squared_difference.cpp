#include "ops/squared_difference.hpp"

#include <algorithm>

#include "ops/broadcast.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {

SquaredDifferenceParams prepare_squared_difference(const QuantParams& input1,
                                                   const QuantParams& input2,
                                                   const QuantParams& output) {
    SquaredDifferenceParams p;
    prepare_binary_offsets(p, input1, input2, output);
    // As TFLite: the larger float scale doubled, the quotients in double, 2^14 times the
    // output scale in float.
    const double twice_max_input_scale = 2 * std::max(input1.scale, input2.scale);
    const auto denominator = static_cast<double>((1 << (2 * p.left_shift)) * output.scale);
    const char* op = "squared_difference";
    p.input1 = quantize_below_one(input1.scale / twice_max_input_scale, op, "input1");
    p.input2 = quantize_below_one(input2.scale / twice_max_input_scale, op, "input2");
    p.output = quantize_below_one(twice_max_input_scale * twice_max_input_scale / denominator,
                                  op, "output");
    return p;
}

int8_t squared_difference(const SquaredDifferenceParams& p, int8_t a, int8_t b) {
    const auto scaled = [&](int32_t x, const QuantizedMultiplier& q) {
        return mbqm(x * (1 << p.left_shift), q.multiplier, q.shift);  // |x| <= 255: no overflow
    };
    const int32_t diff = scaled(p.input1_offset + a, p.input1) - scaled(p.input2_offset + b, p.input2);
    const int32_t y = wrapping_add(mbqm(wrapping_mul(diff, diff), p.output.multiplier, p.output.shift),
                                   p.output_offset);
    return static_cast<int8_t>(std::clamp(y, -128, 127));
}

TensorI8 squared_difference(const SquaredDifferenceParams& p, const TensorI8& input1,
                            const TensorI8& input2) {
    return broadcast_binary(input1, input2, "squared_difference",
                            [&](int8_t a, int8_t b) { return squared_difference(p, a, b); });
}

}  // namespace accel
