#include "ops/relu.hpp"

#include <algorithm>
#include <cmath>

#include "ops/lookup_table.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {
namespace {

// zero point + roundf(bound / scale), in float then int32 as TFLite converts it.
int32_t quantized_bound(float bound, const QuantParams& output, int32_t zero_point) {
    return wrapping_add(zero_point, truncate_to_int32(std::round(bound / output.scale)));
}

}  // namespace

ReluParams prepare_relu(ReluKind kind, const QuantParams& input, const QuantParams& output) {
    ReluParams p;
    p.input_zero_point = int8_zero_point(input, "input");
    p.output_zero_point = int8_zero_point(output, "output");
    p.multiplier = quantize_multiplier(input.scale / output.scale);
    const float lo = kind == ReluKind::ReluN1To1 ? -1.0f : 0.0f;
    p.act_min = std::max(-128, quantized_bound(lo, output, p.output_zero_point));
    if (kind != ReluKind::Relu) {
        const float hi = kind == ReluKind::Relu6 ? 6.0f : 1.0f;
        p.act_max = std::min(127, quantized_bound(hi, output, p.output_zero_point));
    }
    return p;
}

int8_t relu(const ReluParams& p, int8_t input) {
    const int32_t y = wrapping_add(p.output_zero_point, mbqm(input - p.input_zero_point,
                                                             p.multiplier.multiplier,
                                                             p.multiplier.shift));
    // max then min, as TFLite clamps: bounds that cross give act_max.
    return static_cast<int8_t>(std::min(p.act_max, std::max(p.act_min, y)));
}

TensorI8 relu(const ReluParams& p, const TensorI8& input) {
    return apply_table(tabulate([&](int8_t q) { return relu(p, q); }), input);
}

}  // namespace accel
