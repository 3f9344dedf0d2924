// A tensor's value on the host while a network runs: int8 activations, or float32 at
// the edges of a model that quantizes its input or dequantizes its output.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"
#include "graph/model.hpp"

namespace accel::reference {

struct Value {
    graph::DType type = graph::DType::Int8;  // Int8 or Float32
    std::vector<int64_t> shape;
    std::vector<int8_t> i8;
    std::vector<float> f32;

    static Value of(TensorI8 t) { return {graph::DType::Int8, std::move(t.shape), std::move(t.data), {}}; }
    static Value of(Tensor<float> t) {
        return {graph::DType::Float32, std::move(t.shape), {}, std::move(t.data)};
    }
    TensorI8 as_i8() const {
        TensorI8 t;
        t.shape = shape;
        t.data = i8;
        return t;
    }
    Tensor<float> as_f32() const {
        Tensor<float> t;
        t.shape = shape;
        t.data = f32;
        return t;
    }
};

}  // namespace accel::reference
