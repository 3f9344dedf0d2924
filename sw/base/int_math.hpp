// Integer helpers shared by the planner, the cost model and the metrics, and the one home
// of saturating arithmetic.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <limits>

namespace accel {

// ⌈a / b⌉ for a >= 0, b > 0.
constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Sums and products of sizes that are only compared against a limit: the exact value,
// or INT64_MAX when it does not fit (for non-negative operands), so that a product of
// extreme dimensions reads as "too large" instead of wrapping to something small.
constexpr int64_t saturating_add(int64_t a, int64_t b) {
    int64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}
constexpr int64_t saturating_mul(int64_t a, int64_t b) {
    int64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}
constexpr int64_t saturating_product(std::initializer_list<int64_t> factors) {
    int64_t r = 1;
    for (const int64_t f : factors) r = saturating_mul(r, f);
    return r;
}

// The same for unsigned 64-bit counts -- cycles, steps, bytes -- of what an instruction's
// fields allow, whose products pass 64 bits: UINT64_MAX when the value does not fit.
constexpr uint64_t saturating_add_u64(uint64_t a, uint64_t b) {
    uint64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<uint64_t>::max() : r;
}
constexpr uint64_t saturating_mul_u64(uint64_t a, uint64_t b) {
    uint64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<uint64_t>::max() : r;
}
constexpr uint64_t saturating_product_u64(std::initializer_list<uint64_t> factors) {
    uint64_t r = 1;
    for (const uint64_t f : factors) r = saturating_mul_u64(r, f);
    return r;
}
// ⌈a / b⌉ for b > 0, without the overflow of a + b - 1.
constexpr uint64_t ceil_div_u64(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

}  // namespace accel
