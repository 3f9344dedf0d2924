#include "ops/rsqrt.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/lookup_table.hpp"

namespace accel {
namespace {

constexpr int kShift = 20;  // TFLite's: keeps 1 / sqrt(v) an integer

// gemmlowp's SaturatingRoundingMultiplyByPOT<e> for e > 0: x * 2^e, saturated.
int32_t saturating_shift_left(int32_t x, int e) {
    const int32_t threshold = (int32_t{1} << (31 - e)) - 1;
    if (x > threshold) return std::numeric_limits<int32_t>::max();
    if (x < -threshold) return std::numeric_limits<int32_t>::min();
    return static_cast<int32_t>(static_cast<uint32_t>(x) << e);
}

int32_t wrapping_sub(int32_t a, int32_t b) {
    return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}

}  // namespace

QuantizedMultiplier inv_sqrt_multiplier(int32_t v) {
    if (v <= 1) return {std::numeric_limits<int32_t>::max(), 0};  // TFLite takes 0 as 1
    int shift = 11;
    while (v >= (1 << 29)) {
        v /= 4;
        ++shift;
    }
    const int pairs = (std::countl_zero(static_cast<uint32_t>(v)) - 1) / 2 - 1;
    shift -= pairs;
    v <<= 2 * pairs;  // now in [2^27, 2^29)
    // Fixed point with 3 integer bits (raw / 2^28); a product of two such values has 6,
    // of three 9, and srdhm keeps the raw bits as gemmlowp's operator* does.
    const int32_t input = v >> 1;
    const int32_t half_input = rdbpot(input, 1);
    const int32_t half_three = (1 << 28) + (1 << 27);
    int32_t x = 1 << 28;  // 1.0
    for (int i = 0; i < 5; ++i) {
        const int32_t x3 = saturating_shift_left(srdhm(srdhm(x, x), x), 6);  // F9 -> F3
        x = saturating_shift_left(wrapping_sub(srdhm(half_three, x), srdhm(half_input, x3)), 3);
    }
    constexpr int32_t kHalfSqrt2 = 1518500250;  // sqrt(2) / 2 with 0 integer bits
    int32_t m = srdhm(x, kHalfSqrt2);
    if (shift < 0) {
        m = static_cast<int32_t>(static_cast<uint32_t>(m) << -shift);
        shift = 0;
    }
    return {m, -shift};
}

RsqrtParams prepare_rsqrt(const QuantParams& input, const QuantParams& output) {
    RsqrtParams p;
    p.input_zero_point = int8_zero_point(input, "input");
    p.output_zero_point = int8_zero_point(output, "output");
    // sqrt and product in float, the reciprocal in double, as TFLite's Prepare.
    p.multiplier = quantize_multiplier(1.0 / (std::sqrt(input.scale) * output.scale));
    if (p.multiplier.shift - kShift < -31) {
        throw Error(fmt::format("rsqrt: the rescaling 1 / (sqrt({}) * {}) is too small", input.scale,
                                output.scale));
    }
    return p;
}

int8_t rsqrt(const RsqrtParams& p, int8_t input) {
    const int32_t v = input - p.input_zero_point;
    if (v == 0) return 127;  // TFLite: the largest output for the smallest input
    const QuantizedMultiplier inv = inv_sqrt_multiplier(v);
    const int32_t fixed = mbqm(1, inv.multiplier, inv.shift + kShift);
    const int32_t y = mbqm(fixed, p.multiplier.multiplier, p.multiplier.shift - kShift) +
                      p.output_zero_point;
    return static_cast<int8_t>(std::clamp(y, -128, 127));
}

TensorI8 rsqrt(const RsqrtParams& p, const TensorI8& input) {
    for (size_t i = 0; i < input.data.size(); ++i) {
        if (input.data[i] < p.input_zero_point) {
            throw Error(fmt::format("rsqrt: element {} is {}, below the zero point {}: RSQRT is "
                                    "only defined for positive values", i, input.data[i],
                                    p.input_zero_point));
        }
    }
    return apply_table(tabulate([&](int8_t q) { return rsqrt(p, q); }), input);
}

}  // namespace accel
