#include "ops/quantize.hpp"

#include <algorithm>
#include <cmath>

#include "ops/quant.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {

Tensor<int8_t> quantize(const QuantParams& output, const Tensor<float>& input) {
    const int32_t zero_point = int8_zero_point(output, "output");
    Tensor<int8_t> out(input.shape);
    for (size_t i = 0; i < input.size(); ++i) {
        const float rounded = std::round(input.data[i] / output.scale);
        const int32_t q = wrapping_add(truncate_to_int32(rounded), zero_point);
        out.data[i] = static_cast<int8_t>(std::clamp(q, -128, 127));
    }
    return out;
}

RequantizeParams prepare_requantize(const QuantParams& input, const QuantParams& output) {
    RequantizeParams p;
    prepare_rescale(p, input, output);
    return p;
}

TensorI8 requantize(const RequantizeParams& p, const TensorI8& input) {
    TensorI8 out(input.shape);
    for (size_t i = 0; i < input.size(); ++i) {
        const int32_t centered = wrapping_add(input.data[i], -p.input_zero_point);
        const int32_t q =
            wrapping_add(mbqm(centered, p.multiplier, p.shift), p.output_zero_point);
        out.data[i] = static_cast<int8_t>(std::clamp(q, -128, 127));
    }
    return out;
}

Tensor<float> dequantize(const QuantParams& input, const TensorI8& values) {
    const int32_t zero_point = int8_zero_point(input, "input");
    const auto scale = static_cast<double>(input.scale);
    Tensor<float> out(values.shape);
    for (size_t i = 0; i < values.size(); ++i) {
        const int32_t centered = static_cast<int32_t>(values.data[i]) - zero_point;
        out.data[i] = static_cast<float>(scale * centered);
    }
    return out;
}

}  // namespace accel
