// Hand-worked values for the gemmlowp/TFLite fixed-point arithmetic (docs/semantics.md).
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "ops/match.hpp"
#include "ops/quant.hpp"

namespace accel {
namespace {

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
constexpr int32_t kHalf = 1 << 30;  // multiplier 0.5

TEST(Srdhm, ExactProducts) {
    EXPECT_EQ(srdhm(100, kHalf), 50);   // 100 * 0.5
    EXPECT_EQ(srdhm(-10, kHalf), -5);
    EXPECT_EQ(srdhm(0, kMax), 0);
    EXPECT_EQ(srdhm(12345, 0), 0);
}

TEST(Srdhm, TiesRoundUpward) {
    // p / 2^31 = 2.5 -> (5*2^30 + 2^30) / 2^31 = 3
    EXPECT_EQ(srdhm(5, kHalf), 3);
    // p / 2^31 = -2.5 -> (-5*2^30 + 1 - 2^30) / 2^31 = -2.99.. truncated toward zero = -2
    EXPECT_EQ(srdhm(-5, kHalf), -2);
    // -1.5 -> -1, but a hair below -1.5 -> -2
    EXPECT_EQ(srdhm(-3, kHalf), -1);
    EXPECT_EQ(srdhm(-3, kHalf + 1), -2);
}

TEST(Srdhm, Int32Extremes) {
    EXPECT_EQ(srdhm(kMin, kMin), kMax);  // the one overflowing case saturates
    // (2^31-1)^2 / 2^31 = 2^31 - 2 + (2^30+1)/2^31 -> 2147483646
    EXPECT_EQ(srdhm(kMax, kMax), 2147483646);
    // -2^31 * (2^31-1) / 2^31 = -2^31 + 1 - 0.5 (+ nudge) -> truncates to -2147483647
    EXPECT_EQ(srdhm(kMin, kMax), -2147483647);
    // -2^31 * 0.5 = -2^30 exactly
    EXPECT_EQ(srdhm(kMin, kHalf), -1073741824);
}

TEST(Rdbpot, HalfAwayFromZero) {
    EXPECT_EQ(rdbpot(5, 1), 3);    //  2.5  ->  3
    EXPECT_EQ(rdbpot(-5, 1), -3);  // -2.5  -> -3
    EXPECT_EQ(rdbpot(-3, 1), -2);  // -1.5  -> -2
    EXPECT_EQ(rdbpot(6, 2), 2);    //  1.5  ->  2
    EXPECT_EQ(rdbpot(-6, 2), -2);  // -1.5  -> -2
    EXPECT_EQ(rdbpot(-7, 2), -2);  // -1.75 -> -2
    EXPECT_EQ(rdbpot(-5, 2), -1);  // -1.25 -> -1
    EXPECT_EQ(rdbpot(5, 2), 1);    //  1.25 ->  1
}

TEST(Rdbpot, ShiftEdges) {
    EXPECT_EQ(rdbpot(-77, 0), -77);
    EXPECT_EQ(rdbpot(kMin, 31), -1);       // exactly -1
    EXPECT_EQ(rdbpot(kMax, 31), 1);        // 0.99999.. -> 1
    EXPECT_EQ(rdbpot(1 << 30, 31), 1);     //  0.5 ->  1
    EXPECT_EQ(rdbpot(-(1 << 30), 31), -1); // -0.5 -> -1
    EXPECT_EQ(rdbpot((1 << 30) - 1, 31), 0);
}

TEST(RdbpotUp, TiesUpward) {
    EXPECT_EQ(rdbpot_up(5, 1), 3);    //  2.5  ->  3
    EXPECT_EQ(rdbpot_up(-5, 1), -2);  // -2.5  -> -2 (rdbpot: -3)
    EXPECT_EQ(rdbpot_up(-3, 1), -1);  // -1.5  -> -1
    EXPECT_EQ(rdbpot_up(-6, 2), -1);  // -1.5  -> -1
    EXPECT_EQ(rdbpot_up(-7, 2), -2);  // -1.75 -> -2
    EXPECT_EQ(rdbpot_up(-5, 2), -1);  // -1.25 -> -1
    EXPECT_EQ(rdbpot_up(6, 2), 2);    //  1.5  ->  2
    EXPECT_EQ(rdbpot_up(-77, 0), -77);
}

TEST(RdbpotUp, ExtremesDoNotOverflow) {
    EXPECT_EQ(rdbpot_up(kMax, 1), 1 << 30);       // (2^31 - 1 + 1) / 2, past int32 on the way
    EXPECT_EQ(rdbpot_up(kMax, 31), 1);
    EXPECT_EQ(rdbpot_up(kMin, 31), -1);
    EXPECT_EQ(rdbpot_up(-(1 << 30), 31), 0);      // -0.5 -> 0 (rdbpot: -1)
    EXPECT_EQ(rdbpot_up(1 << 30, 31), 1);         //  0.5 -> 1
    EXPECT_EQ(rdbpot_up(-(1 << 30) - 1, 31), -1);
}

TEST(MbqmUp, DiffersFromMbqmOnlyAtNegativeFinalShiftTies) {
    EXPECT_EQ(mbqm_up(-6, kHalf, -1), -1);  // -3 / 2 = -1.5
    EXPECT_EQ(mbqm(-6, kHalf, -1), -2);
    EXPECT_EQ(mbqm_up(6, kHalf, -1), mbqm(6, kHalf, -1));
    EXPECT_EQ(mbqm_up(-5, kHalf, 0), mbqm(-5, kHalf, 0));     // no final shift: SRDHM alone
    EXPECT_EQ(mbqm_up(kMin, kMin, -31), 1);                   // SRDHM saturates as in mbqm
    EXPECT_EQ(mbqm_up(1 << 30, 1 << 30, 1), mbqm(1 << 30, 1 << 30, 1));  // left shift wraps
    EXPECT_EQ(mbqm(-6, kHalf, -1, true), mbqm_up(-6, kHalf, -1));
    EXPECT_EQ(mbqm(-6, kHalf, -1, false), mbqm(-6, kHalf, -1));
    // Every accumulator of a small range, every right shift: the two agree except at a
    // negative tie of the final shift, where mbqm_up is one more.
    for (int e = 1; e <= 31; ++e) {
        for (int32_t acc = -300; acc <= 300; ++acc) {
            const int32_t x = srdhm(acc << 8, kHalf);
            const int64_t scaled = int64_t{x};
            const bool negative_tie = x < 0 && (scaled & ((int64_t{1} << e) - 1)) == (int64_t{1} << (e - 1));
            EXPECT_EQ(mbqm_up(acc << 8, kHalf, -e) - mbqm(acc << 8, kHalf, -e), negative_tie ? 1 : 0)
                << "acc " << acc << " e " << e;
        }
    }
}

TEST(Match, NamesParseAndBadOnesAreErrors) {
    EXPECT_EQ(parse_match("ref"), Match::ref);
    EXPECT_EQ(parse_match("opt"), Match::opt);
    EXPECT_STREQ(match_name(Match::opt), "opt");
    EXPECT_THROW(parse_match("REF"), Error);
    EXPECT_THROW(parse_match(""), Error);
}

TEST(Mbqm, ComposesSrdhmThenRdbpot) {
    EXPECT_EQ(mbqm(100, kHalf, -1), 25);  // 100 * 0.5 / 2
    // 1518500250 / 2^31 = 0.70710678..; 1000 * that = 707.1 -> 707; / 8 = 88.375 -> 88
    EXPECT_EQ(mbqm(1000, 1518500250, -3), 88);
    EXPECT_EQ(mbqm(-1000, 1518500250, -3), -88);
    EXPECT_EQ(mbqm(-5, kHalf, 0), -2);
    EXPECT_EQ(mbqm(kMin, kMin, -31), 1);  // saturated INT32_MAX / 2^31 = 0.99.. -> 1
}

TEST(QuantizeMultiplier, PowersOfTwoAndThirds) {
    EXPECT_EQ(quantize_multiplier(0.5).multiplier, kHalf);
    EXPECT_EQ(quantize_multiplier(0.5).shift, 0);
    EXPECT_EQ(quantize_multiplier(0.25).multiplier, kHalf);
    EXPECT_EQ(quantize_multiplier(0.25).shift, -1);
    EXPECT_EQ(quantize_multiplier(0.75).multiplier, 1610612736);  // 0.75 * 2^31
    // 1/3 = 0.666.. * 2^-1; 0.666.. * 2^31 = 1431655765.33 -> 1431655765
    EXPECT_EQ(quantize_multiplier(1.0 / 3.0).multiplier, 1431655765);
    EXPECT_EQ(quantize_multiplier(1.0 / 3.0).shift, -1);
}

TEST(QuantizeMultiplier, TinyScalesAndRoundingUp) {
    const double two_pow_minus_32 = 1.0 / 4294967296.0;  // 0.5 * 2^-31
    EXPECT_EQ(quantize_multiplier(two_pow_minus_32).multiplier, kHalf);
    EXPECT_EQ(quantize_multiplier(two_pow_minus_32).shift, -31);
    EXPECT_EQ(quantize_multiplier(two_pow_minus_32 / 2).multiplier, 0);  // flushed, as TFLite
    EXPECT_EQ(quantize_multiplier(two_pow_minus_32 / 2).shift, 0);
    // A mantissa that rounds up to 1.0 moves to the next power of two.
    const QuantizedMultiplier q = quantize_multiplier(0.4999999999999);
    EXPECT_EQ(q.multiplier, kHalf);
    EXPECT_EQ(q.shift, 0);
}

TEST(Mbqm, PositiveShiftsMultiplyFirst) {
    EXPECT_EQ(mbqm(100, kHalf, 1), 100);   // 100 * 2 * 0.5
    EXPECT_EQ(mbqm(-7, kHalf, 3), -28);    // -7 * 8 * 0.5
    // 3 * 2 = 6, then 6 * 0.75 = 4.5 -> SRDHM rounds the tie upward to 5.
    EXPECT_EQ(mbqm(3, 1610612736, 1), 5);
    EXPECT_EQ(mbqm(-3, 1610612736, 1), -4);  // -4.5 -> -4: the tie rounds upward
    EXPECT_EQ(mbqm(1, kHalf, 30), 1 << 29);  // the largest shift
}

TEST(Mbqm, LeftShiftWrapsInInt32AsTFLite) {
    // 2^30 * 2 = 2^31 wraps to INT32_MIN; INT32_MIN * 0.5 = -2^30.
    EXPECT_EQ(mbqm(1 << 30, kHalf, 1), -(1 << 30));
    // 3 * 2^30 = 0xC0000000 = -2^30 in int32; -2^30 * 0.5 = -2^29.
    EXPECT_EQ(mbqm(3, kHalf, 30), -(1 << 29));
    // INT32_MIN * 2 wraps to 0.
    EXPECT_EQ(mbqm(kMin, kMax, 1), 0);
    // INT32_MAX * 2 = 2^32 - 2 wraps to -2; -2 * 0.5 = -1.
    EXPECT_EQ(mbqm(kMax, kHalf, 1), -1);
}

TEST(QuantizeMultiplier, ScalesOfOneAndAboveShiftLeft) {
    EXPECT_EQ(quantize_multiplier(1.0).multiplier, kHalf);  // 0.5 * 2^1
    EXPECT_EQ(quantize_multiplier(1.0).shift, 1);
    EXPECT_EQ(quantize_multiplier(3.0).multiplier, 1610612736);  // 0.75 * 2^2
    EXPECT_EQ(quantize_multiplier(3.0).shift, 2);
    EXPECT_EQ(quantize_multiplier(1.5).shift, 1);
    // Rounds up to 1.0, which now is the mantissa 0.5 with shift 1.
    const QuantizedMultiplier q = quantize_multiplier(0.99999999999999);
    EXPECT_EQ(q.multiplier, kHalf);
    EXPECT_EQ(q.shift, 1);
    // The largest scale whose shift fits: just below 2^30.
    const QuantizedMultiplier big = quantize_multiplier(1073741823.0);
    EXPECT_EQ(big.shift, 30);
    EXPECT_EQ(big.multiplier, kMax - 1);  // (2^30 - 1) / 2^30 * 2^31
    EXPECT_EQ(mbqm(1, big.multiplier, big.shift), 1073741823);
}

TEST(QuantizeMultiplier, RejectsScalesThatAreNotPositiveOrTooLarge) {
    EXPECT_THROW(quantize_multiplier(0.0), Error);
    EXPECT_THROW(quantize_multiplier(-0.5), Error);
    EXPECT_THROW(quantize_multiplier(1073741824.0), Error);  // 2^30: shift 31
    EXPECT_THROW(quantize_multiplier(1073741823.9999999), Error);  // rounds up to 2^30
    EXPECT_THROW(quantize_multiplier(std::numeric_limits<double>::infinity()), Error);
    EXPECT_THROW(quantize_multiplier(std::numeric_limits<double>::quiet_NaN()), Error);
}

}  // namespace
}  // namespace accel
