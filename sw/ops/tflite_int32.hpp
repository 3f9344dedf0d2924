// int32 arithmetic as TFLite's kernels compute it on a two's-complement x86-64 host,
// written without C++ undefined behaviour: TFLite adds and multiplies in int32 and
// lets overflow wrap, and converts out-of-range floating values to INT32_MIN.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

namespace accel {

inline int32_t wrapping_add(int32_t a, int32_t b) {
    return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

inline int32_t wrapping_mul(int32_t a, int32_t b) {
    return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

// static_cast<int32_t>(v) for an already rounded v, as x86-64's cvttsd2si does it:
// NaN and values outside int32 become INT32_MIN (the "integer indefinite" value).
inline int32_t truncate_to_int32(double v) {
    constexpr double kLimit = 2147483648.0;  // 2^31
    if (!(v > -kLimit - 1.0 && v < kLimit)) return std::numeric_limits<int32_t>::min();
    return static_cast<int32_t>(v);
}

}  // namespace accel
