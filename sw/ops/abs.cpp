#include "ops/abs.hpp"

#include <algorithm>
#include <cstdlib>

#include "ops/lookup_table.hpp"

namespace accel {

AbsParams prepare_abs(const QuantParams& input, const QuantParams& output) {
    AbsParams p;
    p.input_zero_point = int8_zero_point(input, "input");
    p.output_zero_point = int8_zero_point(output, "output");
    p.rescale = input.scale != output.scale;
    if (p.rescale) p.multiplier = quantize_multiplier(input.scale / output.scale);
    return p;
}

int8_t abs(const AbsParams& p, int8_t input) {
    const int32_t x = std::abs(input - p.input_zero_point);  // <= 255
    const int32_t y = p.rescale ? mbqm(x, p.multiplier.multiplier, p.multiplier.shift) : x;
    return static_cast<int8_t>(std::clamp(y + p.output_zero_point, -128, 127));
}

TensorI8 abs(const AbsParams& p, const TensorI8& input) {
    return apply_table(tabulate([&](int8_t q) { return abs(p, q); }), input);
}

}  // namespace accel
