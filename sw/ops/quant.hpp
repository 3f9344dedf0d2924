// The fixed-point requantization of gemmlowp/TFLite (docs/semantics.md).
#pragma once
#include <cstdint>

namespace accel {

// SaturatingRoundingDoublingHighMul: (a*m*2 + 2^31 rounding) >> 32, ties away from zero
// on the 64-bit product, truncating division; INT32_MIN * INT32_MIN saturates.
int32_t srdhm(int32_t a, int32_t m);

// RoundingDivideByPOT: x / 2^e rounded to nearest, ties away from zero. 0 <= e <= 31.
int32_t rdbpot(int32_t x, int e);

// MultiplyByQuantizedMultiplier with a right shift only: shift in [-31, 0].
int32_t mbqm(int32_t acc, int32_t multiplier, int shift);

struct QuantizedMultiplier {
    int32_t multiplier;  // [0, 2^31 - 1]
    int shift;           // [-31, 0] for scales in (0, 1)
};

// TFLite's QuantizeMultiplier: frexp, mantissa rounded to 31 bits. Scales so small that
// the shift would fall below -31 become {0, 0} (as TFLite does). Throws accel::Error
// for scales outside (0, 1) or whose rounding would need a left shift.
QuantizedMultiplier quantize_multiplier(double scale);

}  // namespace accel
