#include "ops/prelu.hpp"

#include <algorithm>

#include "ops/broadcast.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {

PreluParams prepare_prelu(const QuantParams& input, const QuantParams& alpha,
                          const QuantParams& output) {
    PreluParams p;
    p.input_offset = -int8_zero_point(input, "input");
    p.alpha_offset = -int8_zero_point(alpha, "alpha");
    p.output_offset = int8_zero_point(output, "output");
    p.identity = quantize_multiplier(input.scale / output.scale);
    p.alpha = quantize_multiplier(input.scale * alpha.scale / output.scale);
    return p;
}

int8_t prelu(const PreluParams& p, int8_t input, int8_t alpha) {
    const int32_t x = p.input_offset + input;
    const int32_t y = x >= 0 ? mbqm(x, p.identity.multiplier, p.identity.shift)
                             : mbqm(x * (p.alpha_offset + alpha), p.alpha.multiplier,
                                    p.alpha.shift);  // |product| <= 255^2
    return static_cast<int8_t>(std::clamp(wrapping_add(y, p.output_offset), -128, 127));
}

TensorI8 prelu(const PreluParams& p, const TensorI8& input, const TensorI8& alpha) {
    return broadcast_binary(input, alpha, "prelu",
                            [&](int8_t x, int8_t a) { return prelu(p, x, a); });
}

}  // namespace accel
