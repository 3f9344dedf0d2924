// Integer helpers shared by the planner, the cost model and the metrics.
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

}  // namespace accel
