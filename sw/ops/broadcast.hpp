// NumPy broadcasting of two operands, as TFLite's element-wise binary operators read
// them (BroadcastAdd6DSlow, BroadcastMul6DSlow, ...): shapes aligned at the last
// dimension, a 1 (or a missing leading dimension) stretches.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"

namespace accel {

struct Broadcast {
    std::vector<int64_t> shape;  // the output's
    // Each input's element stride per output dimension: 0 along the ones it stretches.
    std::vector<int64_t> stride1, stride2;
};

// accel::Error naming `op` when the shapes do not broadcast.
Broadcast broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                           const char* op);

// Calls f(output index, input1 index, input2 index) for every output element in order.
template <typename F>
void for_each_broadcast(const Broadcast& b, size_t count, F f) {
    const size_t rank = b.shape.size();
    std::vector<int64_t> index(rank, 0);  // the output position, odometer style
    int64_t at1 = 0, at2 = 0;
    for (size_t i = 0; i < count; ++i) {
        f(i, static_cast<size_t>(at1), static_cast<size_t>(at2));
        for (size_t d = rank; d-- > 0;) {
            at1 += b.stride1[d];
            at2 += b.stride2[d];
            if (++index[d] < b.shape[d]) break;
            at1 -= b.stride1[d] * b.shape[d];
            at2 -= b.stride2[d] * b.shape[d];
            index[d] = 0;
        }
    }
}

// f(a, b) on every pair of elements the broadcast shapes of `input1` and `input2` pair.
template <typename F>
TensorI8 broadcast_binary(const TensorI8& input1, const TensorI8& input2, const char* op, F f) {
    const Broadcast b = broadcast_shapes(input1.shape, input2.shape, op);
    TensorI8 out(b.shape);
    for_each_broadcast(b, out.size(), [&](size_t i, size_t at1, size_t at2) {
        out.data[i] = f(input1.data[at1], input2.data[at2]);
    });
    return out;
}

}  // namespace accel
