// Inputs that exercise the double-product requantization (ops/double_rounding.hpp),
// shared by its unit test and the bench of rtl/accel_double_requant.sv: accumulators of every
// magnitude, scales that put acc * s a few ulps from k + 1/2, and the exact product's
// own rounding, to count the cases where the double's rounding to 53 bits decides.
#pragma once
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>

#include "ops/double_rounding.hpp"

namespace accel::test {

// Accumulators of every magnitude, int32's edges included.
inline int32_t random_acc(std::mt19937_64& rng) {
    constexpr int32_t kEdges[] = {std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int32_t>::max(),
                                  std::numeric_limits<int32_t>::min() + 1,
                                  std::numeric_limits<int32_t>::max() - 1, 0, 1, -1, 2, -2};
    switch (rng() % 6) {
        case 0: return kEdges[rng() % std::size(kEdges)];
        case 1: return static_cast<int32_t>(rng()) >> (rng() % 32);
        case 2: return static_cast<int32_t>(rng() % 2000001) - 1000000;  // typical FC sums
        default: return static_cast<int32_t>(rng());
    }
}

// s moved by `ulps` representable doubles (towards DBL_MAX or towards 0).
inline double nudge(double s, int ulps) {
    for (; ulps > 0; --ulps) s = std::nextafter(s, DBL_MAX);
    for (; ulps < 0; ++ulps) s = std::nextafter(s, 0.0);
    return s;
}

// A scale s >= 0 that puts acc * s within about `ulps` ulps of `target` (whose sign
// must be acc's): the nearest double to target / acc, nudged.
inline double scale_near(int32_t acc, double target, int ulps) {
    return nudge(std::abs(target / static_cast<double>(acc)), ulps);
}

// acc * s rounded half away from zero exactly, without the double's rounding to 53
// bits, for 2^-96 <= s < 2^52 (the exponents used here); where it differs from
// round_product_like_double, the double's own rounding decided the result.
inline int64_t exact_rounding(int32_t acc, double s) {
    const DoubleScale d = decompose_scale(s);
    const int k = -d.exponent;
    if (k <= 0 || k > 96) return 0;
    __extension__ typedef unsigned __int128 u128;
    const u128 a = static_cast<u128>(std::abs(int64_t{acc})) * d.mantissa;
    const auto r = static_cast<int64_t>((a + (u128{1} << (k - 1))) >> k);
    return acc < 0 ? -r : r;
}

}  // namespace accel::test
