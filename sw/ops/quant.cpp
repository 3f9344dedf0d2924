#include "ops/quant.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {

int32_t srdhm(int32_t a, int32_t m) {
    constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
    if (a == kMin && m == kMin) return std::numeric_limits<int32_t>::max();
    const int64_t product = int64_t{a} * int64_t{m};
    const int64_t nudge = product >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
    // C++ division truncates toward zero, exactly as gemmlowp relies on.
    return static_cast<int32_t>((product + nudge) / (int64_t{1} << 31));
}

int32_t rdbpot(int32_t x, int e) {
    const int32_t mask = static_cast<int32_t>((int64_t{1} << e) - 1);
    const int32_t remainder = x & mask;
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> e) + (remainder > threshold ? 1 : 0);  // >> is arithmetic in C++20
}

namespace {
// acc * 2^shift for a positive shift (acc otherwise): in int32 it wraps in TFLite;
// unsigned arithmetic wraps without UB.
int32_t left_scaled(int32_t acc, int shift) {
    const int left_shift = shift > 0 ? shift : 0;
    return static_cast<int32_t>(static_cast<uint32_t>(acc) * (uint32_t{1} << left_shift));
}
}  // namespace

int32_t mbqm(int32_t acc, int32_t multiplier, int shift) {
    return rdbpot(srdhm(left_scaled(acc, shift), multiplier), shift > 0 ? 0 : -shift);
}

int32_t rdbpot_up(int32_t x, int e) {
    if (e == 0) return x;
    return static_cast<int32_t>((int64_t{x} + (int64_t{1} << (e - 1))) >> e);
}

int32_t mbqm_up(int32_t acc, int32_t multiplier, int shift) {
    return rdbpot_up(srdhm(left_scaled(acc, shift), multiplier), shift > 0 ? 0 : -shift);
}

int32_t mbqm(int32_t acc, int32_t multiplier, int shift, bool round_up) {
    return round_up ? mbqm_up(acc, multiplier, shift) : mbqm(acc, multiplier, shift);
}

int32_t rescaled_sum(int32_t a, int32_t b, int left_shift, QuantizedMultiplier in_a,
                     QuantizedMultiplier in_b, bool round_up) {
    auto rescaled = [left_shift, round_up](int32_t x, QuantizedMultiplier q) {
        const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left_shift);
        return mbqm(shifted, q.multiplier, q.shift, round_up);
    };
    return static_cast<int32_t>(static_cast<uint32_t>(rescaled(a, in_a)) +
                                static_cast<uint32_t>(rescaled(b, in_b)));
}

QuantizedMultiplier quantize_multiplier(double scale, int max_shift) {
    if (!(scale > 0.0 && std::isfinite(scale))) {
        throw Error(fmt::format("scale {}: must be positive and finite", scale));
    }
    int shift = 0;
    const double mantissa = std::frexp(scale, &shift);  // scale = mantissa * 2^shift
    auto fixed = static_cast<int64_t>(std::round(mantissa * static_cast<double>(int64_t{1} << 31)));
    if (fixed == (int64_t{1} << 31)) {  // mantissa rounded up to 1.0
        fixed /= 2;
        ++shift;
    }
    if (shift > max_shift) {
        throw Error(fmt::format("scale {}: too large, its shift {} exceeds {}", scale, shift,
                                max_shift));
    }
    if (shift < -31) return {0, 0};  // TFLite flushes such tiny scales to zero
    return {static_cast<int32_t>(fixed), shift};
}

QuantizedMultiplier quantize_below_one(double scale, const char* op, const char* what) {
    if (!(scale > 0.0 && scale < 1.0)) {
        throw Error(fmt::format("{}: {} rescaling {} is not in (0, 1)", op, what, scale));
    }
    const QuantizedMultiplier q = quantize_multiplier(scale);
    if (q.shift > 0) throw Error(fmt::format("{}: {} rescaling {} rounds to 1", op, what, scale));
    return q;
}

}  // namespace accel
