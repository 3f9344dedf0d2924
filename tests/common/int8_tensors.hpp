// The int8 tensors the host operators' unit tests write out by hand, and read back as
// ints (so that a failing comparison prints numbers, not characters).
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"

namespace accel::test {

inline TensorI8 tensor(std::vector<int64_t> shape, std::vector<int8_t> values) {
    TensorI8 t(std::move(shape));
    t.data = std::move(values);
    return t;
}

inline std::vector<int> as_ints(const TensorI8& t) { return {t.data.begin(), t.data.end()}; }

}  // namespace accel::test
