// TFLite's reference FULLY_CONNECTED requantizes with a double product:
//   truncate_to_int32(std::round((double)acc * s))
// This is the same value computed with integers only, so that logic without a
// floating-point unit (rtl/accel_double_requant.sv) can reproduce it bit for bit.
//
// With s = m * 2^e (m the double's 53-bit integer mantissa), acc * s = (acc * m) * 2^e
// exactly: an integer of at most 84 bits times a power of two. The double product is
// that integer rounded to 53 significant bits (to nearest, ties to even); std::round
// then rounds half away from zero, and truncate_to_int32 turns every result outside
// int32 into INT32_MIN (x86-64's cvttsd2si).
#pragma once
#include <cstdint>

namespace accel {

// s = mantissa * 2^exponent exactly, mantissa < 2^53.
struct DoubleScale {
    uint64_t mantissa = 0;
    int exponent = 0;
    bool operator==(const DoubleScale&) const = default;
};

// The scale held in a 64-bit word laid out as an IEEE-754 binary64 (the device's
// scale word): the sign bit is ignored (scales are magnitudes), a biased exponent
// 1..2047 gives mantissa 2^52 | fraction and exponent = biased - 1075, a biased
// exponent 0 (zero and subnormals) gives mantissa = fraction and exponent -1074. Total:
// the encodings of infinity and NaN read as a huge finite scale (every non-zero
// accumulator saturates), the way the device treats a PRM word that no valid model
// writes.
DoubleScale decode_scale_word(uint64_t word);

// s must be finite and >= 0 (Error otherwise). 0 and the subnormals decode like any
// other double (mantissa below 2^52, exponent -1074); their products round to 0.
DoubleScale decompose_scale(double s);

// truncate_to_int32(std::round((double)acc * s)) for the s that `scale` decomposes,
// for every int32 acc, in integer arithmetic.
int32_t round_product_like_double(int32_t acc, DoubleScale scale);

}  // namespace accel
