// Integer helpers shared by the planner, the cost model and the metrics, and the one home
// of saturating arithmetic.
#pragma once
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>

namespace accel {

// ⌈a / b⌉ for a >= 0, b > 0.
constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Sums and products that are only compared against a limit: the exact value, or T's
// maximum when it does not fit (for non-negative operands), so that a product of extreme
// dimensions reads as "too large" instead of wrapping to something small. T is int64_t
// for sizes, uint64_t for the counts -- cycles, steps, bytes -- of what an instruction's
// fields allow, whose products pass 64 bits. T is never deduced: the operands convert to
// it, as they would to a plain int64_t parameter.
template <std::integral T = int64_t>
constexpr T saturating_add(std::type_identity_t<T> a, std::type_identity_t<T> b) {
    T r = 0;
    return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<T>::max() : r;
}
template <std::integral T = int64_t>
constexpr T saturating_mul(std::type_identity_t<T> a, std::type_identity_t<T> b) {
    T r = 0;
    return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<T>::max() : r;
}
template <std::integral T = int64_t>
constexpr T saturating_product(std::initializer_list<std::type_identity_t<T>> factors) {
    T r = 1;
    for (const T f : factors) r = saturating_mul<T>(r, f);
    return r;
}

// ⌈a / b⌉ for b > 0, without the overflow of a + b - 1.
constexpr uint64_t ceil_div_u64(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

}  // namespace accel
