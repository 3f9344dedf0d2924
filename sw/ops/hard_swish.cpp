#include "ops/hard_swish.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/quant.hpp"

namespace accel {
namespace {

constexpr int32_t kInt16Min = std::numeric_limits<int16_t>::min();
constexpr int32_t kInt16Max = std::numeric_limits<int16_t>::max();

// gemmlowp's 16-bit SaturatingRoundingDoublingHighMul.
int16_t srdhm16(int16_t a, int16_t b) {
    if (a == kInt16Min && b == kInt16Min) return kInt16Max;
    const int32_t ab = int32_t{a} * int32_t{b};
    const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
    return static_cast<int16_t>((ab + nudge) / (1 << 15));
}

// The same without rounding (ARM's SQDMULH): the reference kernel pairs it with the
// rounding one so that their biases cancel.
int16_t sdhm16(int16_t a, int16_t b) {
    if (a == kInt16Min && b == kInt16Min) return kInt16Max;
    return static_cast<int16_t>((int32_t{a} * int32_t{b}) / (1 << 15));
}

// gemmlowp's 16-bit RoundingDivideByPOT: the mask is an int16, as gemmlowp's is.
int16_t rdbpot16(int16_t x, int e) {
    const auto mask = static_cast<int16_t>((int64_t{1} << e) - 1);
    const int32_t remainder = x & mask;
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    const int32_t shifted = e >= 31 ? (x < 0 ? -1 : 0) : (int32_t{x} >> e);
    return static_cast<int16_t>(shifted + (remainder > threshold ? 1 : 0));
}

int16_t saturating_left_shift(int16_t x, int amount) {
    const int64_t v = int64_t{x} * (int64_t{1} << amount);
    return static_cast<int16_t>(std::clamp<int64_t>(v, kInt16Min, kInt16Max));
}

// DownScaleInt32ToInt16Multiplier: the Q31 multiplier rounded to Q15.
int16_t to_q15(int32_t m) {
    constexpr int32_t kRounding = 1 << 15;
    if (m >= std::numeric_limits<int32_t>::max() - kRounding) return kInt16Max;
    return static_cast<int16_t>((m + kRounding) >> 16);
}

}  // namespace

HardSwishParams prepare_hard_swish(const QuantParams& input, const QuantParams& output) {
    HardSwishParams p;
    p.input_zero_point = int8_zero_point(input, "input");
    p.output_zero_point = int8_zero_point(output, "output");
    // TFLite computes both scales in float.
    const float hires_input_scale = (1.0f / 128.0f) * input.scale;
    const float reluish_scale = 3.0f / 32768.0f;
    const QuantizedMultiplier out = quantize_multiplier(hires_input_scale / output.scale);
    if (out.shift > 0) {
        throw Error(fmt::format("hard_swish: output rescaling {} (input scale / 128 / output "
                                "scale) is 1 or more", hires_input_scale / output.scale));
    }
    p.output_multiplier = to_q15(out.multiplier);
    p.output_exponent = out.shift;
    const QuantizedMultiplier reluish = quantize_multiplier(hires_input_scale / reluish_scale);
    p.reluish_multiplier = to_q15(reluish.multiplier);
    p.reluish_exponent = reluish.shift;
    return p;
}

int8_t hard_swish(const HardSwishParams& p, int8_t q) {
    const auto x = static_cast<int16_t>(q - p.input_zero_point);
    const auto hires = static_cast<int16_t>(x * (1 << 7));
    const int16_t preshift_output = srdhm16(hires, p.output_multiplier);
    // x rescaled so that 3.0 is 32768 (saturating), then from [-1, 1] to [0, 1].
    int16_t reluish = hires;
    if (p.reluish_exponent > 0) reluish = saturating_left_shift(reluish, p.reluish_exponent - 1);
    reluish = srdhm16(reluish, p.reluish_multiplier);
    if (p.reluish_exponent > 0) reluish = saturating_left_shift(reluish, 1);
    if (p.reluish_exponent < 0) reluish = rdbpot16(reluish, -p.reluish_exponent);
    reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);
    const int16_t preshift = sdhm16(reluish, preshift_output);
    auto y = static_cast<int16_t>(rdbpot16(preshift, -p.output_exponent) + p.output_zero_point);
    return static_cast<int8_t>(std::clamp<int16_t>(y, -128, 127));
}

TensorI8 hard_swish(const HardSwishParams& p, const TensorI8& input) {
    TensorI8 out(input.shape);
    for (size_t i = 0; i < input.data.size(); ++i) out.data[i] = hard_swish(p, input.data[i]);
    return out;
}

}  // namespace accel
