// The fixed-point requantization of gemmlowp/TFLite (docs/semantics.md).
#pragma once
#include <cstdint>

namespace accel {

// SaturatingRoundingDoublingHighMul: (a*m*2 + 2^31 rounding) >> 32, ties away from zero
// on the 64-bit product, truncating division; INT32_MIN * INT32_MIN saturates.
int32_t srdhm(int32_t a, int32_t m);

// RoundingDivideByPOT: x / 2^e rounded to nearest, ties away from zero. 0 <= e <= 31.
int32_t rdbpot(int32_t x, int e);

// MultiplyByQuantizedMultiplier, shift in [-31, 30]: a positive shift multiplies acc by
// 2^shift first, wrapping in int32 as TFLite does on two's complement; a negative one
// divides the product by 2^-shift with rounding.
int32_t mbqm(int32_t acc, int32_t multiplier, int shift);

// The optimized kernels' final shift (ruy's rounding right shift): x / 2^e rounded to
// nearest, ties upward (-2.5 -> -2, where rdbpot gives -3), computed without overflow.
// 0 <= e <= 31.
int32_t rdbpot_up(int32_t x, int e);

// mbqm with rdbpot_up as its final shift: LiteRT's optimized CONV_2D and FULLY_CONNECTED
// (--match opt). `round_up` false is mbqm itself.
int32_t mbqm_up(int32_t acc, int32_t multiplier, int shift);
int32_t mbqm(int32_t acc, int32_t multiplier, int shift, bool round_up);

struct QuantizedMultiplier {
    int32_t multiplier;  // [0, 2^31 - 1]; [2^30, 2^31 - 1] unless flushed to 0
    int shift;           // [-31, 0] for scales in (0, 1), up to max_shift for scales >= 1
};

// TFLite's ADD before its output rescaling: each operand shifted left by `left_shift`
// (wrapping) and rescaled, the two added (wrapping). Shared by the host kernel and the
// device's add mode (docs/isa.md, DRAIN), which then apply the output's MBQM.
// `round_up`: both rescalings round as mbqm_up.
int32_t rescaled_sum(int32_t a, int32_t b, int left_shift, QuantizedMultiplier in_a,
                     QuantizedMultiplier in_b, bool round_up = false);

// TFLite's QuantizeMultiplier: scale = multiplier / 2^31 * 2^shift, the frexp mantissa
// rounded to 31 bits (a mantissa rounding up to 1.0 moves to the next power of two).
// Scales so small that the shift would fall below -31 become {0, 0}, as in TFLite.
// Throws accel::Error for scales that are not positive and finite, and for scales of
// 2^30 or more: their shift exceeds 30, which MultiplyByQuantizedMultiplier cannot apply
// (TFLite's default double-rounding build does not check and shifts out of range).
// A caller that applies the shift itself may allow up to max_shift = 31 instead.
QuantizedMultiplier quantize_multiplier(double scale, int max_shift = 30);

// TFLite's QuantizeMultiplierSmallerThanOneExp, which aborts unless the scale is in (0, 1)
// and its multiplier a right shift: accel::Error naming `op` and `what` ("input1") instead.
QuantizedMultiplier quantize_below_one(double scale, const char* op, const char* what);

}  // namespace accel
