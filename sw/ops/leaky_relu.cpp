#include "ops/leaky_relu.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {

LeakyReluParams prepare_leaky_relu(const QuantParams& input, const QuantParams& output,
                                   float alpha) {
    LeakyReluParams p;
    p.input_zero_point = int8_zero_point(input, "input");
    p.output_zero_point = int8_zero_point(output, "output");
    const float alpha_scale = input.scale * alpha / output.scale;
    // QuantizeMultiplier takes a zero (alpha 0: a plain ReLU) but no negative scale.
    if (!std::isfinite(alpha_scale) || alpha_scale < 0) {
        throw Error(fmt::format("leaky_relu: alpha {} gives the rescaling {}; it must be "
                                "finite and not negative", alpha, alpha_scale));
    }
    p.identity = quantize_multiplier(input.scale / output.scale);
    p.alpha = alpha_scale == 0 ? QuantizedMultiplier{0, 0} : quantize_multiplier(alpha_scale);
    return p;
}

int8_t leaky_relu(const LeakyReluParams& p, int8_t q) {
    const int32_t x = q - p.input_zero_point;
    const QuantizedMultiplier& m = x >= 0 ? p.identity : p.alpha;
    const int32_t y = wrapping_add(p.output_zero_point, mbqm(x, m.multiplier, m.shift));
    return static_cast<int8_t>(std::clamp(y, -128, 127));
}

TensorI8 leaky_relu(const LeakyReluParams& p, const TensorI8& input) {
    TensorI8 out(input.shape);
    for (size_t i = 0; i < input.data.size(); ++i) out.data[i] = leaky_relu(p, input.data[i]);
    return out;
}

}  // namespace accel
