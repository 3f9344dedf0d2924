#include "ops/maximum_minimum.hpp"

#include <algorithm>

#include "ops/broadcast.hpp"

namespace accel {

TensorI8 maximum(const TensorI8& input1, const TensorI8& input2) {
    return broadcast_binary(input1, input2, "maximum",
                            [](int8_t a, int8_t b) { return std::max(a, b); });
}

TensorI8 minimum(const TensorI8& input1, const TensorI8& input2) {
    return broadcast_binary(input1, input2, "minimum",
                            [](int8_t a, int8_t b) { return std::min(a, b); });
}

}  // namespace accel
