// TFLite's int8 CONCATENATION: inputs whose scale and zero point equal the output's are
// copied; others are rescaled as reference_ops::ConcatenationWithScaling does (TFLite
// has that only for uint8: its int8 Prepare rejects differing scales, so the rescaling
// here extends TFLite with the same float arithmetic, clamped to int8).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct ConcatenationInput {
    bool copy = true;    // same scale and zero point as the output
    float scale = 1.0f;  // input_scale * (1 / output_scale), in float
    float bias = 0.0f;   // -input_zero_point * scale, in float
};

struct ConcatenationParams {
    int axis = 0;  // resolved: in [0, rank)
    std::vector<ConcatenationInput> inputs;
    int32_t output_zero_point = 0;
};

// axis may be negative (counted from the end).
ConcatenationParams prepare_concatenation(size_t rank, int axis,
                                          const std::vector<QuantParams>& inputs,
                                          const QuantParams& output);

// Every input has the output's rank and the same dimensions except along the axis.
// A rescaled value is clamp(round(q * scale + bias) + output_zero_point, -128, 127).
TensorI8 concatenation(const ConcatenationParams& params,
                       const std::vector<const TensorI8*>& inputs);

// The inputs joined along `axis` (in [0, rank)) unchanged: int32 shapes at compile time
// (reference/constant_folding.hpp). Their shapes are checked as concatenation's are.
template <typename T>
Tensor<T> concatenate(size_t axis, const std::vector<const Tensor<T>*>& inputs) {
    std::vector<int64_t> shape = inputs.at(0)->shape;
    shape.at(axis) = 0;
    for (const Tensor<T>* t : inputs) shape[axis] += t->shape.at(axis);
    int64_t outer = 1;
    for (size_t d = 0; d < axis; ++d) outer *= shape[d];
    Tensor<T> out(shape);
    T* y = out.data.data();
    for (int64_t o = 0; o < outer; ++o) {
        for (const Tensor<T>* t : inputs) {
            const size_t block = t->data.size() / static_cast<size_t>(outer);
            const T* from = t->data.data() + static_cast<size_t>(o) * block;
            y = std::copy(from, from + block, y);
        }
    }
    return out;
}

}  // namespace accel
