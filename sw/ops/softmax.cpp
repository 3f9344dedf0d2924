#include "ops/softmax.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/quant.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {
namespace {

// gemmlowp fixed point on raw int32 values: Qm.n holds x * 2^n with m integer bits.
// A product of Qa and Qb values (srdhm) is a Q(a+b) value.
constexpr int32_t kQ0One = std::numeric_limits<int32_t>::max();  // 1.0 in Q0.31
constexpr int kScaledDiffIntegerBits = 5;    // exp's input: Q5.26
constexpr int kAccumulationIntegerBits = 12; // the sum of exps: Q12.19

// SaturatingRoundingMultiplyByPOT: x * 2^exponent, saturating up, rounding down.
int32_t multiply_by_pot(int32_t x, int exponent) {
    if (exponent < 0) return rdbpot(x, -exponent);
    if (exponent == 0) return x;
    const int32_t threshold = (1 << (31 - exponent)) - 1;
    if (x > threshold) return std::numeric_limits<int32_t>::max();
    if (x < -threshold) return std::numeric_limits<int32_t>::min();
    return x * (1 << exponent);
}

// exp(a) for a in [-1/4, 0), Q0 in and out: a Taylor series around -1/8.
int32_t exp_on_interval_between_negative_one_quarter_and_0_excl(int32_t a) {
    constexpr int32_t kExpMinusOneEighth = 1895147668;
    constexpr int32_t kOneThird = 715827883;
    const int32_t x = wrapping_add(a, 1 << 28);  // a + 1/8
    const int32_t x2 = srdhm(x, x);
    const int32_t x3 = srdhm(x2, x);
    const int32_t x4 = srdhm(x2, x2);
    const int32_t x4_over_4 = multiply_by_pot(x4, -2);
    const int32_t poly = multiply_by_pot(
        wrapping_add(srdhm(wrapping_add(x4_over_4, x3), kOneThird), x2), -1);
    return wrapping_add(kExpMinusOneEighth,
                        srdhm(kExpMinusOneEighth, wrapping_add(x, poly)));
}

// exp(a) for a <= 0: a in Q5.26, the result in Q0. exp of a's remainder modulo 1/4,
// times exp(-2^k) for each bit k of the rest.
int32_t exp_on_negative_values(int32_t a) {
    constexpr int kFractionalBits = 31 - kScaledDiffIntegerBits;
    constexpr int32_t kOneQuarter = int32_t{1} << (kFractionalBits - 2);
    const int32_t a_mod_quarter_minus_one_quarter =
        wrapping_add(a & (kOneQuarter - 1), -kOneQuarter);
    int32_t result = exp_on_interval_between_negative_one_quarter_and_0_excl(
        multiply_by_pot(a_mod_quarter_minus_one_quarter, kScaledDiffIntegerBits));
    const int32_t remainder = wrapping_add(a_mod_quarter_minus_one_quarter, -a);
    struct Step {
        int exponent;
        int32_t exp_of_minus_pot;  // exp(-2^exponent) in Q0
    };
    constexpr Step kSteps[] = {{-2, 1672461947}, {-1, 1302514674}, {0, 790015084},
                               {1, 290630308},   {2, 39332535},    {3, 720401},
                               {4, 242}};
    for (const Step& s : kSteps) {
        if (remainder & (int32_t{1} << (kFractionalBits + s.exponent))) {
            result = srdhm(result, s.exp_of_minus_pot);
        }
    }
    return a == 0 ? kQ0One : result;
}

// 1 / (1 + a) for a in [0, 1), Q0 in and out: Newton-Raphson on half the denominator.
int32_t one_over_one_plus_x_for_x_in_0_1(int32_t a) {
    const int64_t sum = int64_t{a} + kQ0One;  // RoundingHalfSum(a, 1.0)
    const auto half_denominator = static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
    constexpr int32_t kQ2One = 1 << 29;
    constexpr int32_t k48Over17 = 1515870810;      // Q2
    constexpr int32_t kMinus32Over17 = -1010580540; // Q2
    int32_t x = wrapping_add(k48Over17, srdhm(half_denominator, kMinus32Over17));
    for (int i = 0; i < 3; ++i) {
        const int32_t one_minus_half_denominator_times_x =
            wrapping_add(kQ2One, -srdhm(half_denominator, x));
        x = wrapping_add(x, multiply_by_pot(srdhm(x, one_minus_half_denominator_times_x), 2));
    }
    return multiply_by_pot(x, 1);  // x / 2 in Q2 read as Q1, rescaled to Q0
}

// TFLite's GetReciprocal: 1 / sum for sum in Q12, as a Q0 value times 2^-bits_over_unit.
int32_t reciprocal(int32_t sum, int* bits_over_unit) {
    const int headroom_plus_one = std::countl_zero(static_cast<uint32_t>(sum));
    *bits_over_unit = kAccumulationIntegerBits - headroom_plus_one;
    const auto shifted_sum_minus_one = static_cast<int32_t>(
        (static_cast<uint32_t>(sum) << headroom_plus_one) - (uint32_t{1} << 31));
    return one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one);
}

// MultiplyByQuantizedMultiplierGreaterThanOne: the left shift may be 31 here.
int32_t rescale_diff(int32_t diff, const SoftmaxParams& p) {
    const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(diff)
                                              << p.input_left_shift);
    return srdhm(shifted, p.input_multiplier);
}

}  // namespace

SoftmaxParams prepare_softmax(float beta, const QuantParams& input, const QuantParams& output) {
    int8_zero_point(input, "input");
    const int32_t output_zero_point = int8_zero_point(output, "output");
    constexpr float kScale = 1.0f / 256;
    const float delta = output.scale > kScale ? output.scale - kScale : kScale - output.scale;
    if (output_zero_point != -128 || delta > 0.001f * kScale) {
        throw Error(fmt::format("softmax: output scale {} and zero point {} must be 1/256 "
                                "and -128", output.scale, output_zero_point));
    }
    // PreprocessSoftmaxScaling: the multiplier is capped where exp of any nonzero
    // difference rounds to 0 anyway.
    constexpr double kMaxMultiplier = static_cast<double>((int64_t{1} << 31) - 1);
    const double real = std::min(static_cast<double>(beta) * static_cast<double>(input.scale) *
                                     static_cast<double>(1 << (31 - kScaledDiffIntegerBits)),
                                 kMaxMultiplier);
    if (!(real > 1.0)) {
        throw Error(fmt::format("softmax: beta {} times input scale {} is too small", beta,
                                input.scale));
    }
    const QuantizedMultiplier q = quantize_multiplier(real, 31);
    SoftmaxParams p;
    p.input_multiplier = q.multiplier;
    p.input_left_shift = q.shift;
    // CalculateInputRadius: the largest difference whose rescaled value fits Q5.26.
    const double max_input_rescaled =
        1.0 * ((1 << kScaledDiffIntegerBits) - 1) *
        static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)) /
        static_cast<double>(int64_t{1} << q.shift);
    p.diff_min = -static_cast<int32_t>(std::floor(max_input_rescaled));
    return p;
}

TensorI8 softmax(const SoftmaxParams& p, const TensorI8& input) {
    if (input.rank() < 1) throw Error("softmax: input must have at least one dimension");
    if (p.input_left_shift < 0 || p.input_left_shift > 31) {
        throw Error(fmt::format("softmax: input left shift {} not in [0, 31]",
                                p.input_left_shift));
    }
    TensorI8 out(input.shape);
    const auto depth = static_cast<size_t>(input.shape.back());
    if (depth == 0) return out;
    for (size_t row = 0; row < input.size(); row += depth) {
        const int8_t* x = &input.data[row];
        int8_t* y = &out.data[row];
        const int32_t max_in_row = *std::max_element(x, x + depth);
        int32_t sum_of_exps = 0;  // Q12
        for (size_t c = 0; c < depth; ++c) {
            const int32_t diff = x[c] - max_in_row;
            if (diff < p.diff_min) continue;
            const int32_t e = exp_on_negative_values(rescale_diff(diff, p));
            sum_of_exps =
                wrapping_add(sum_of_exps, multiply_by_pot(e, -kAccumulationIntegerBits));
        }
        int bits_over_unit = 0;
        const int32_t inverse_sum = reciprocal(sum_of_exps, &bits_over_unit);
        const int exponent = bits_over_unit + 31 - 8;
        if (exponent < 0 || exponent > 31) {
            throw Error(fmt::format("softmax: output exponent {} outside [0, 31]", exponent));
        }
        for (size_t c = 0; c < depth; ++c) {
            const int32_t diff = x[c] - max_in_row;
            if (diff < p.diff_min) {
                y[c] = -128;
                continue;
            }
            const int32_t e = exp_on_negative_values(rescale_diff(diff, p));
            const int32_t unsaturated = rdbpot(srdhm(inverse_sum, e), exponent);
            y[c] = static_cast<int8_t>(std::clamp(unsaturated - 128, -128, 127));
        }
    }
    return out;
}

}  // namespace accel
