#include "ops/lookup_table.hpp"

#include <algorithm>
#include <cmath>

#include "ops/tflite_int32.hpp"

namespace accel {

Int8Table populate_table(const QuantParams& input, const QuantParams& output,
                         const std::function<float(float)>& f) {
    const int32_t input_zero_point = int8_zero_point(input, "input");
    const int32_t output_zero_point = int8_zero_point(output, "output");
    const float inverse_scale = 1 / output.scale;
    Int8Table t;
    for (int32_t q = -128; q <= 127; ++q) {
        const float dequantized = input.scale * static_cast<float>(q - input_zero_point);
        const float rescaled = std::round(f(dequantized) * inverse_scale);
        // float + int32 is a float sum, converted as x86-64 converts (NaN: INT32_MIN).
        const int32_t quantized =
            truncate_to_int32(rescaled + static_cast<float>(output_zero_point));
        t.entries[static_cast<size_t>(q + 128)] =
            static_cast<int8_t>(std::clamp(quantized, -128, 127));
    }
    return t;
}

Int8Table tabulate(const std::function<int8_t(int8_t)>& f) {
    Int8Table t;
    for (int32_t q = -128; q <= 127; ++q) {
        t.entries[static_cast<size_t>(q + 128)] = f(static_cast<int8_t>(q));
    }
    return t;
}

TensorI8 apply_table(const Int8Table& table, const TensorI8& input) {
    TensorI8 out(input.shape);
    std::transform(input.data.begin(), input.data.end(), out.data.begin(), table);
    return out;
}

}  // namespace accel
