// A dense, C-ordered tensor that owns its elements.
#pragma once
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

namespace accel {

template <typename T>
struct Tensor {
    std::vector<int64_t> shape;
    std::vector<T> data;

    Tensor() = default;
    explicit Tensor(std::vector<int64_t> s) : shape(std::move(s)), data(element_count(shape)) {}

    static size_t element_count(const std::vector<int64_t>& s) {
        return static_cast<size_t>(
            std::accumulate(s.begin(), s.end(), int64_t{1}, std::multiplies<>()));
    }
    int64_t dim(size_t i) const { return shape.at(i); }
    size_t rank() const { return shape.size(); }
    size_t size() const { return data.size(); }
    std::span<const T> view() const { return data; }
};

using TensorI8 = Tensor<int8_t>;
using TensorI32 = Tensor<int32_t>;

}  // namespace accel
