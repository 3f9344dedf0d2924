// TFLite's PACK: N tensors of one shape stacked along a new dimension `axis` (negative
// counts from the end of the output's rank). The elements are copied: int8 activations
// of the output's quantization (TFLite's Prepare requires it) at run time, int32 shapes
// at compile time (reference/constant_folding.hpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"

namespace accel {

struct PackParams {
    int axis = 0;                       // resolved: in [0, rank]
    std::vector<int64_t> output_shape;  // the inputs' with N inserted at axis
};

// accel::Error for no inputs, inputs of different shapes or an axis out of range.
PackParams prepare_pack(const std::vector<std::vector<int64_t>>& input_shapes, int axis);

template <typename T>
Tensor<T> pack(const PackParams& p, const std::vector<const Tensor<T>*>& inputs) {
    Tensor<T> out(p.output_shape);
    int64_t outer = 1;
    for (int d = 0; d < p.axis; ++d) outer *= p.output_shape[static_cast<size_t>(d)];
    const size_t inner = inputs.empty() ? 0 : inputs[0]->data.size() / static_cast<size_t>(outer);
    T* y = out.data.data();
    for (int64_t o = 0; o < outer; ++o) {
        for (const Tensor<T>* t : inputs) {
            const T* from = t->data.data() + static_cast<size_t>(o) * inner;
            y = std::copy(from, from + inner, y);
        }
    }
    return out;
}

}  // namespace accel
