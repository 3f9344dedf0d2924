#include "ops/mul.hpp"

#include <algorithm>

#include "ops/broadcast.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {

MulParams prepare_mul(const QuantParams& input1, const QuantParams& input2,
                      const QuantParams& output, FusedActivation activation) {
    MulParams p;
    prepare_binary_offsets(p, input1, input2, output);
    // In float, then widened: TFLite multiplies and divides the float scales.
    const float scale = input1.scale * input2.scale / output.scale;
    p.output = quantize_multiplier(scale);
    prepare_activation(p, activation, output.scale, p.output_offset);
    return p;
}

int8_t mul(const MulParams& p, int8_t a, int8_t b) {
    const int32_t product = (p.input1_offset + a) * (p.input2_offset + b);  // |.| <= 2^16
    const int32_t y =
        wrapping_add(p.output_offset, mbqm(product, p.output.multiplier, p.output.shift));
    return static_cast<int8_t>(std::clamp(y, p.act_min, p.act_max));
}

TensorI8 mul(const MulParams& p, const TensorI8& input1, const TensorI8& input2) {
    return broadcast_binary(input1, input2, "mul",
                            [&](int8_t a, int8_t b) { return mul(p, a, b); });
}

}  // namespace accel
