// round_product_like_double against the double formula TFLite's reference
// FULLY_CONNECTED uses, truncate_to_int32(std::round((double)acc * s)): hand-worked
// decompositions and double-rounding cases, then millions of random and constructed
// (acc, s) pairs: the scales of real models, every exponent, exact ties, products a few
// ulps from a tie, and results at the edge of int32.
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "ops/double_rounding.hpp"
#include "ops/tflite_int32.hpp"
#include "double_rounding_cases.hpp"

namespace accel {
namespace {

using test::exact_rounding;
using test::random_acc;
using test::scale_near;

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
constexpr uint64_t kHidden = uint64_t{1} << 52;

int32_t reference(int32_t acc, double s) {
    return truncate_to_int32(std::round(static_cast<double>(acc) * s));
}

int32_t integer(int32_t acc, double s) {
    return round_product_like_double(acc, decompose_scale(s));
}

TEST(DecomposeScale, HandWorkedValues) {
    EXPECT_EQ(decompose_scale(1.0), (DoubleScale{kHidden, -52}));
    EXPECT_EQ(decompose_scale(0.75), (DoubleScale{kHidden | (kHidden >> 1), -53}));
    EXPECT_EQ(decompose_scale(0.0), (DoubleScale{0, -1074}));
    EXPECT_EQ(decompose_scale(-0.0), (DoubleScale{0, -1074}));
    EXPECT_EQ(decompose_scale(std::numeric_limits<double>::denorm_min()), (DoubleScale{1, -1074}));
    EXPECT_EQ(decompose_scale(DBL_MIN), (DoubleScale{kHidden, -1074}));
    EXPECT_EQ(decompose_scale(DBL_MAX), (DoubleScale{2 * kHidden - 1, 971}));
    constexpr double kInf = std::numeric_limits<double>::infinity();
    for (const double bad : {-1.0, -DBL_MIN, kInf, -kInf, std::nan("")}) {
        EXPECT_THROW(decompose_scale(bad), Error) << bad;
    }
}

TEST(DecodeScaleWord, SignIgnoredInfinityAndNanAreHugeScales) {
    EXPECT_EQ(decode_scale_word(std::bit_cast<uint64_t>(-0.75)), decompose_scale(0.75));
    const uint64_t infinity = std::bit_cast<uint64_t>(std::numeric_limits<double>::infinity());
    EXPECT_EQ(decode_scale_word(infinity), (DoubleScale{kHidden, 972}));
    const DoubleScale nan = decode_scale_word(std::bit_cast<uint64_t>(std::nan("")));
    EXPECT_EQ(nan.exponent, 972);
    EXPECT_EQ(round_product_like_double(1, nan), kMin);
    EXPECT_EQ(round_product_like_double(-1, nan), kMin);
    EXPECT_EQ(round_product_like_double(0, nan), 0);
}

TEST(RoundProductLikeDouble, HandWorkedValues) {
    EXPECT_EQ(integer(5, 0.5), 3);   // 2.5: half away from zero
    EXPECT_EQ(integer(-5, 0.5), -3);
    EXPECT_EQ(integer(3, 0.5), 2);
    EXPECT_EQ(integer(100, 0.0), 0);
    EXPECT_EQ(integer(kMax, DBL_MIN), 0);
    // 3 * 0x1.5555555555555p-3 (1/6 rounded down) is 0.5 - 2^-55 exactly, which the
    // double product rounds to 0.5: 1, where the exact product would round to 0.
    const double sixth = 0x1.5555555555555p-3;
    EXPECT_EQ(exact_rounding(3, sixth), 0);
    EXPECT_EQ(integer(3, sixth), 1);
    EXPECT_EQ(integer(-3, sixth), -1);
    // 3 * 0x1.aaaaaaaaaaaaap-1 = 2.5 - 2^-52 exactly: 2.5 as a double, so 3.
    EXPECT_EQ(integer(3, 0x1.aaaaaaaaaaaaap-1), 3);
    // The int32 edge: 2^31 - 1 fits, 2^31 and -2^31 - 1 become INT32_MIN; -2^31 is itself.
    EXPECT_EQ(integer(kMax, 1.0), kMax);
    EXPECT_EQ(integer(kMin, 1.0), kMin);
    EXPECT_EQ(integer(kMax, 0x1.0000000000001p+0), kMax);  // 2^31 - 1 + 2^-21 (double)
    EXPECT_EQ(integer(kMax, 0x1.fffffffffffffp-1), kMax);  // 2^31 - 1 - 2^-22 (double)
    EXPECT_EQ(integer(2, 1073741823.75), kMin);            // 2^31 - 0.5 exactly: 2^31
    EXPECT_EQ(integer(kMin + 1, 1.0), kMin + 1);
    EXPECT_EQ(integer(-1, 2147483648.5), kMin);  // rounds to -2^31 - 1: out of range
    EXPECT_EQ(integer(-1, 2147483647.5), kMin);  // rounds to -2^31: INT32_MIN itself
    EXPECT_EQ(integer(1, 2147483647.5), kMin);   // rounds to 2^31
    EXPECT_EQ(integer(1, 2147483646.5), kMax);
    EXPECT_EQ(integer(1, DBL_MAX), kMin);
}

TEST(RoundProductLikeDouble, RandomPairsAtModelScales) {
    std::mt19937_64 rng(16);
    std::uniform_real_distribution<double> decades(-6.0, 1.0);
    int mismatches = 0, nonzero = 0;
    for (int i = 0; i < 3000000; ++i) {
        const int32_t acc = random_acc(rng);
        const double s = std::pow(10.0, decades(rng));  // 1e-6 .. 10
        const int32_t want = reference(acc, s);
        nonzero += (want != 0 && want != kMin) ? 1 : 0;
        if (integer(acc, s) != want && ++mismatches <= 5) {
            ADD_FAILURE() << "acc " << acc << " s " << std::hexfloat << s;
        }
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_GT(nonzero, 1500000) << "most products should land inside int32 and off zero";
}

TEST(RoundProductLikeDouble, RandomMantissasAtEveryExponent) {
    std::mt19937_64 rng(17);
    int mismatches = 0;
    for (uint64_t biased = 0; biased < 0x7ff; ++biased) {
        for (int i = 0; i < 1000; ++i) {
            const uint64_t fraction = rng() & (kHidden - 1);
            const double s = std::bit_cast<double>(biased << 52 | fraction);
            const int32_t acc = random_acc(rng);
            if (integer(acc, s) != reference(acc, s) && ++mismatches <= 5) {
                ADD_FAILURE() << "acc " << acc << " s " << std::hexfloat << s;
            }
        }
    }
    EXPECT_EQ(mismatches, 0);
}

// s = m * 2^e with m odd and acc = odd * 2^(-e-1): acc * s is exactly k + 0.5.
TEST(RoundProductLikeDouble, ExactTies) {
    std::mt19937_64 rng(18);
    int exact_in_double = 0, mismatches = 0;
    for (int i = 0; i < 500000; ++i) {
        const int j = static_cast<int>(rng() % 31);  // acc = odd * 2^j, so e = -j - 1
        const int64_t odd = static_cast<int64_t>(rng() % (uint64_t{1} << (30 - j))) | 1;
        const auto acc = static_cast<int32_t>((rng() & 1 ? -odd : odd) * (int64_t{1} << j));
        const uint64_t m = (rng() % (uint64_t{1} << (rng() % 53 + 1))) | 1;
        const double s = std::ldexp(static_cast<double>(m), -j - 1);
        // Small odd * m stay ties in double; larger ones the double rounds first.
        const double product = static_cast<double>(acc) * s;
        if (std::abs(product - std::trunc(product)) == 0.5) ++exact_in_double;
        if (integer(acc, s) != reference(acc, s) && ++mismatches <= 5) {
            ADD_FAILURE() << "acc " << acc << " s " << std::hexfloat << s;
        }
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_GT(exact_in_double, 100000);
}

// Products within a few ulps of k + 0.5: s = (k + 0.5) / acc moved by -4..4 ulps. Some
// exact products just below a tie round to it in double (and then away from zero):
// counted, so the test shows it reaches the double rounding.
TEST(RoundProductLikeDouble, NearTies) {
    std::mt19937_64 rng(19);
    int double_rounded = 0, mismatches = 0;
    for (int i = 0; i < 400000; ++i) {
        int32_t acc = random_acc(rng);
        if (acc == 0) acc = 3;
        const int64_t k = static_cast<int64_t>(rng() % (uint64_t{1} << (rng() % 31)));
        const double target = (acc < 0 ? -1.0 : 1.0) * (static_cast<double>(k) + 0.5);
        for (int ulps = -4; ulps <= 4; ++ulps) {
            const double s = scale_near(acc, target, ulps);
            const int32_t want = reference(acc, s);
            if (integer(acc, s) != want && ++mismatches <= 5) {
                ADD_FAILURE() << "acc " << acc << " s " << std::hexfloat << s;
            }
            if (want != kMin && exact_rounding(acc, s) != want) ++double_rounded;
        }
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_GT(double_rounded, 10000) << "the double's own rounding is hardly exercised";
}

// Results around the ends of int32: |acc * s| near 2^31 - 0.5, 2^31 and 2^31 + 0.5.
TEST(RoundProductLikeDouble, Int32Edge) {
    std::mt19937_64 rng(20);
    int mismatches = 0, indefinite = 0, in_range = 0;
    constexpr double kEdges[] = {2147483646.5, 2147483647.0, 2147483647.5, 2147483648.0,
                                 2147483648.5, 2147483649.0};
    for (int i = 0; i < 200000; ++i) {
        int32_t acc = random_acc(rng);
        if (acc == 0) acc = kMin;
        const double edge = (acc < 0 ? -1.0 : 1.0) * kEdges[rng() % std::size(kEdges)];
        for (int ulps = -3; ulps <= 3; ++ulps) {
            const double s = scale_near(acc, edge, ulps);
            const int32_t want = reference(acc, s);
            (want == kMin ? indefinite : in_range) += 1;
            if (integer(acc, s) != want && ++mismatches <= 5) {
                ADD_FAILURE() << "acc " << acc << " s " << std::hexfloat << s;
            }
        }
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_GT(indefinite, 100000);
    EXPECT_GT(in_range, 100000);
}

}  // namespace
}  // namespace accel
