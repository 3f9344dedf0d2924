#include "ops/double_rounding.hpp"

#include <bit>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {
namespace {

__extension__ typedef unsigned __int128 u128;  // GCC and Clang; ISO C++ has no 128-bit type

constexpr int kMantissaBits = 53;  // the double's significand, hidden bit included
constexpr int kFractionBits = kMantissaBits - 1;
constexpr int kExponentBias = 1023 + kFractionBits;  // biased exponent -> power of m's unit
constexpr uint64_t kExponentMask = 0x7ff;

int bit_length(u128 v) {
    const auto high = static_cast<uint64_t>(v >> 64);
    if (high != 0) return 128 - std::countl_zero(high);
    return 64 - std::countl_zero(static_cast<uint64_t>(v));
}

// v rounded to a multiple of 2^bits, to nearest, ties to even (the multiple's quotient).
u128 round_to_even(u128 v, int bits) {
    const u128 unit = u128{1} << bits;
    const u128 quotient = v >> bits, remainder = v & (unit - 1), half = unit >> 1;
    const bool up = remainder > half || (remainder == half && (quotient & 1) != 0);
    return (quotient + (up ? 1 : 0)) << bits;
}

}  // namespace

DoubleScale decode_scale_word(uint64_t word) {
    const uint64_t fraction = word & ((uint64_t{1} << kFractionBits) - 1);
    const auto biased = static_cast<int>((word >> kFractionBits) & kExponentMask);
    if (biased == 0) return {fraction, 1 - kExponentBias};
    return {(uint64_t{1} << kFractionBits) | fraction, biased - kExponentBias};
}

DoubleScale decompose_scale(double s) {
    if (!(s >= 0.0 && std::isfinite(s))) {
        throw Error(fmt::format("requantization scale {}: must be finite and >= 0", s));
    }
    return decode_scale_word(std::bit_cast<uint64_t>(s));
}

int32_t round_product_like_double(int32_t acc, DoubleScale scale) {
    constexpr int32_t kIndefinite = std::numeric_limits<int32_t>::min();
    const bool negative = acc < 0;
    const uint64_t magnitude = negative ? uint64_t{0} - static_cast<uint64_t>(acc)
                                        : static_cast<uint64_t>(acc);
    u128 a = u128{magnitude} * scale.mantissa;  // below 2^95 for any mantissa
    if (a == 0) return 0;
    // The double product: a rounded to 53 significant bits.
    const int excess = bit_length(a) - kMantissaBits;
    if (excess > 0) a = round_to_even(a, excess);
    // std::round of a * 2^exponent, half away from zero, on the magnitude.
    u128 rounded;
    if (scale.exponent >= 0) {
        if (bit_length(a) + scale.exponent > 31) return kIndefinite;
        rounded = a << scale.exponent;
    } else if (-scale.exponent > 96) {
        rounded = 0;  // a * 2^exponent < 2^95 * 2^-97: below one half
    } else {
        const int shift = -scale.exponent;
        rounded = (a + (u128{1} << (shift - 1))) >> shift;
    }
    // cvttsd2si: 2^31 and beyond is INT32_MIN, and so is -2^31 itself.
    if (rounded >= (u128{1} << 31)) return kIndefinite;
    const auto r = static_cast<int32_t>(rounded);
    return negative ? -r : r;
}

}  // namespace accel
