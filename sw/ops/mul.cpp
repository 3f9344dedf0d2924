#include "ops/mul.hpp"

#include <algorithm>

#include "ops/broadcast.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {

MulParams prepare_mul(const QuantParams& input1, const QuantParams& input2,
                      const QuantParams& output, FusedActivation activation) {
    MulParams p;
    p.input1_offset = -int8_zero_point(input1, "input1");
    p.input2_offset = -int8_zero_point(input2, "input2");
    p.output_offset = int8_zero_point(output, "output");
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
    const Broadcast b = broadcast_shapes(input1.shape, input2.shape, "mul");
    TensorI8 out(b.shape);
    for_each_broadcast(b, out.size(), [&](size_t i, size_t at1, size_t at2) {
        out.data[i] = mul(p, input1.data[at1], input2.data[at2]);
    });
    return out;
}

}  // namespace accel
