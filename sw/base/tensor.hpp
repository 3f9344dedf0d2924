// A dense, C-ordered tensor that owns its elements.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"

namespace accel {

// A shape as Python prints a tuple, for messages: (1, 5, 5, 3), (108,), ().
inline std::string shape_repr(const std::vector<int64_t>& shape) {
    if (shape.size() == 1) return fmt::format("({},)", shape[0]);
    return fmt::format("({})", fmt::join(shape, ", "));
}

template <typename T>
struct Tensor {
    std::vector<int64_t> shape;
    std::vector<T> data;

    Tensor() = default;
    explicit Tensor(std::vector<int64_t> s) : shape(std::move(s)), data(element_count(shape)) {}

    // The product of the dimensions; accel::Error for a negative dimension or a product
    // that does not fit in int64 (a wrapped count would allocate the wrong size).
    static size_t element_count(const std::vector<int64_t>& s) {
        int64_t count = 1;
        for (const int64_t d : s) {
            if (d < 0) throw Error(fmt::format("shape {}: negative dimension", shape_repr(s)));
            if (__builtin_mul_overflow(count, d, &count)) {
                throw Error(fmt::format("shape {}: more than 2^63 elements", shape_repr(s)));
            }
        }
        return static_cast<size_t>(count);
    }
    int64_t dim(size_t i) const { return shape.at(i); }
    size_t rank() const { return shape.size(); }
    size_t size() const { return data.size(); }
    std::span<const T> view() const { return data; }
};

using TensorI8 = Tensor<int8_t>;

// Pointers to each tensor of `v`, for the operators that take a list of inputs.
template <typename T>
std::vector<const Tensor<T>*> pointers_to(const std::vector<Tensor<T>>& v) {
    std::vector<const Tensor<T>*> out;
    for (const Tensor<T>& t : v) out.push_back(&t);
    return out;
}
using TensorI32 = Tensor<int32_t>;

}  // namespace accel
