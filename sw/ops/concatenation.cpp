#include "ops/concatenation.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {

ConcatenationParams prepare_concatenation(size_t rank, int axis,
                                          const std::vector<QuantParams>& inputs,
                                          const QuantParams& output) {
    const int resolved = axis < 0 ? axis + static_cast<int>(rank) : axis;
    if (resolved < 0 || resolved >= static_cast<int>(rank)) {
        throw Error(fmt::format("concatenation: axis {} is outside rank {}", axis, rank));
    }
    if (inputs.empty()) throw Error("concatenation: no inputs");
    ConcatenationParams p;
    p.axis = resolved;
    p.output_zero_point = int8_zero_point(output, "output");
    const float inverse_output_scale = 1.0f / output.scale;
    for (const QuantParams& in : inputs) {
        const int32_t zero_point = int8_zero_point(in, "input");
        ConcatenationInput c;
        c.copy = zero_point == p.output_zero_point && in.scale == output.scale;
        c.scale = in.scale * inverse_output_scale;
        c.bias = static_cast<float>(-zero_point) * c.scale;
        p.inputs.push_back(c);
    }
    return p;
}

TensorI8 concatenation(const ConcatenationParams& p, const std::vector<const TensorI8*>& inputs) {
    if (inputs.size() != p.inputs.size() || inputs.empty()) {
        throw Error(fmt::format("concatenation: {} inputs for {} prepared", inputs.size(),
                                p.inputs.size()));
    }
    const std::vector<int64_t>& first = inputs[0]->shape;
    const auto axis = static_cast<size_t>(p.axis);
    if (axis >= first.size()) throw Error("concatenation: axis is outside the inputs' rank");
    std::vector<int64_t> shape = first;
    shape[axis] = 0;
    for (const TensorI8* t : inputs) {
        bool matches = t->shape.size() == first.size();
        for (size_t d = 0; matches && d < first.size(); ++d) {
            matches = d == axis || t->shape[d] == first[d];
        }
        if (!matches) {
            throw Error("concatenation: inputs differ in rank or outside the axis dimension");
        }
        shape[axis] += t->shape[axis];
    }
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < axis; ++d) outer *= first[d];
    for (size_t d = axis + 1; d < first.size(); ++d) inner *= first[d];
    TensorI8 out(shape);
    int8_t* y = out.data.data();
    for (int64_t o = 0; o < outer; ++o) {
        for (size_t i = 0; i < inputs.size(); ++i) {
            const int64_t block = inputs[i]->shape[axis] * inner;
            const int8_t* x = inputs[i]->data.data() + o * block;
            const ConcatenationInput& c = p.inputs[i];
            for (int64_t j = 0; j < block; ++j) {
                if (c.copy) {
                    y[j] = x[j];
                    continue;
                }
                const float rounded = std::round(static_cast<float>(x[j]) * c.scale + c.bias);
                const int32_t v = wrapping_add(truncate_to_int32(rounded), p.output_zero_point);
                y[j] = static_cast<int8_t>(std::clamp(v, -128, 127));
            }
            y += block;
        }
    }
    return out;
}

}  // namespace accel
