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

int32_t mbqm(int32_t acc, int32_t multiplier, int shift) {
    return rdbpot(srdhm(acc, multiplier), -shift);
}

QuantizedMultiplier quantize_multiplier(double scale) {
    if (!(scale > 0.0 && scale < 1.0)) {
        throw Error(fmt::format("scale {}: must be in (0, 1)", scale));
    }
    int shift = 0;
    const double mantissa = std::frexp(scale, &shift);  // scale = mantissa * 2^shift
    auto fixed = static_cast<int64_t>(std::round(mantissa * static_cast<double>(int64_t{1} << 31)));
    if (fixed == (int64_t{1} << 31)) {  // mantissa rounded up to 1.0
        fixed /= 2;
        ++shift;
    }
    if (shift > 0) {
        throw Error(fmt::format("scale {}: rounds to 1.0, which needs a left shift", scale));
    }
    if (shift < -31) return {0, 0};  // TFLite flushes such tiny scales to zero
    return {static_cast<int32_t>(fixed), shift};
}

}  // namespace accel
