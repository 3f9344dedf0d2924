// Hand-checked cases of the host int8 operators with TFLite reference-kernel semantics:
// activation ranges, padding, requantization (including positive shifts), rounding ties
// and window borders. The bit-exact comparison against LiteRT itself is done offline.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "int8_tensors.hpp"
#include "ops/activation.hpp"
#include "ops/add.hpp"
#include "ops/concatenation.hpp"
#include "ops/conv_quant.hpp"
#include "ops/depthwise_conv2d.hpp"
#include "ops/fully_connected.hpp"
#include "ops/mean.hpp"
#include "ops/pad.hpp"
#include "ops/padding.hpp"
#include "ops/pool.hpp"
#include "ops/quantize.hpp"
#include "ops/softmax.hpp"

namespace accel {
namespace {

constexpr int32_t kHalf = 1 << 30;  // multiplier 0.5

using test::as_ints;
using test::tensor;

TEST(ActivationRange, QuantizesTheBoundsAndClampsToInt8) {
    EXPECT_EQ(activation_range(FusedActivation::None, 0.1f, 5).min, -128);
    EXPECT_EQ(activation_range(FusedActivation::None, 0.1f, 5).max, 127);
    EXPECT_EQ(activation_range(FusedActivation::Relu, 0.5f, -10).min, -10);
    EXPECT_EQ(activation_range(FusedActivation::Relu, 0.5f, -10).max, 127);
    // 6 / 0.05 = 120 -> -128 + 120 = -8.
    EXPECT_EQ(activation_range(FusedActivation::Relu6, 0.05f, -128).min, -128);
    EXPECT_EQ(activation_range(FusedActivation::Relu6, 0.05f, -128).max, -8);
    // A bound beyond int8 leaves the int8 limit.
    EXPECT_EQ(activation_range(FusedActivation::Relu6, 0.01f, 0).max, 127);
}

TEST(ActivationRange, TiesRoundAwayFromZero) {
    // 6 / 4 = 1.5 -> 2; -1 / 2 = -0.5 -> -1; 1 / 2 = 0.5 -> 1.
    EXPECT_EQ(activation_range(FusedActivation::Relu6, 4.0f, 0).max, 2);
    EXPECT_EQ(activation_range(FusedActivation::ReluN1To1, 2.0f, 0).min, -1);
    EXPECT_EQ(activation_range(FusedActivation::ReluN1To1, 2.0f, 0).max, 1);
}

TEST(ActivationRange, RejectsBoundsOutsideInt32) {
    EXPECT_THROW(activation_range(FusedActivation::Relu6, 1e-30f, 0), Error);
}

TEST(Padding, SamePutsTheOddPixelAfter) {
    const WindowPadding a = compute_padding(Padding::Same, 7, 8, 3, 3, 2, 2);
    EXPECT_EQ(a.out_h, 4);  // ceil(7 / 2)
    EXPECT_EQ(a.pad_top, 1);
    EXPECT_EQ(a.pad_bottom, 1);
    EXPECT_EQ(a.out_w, 4);  // total (4-1)*2 + 3 - 8 = 1
    EXPECT_EQ(a.pad_left, 0);
    EXPECT_EQ(a.pad_right, 1);
    const WindowPadding d = compute_padding(Padding::Same, 10, 10, 3, 3, 1, 1, 2, 2);
    EXPECT_EQ(d.out_h, 10);  // dilated filter 5: total 4
    EXPECT_EQ(d.pad_top, 2);
    EXPECT_EQ(d.pad_bottom, 2);
}

TEST(Padding, ValidHasNoPadding) {
    const WindowPadding v = compute_padding(Padding::Valid, 7, 5, 3, 2, 2, 1);
    EXPECT_EQ(v.out_h, 3);  // (7 + 2 - 3) / 2
    EXPECT_EQ(v.out_w, 4);
    EXPECT_EQ(v.pad_top + v.pad_bottom + v.pad_left + v.pad_right, 0);
    EXPECT_THROW(compute_padding(Padding::Valid, 2, 5, 3, 1, 1, 1), Error);  // does not fit
    EXPECT_THROW(compute_padding(Padding::Same, 5, 5, 3, 3, 0, 1), Error);
}

TEST(ConvRequantization, PerChannelAndBroadcastScales) {
    // 0.5 * 0.25 / 0.125 = 1.0: a positive shift.
    const ChannelRequantization one = prepare_conv_requantization(0.5f, {0.25f}, 0.125f, 3);
    ASSERT_EQ(one.multiplier.size(), 3u);
    EXPECT_EQ(one.multiplier[2], kHalf);
    EXPECT_EQ(one.shift[2], 1);
    const ChannelRequantization pc =
        prepare_conv_requantization(1.0f, {0.25f, 0.0f, 3.0f}, 1.0f, 3);
    EXPECT_EQ(pc.shift[0], -1);
    EXPECT_EQ(pc.multiplier[1], 0);  // a zero filter scale, as TFLite: {0, 0}
    EXPECT_EQ(pc.shift[1], 0);
    EXPECT_EQ(pc.multiplier[2], 1610612736);  // 3 = 0.75 * 2^2
    EXPECT_EQ(pc.shift[2], 2);
    EXPECT_THROW(prepare_conv_requantization(1.0f, {1.0f, 1.0f}, 1.0f, 3), Error);
    EXPECT_THROW(prepare_conv_requantization(0.0f, {1.0f}, 1.0f, 3), Error);
}

DepthwiseConv2dParams unit_depthwise(int64_t channels) {
    DepthwiseConv2dParams p;
    p.multiplier.assign(static_cast<size_t>(channels), kHalf);  // scale 1.0
    p.shift.assign(static_cast<size_t>(channels), 1);
    return p;
}

TEST(DepthwiseConv2d, SkipsTapsOutsideTheImage) {
    const TensorI8 x = tensor({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    const TensorI8 w = tensor({1, 3, 3, 1}, std::vector<int8_t>(9, 1));
    DepthwiseConv2dParams p = unit_depthwise(1);
    p.window.out_h = p.window.out_w = 3;
    p.window.pad_top = p.window.pad_left = 1;
    // Corners sum 4 pixels, edges 6, the centre all 9.
    EXPECT_EQ(as_ints(depthwise_conv2d(p, x, w, {})),
              (std::vector<int>{12, 21, 16, 27, 45, 33, 24, 39, 28}));
}

TEST(DepthwiseConv2d, DepthMultiplierOffsetsAndPositiveShift) {
    // One input channel, M = 2: output channel m reads input channel 0.
    const TensorI8 x = tensor({1, 1, 2, 1}, {3, -5});
    const TensorI8 w = tensor({1, 1, 1, 2}, {1, -1});
    DepthwiseConv2dParams p = unit_depthwise(2);
    p.window.out_w = 2;
    p.input_offset = 1;  // input zero point -1
    p.output_offset = 10;
    EXPECT_EQ(as_ints(depthwise_conv2d(p, x, w, {0, 100})),
              (std::vector<int>{14, 106, 6, 114}));
    // Scale 2.5 = 0.625 * 2^2: 3 * 4 = 12, 12 * 0.625 = 7.5 rounds up to 8.
    p.multiplier = {1342177280, 1342177280};
    p.shift = {2, 2};
    p.input_offset = 0;
    p.output_offset = 0;
    EXPECT_EQ(as_ints(depthwise_conv2d(p, x, w, {})), (std::vector<int>{8, -7, -12, 13}));
}

TEST(DepthwiseConv2d, PrepareMatchesTFLiteSamePadding) {
    const DepthwiseConv2dParams p = prepare_depthwise_conv2d(
        {1, 8, 8, 4}, {1, 3, 3, 8}, {{Padding::Same, 2, 2, FusedActivation::Relu}, 1, 1},
        {0.5f, -3}, {0.01f}, {0.25f, 7});
    EXPECT_EQ(p.window.out_h, 4);
    EXPECT_EQ(p.window.pad_top, 0);  // total padding 1 goes to the bottom
    EXPECT_EQ(p.input_offset, 3);
    EXPECT_EQ(p.output_offset, 7);
    EXPECT_EQ(p.act_min, 7);
    EXPECT_EQ(p.multiplier.size(), 8u);
    EXPECT_THROW(prepare_depthwise_conv2d({1, 8, 8, 3}, {1, 3, 3, 8}, {}, {0.5f, 0}, {0.01f},
                                          {0.25f, 0}),
                 Error);  // 8 is not a multiple of 3
}

TEST(FullyConnected, ReferenceRoundsInDoubleFixedPointDoesNot) {
    const TensorI8 x = tensor({1, 3}, {1, 2, 3});
    const TensorI8 w = tensor({2, 3}, {1, 1, 1, 1, -1, 0});
    FullyConnectedParams p = prepare_fully_connected({2, 3}, FusedActivation::None,
                                                     {0.5f, 0}, {1.0f}, 0, {1.0f, 0});
    ASSERT_EQ(p.effective_scale, (std::vector<double>{0.5, 0.5}));
    // Sums 16 and -1: the reference rounds -0.5 away from zero to -1, the fixed-point
    // SRDHM rounds the tie upward to 0.
    EXPECT_EQ(as_ints(fully_connected(p, x, w, {10, 0})), (std::vector<int>{8, -1}));
    p.requantization = FullyConnectedRequantization::FixedPoint;
    EXPECT_EQ(as_ints(fully_connected(p, x, w, {10, 0})), (std::vector<int>{8, 0}));
}

TEST(FullyConnected, ReferenceRejectsAScaleItCannotRoundLikeDouble) {
    const TensorI8 x = tensor({1, 3}, {1, 2, 3});
    const TensorI8 w = tensor({2, 3}, {1, 1, 1, 1, -1, 0});
    FullyConnectedParams p = prepare_fully_connected({2, 3}, FusedActivation::None,
                                                     {0.5f, 0}, {1.0f}, 0, {1.0f, 0});
    p.effective_scale[1] = -0.5;
    try {
        fully_connected(p, x, w, {});
        FAIL() << "a negative scale was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("output channel 1"), std::string::npos) << e.what();
    }
    p.requantization = FullyConnectedRequantization::FixedPoint;  // never reads the scale
    EXPECT_NO_THROW(fully_connected(p, x, w, {}));
}

TEST(FullyConnected, FlattensBatchesAndSaturates) {
    const TensorI8 x = tensor({2, 1, 2}, {100, 100, -100, -100});
    const TensorI8 w = tensor({1, 2}, {1, 1});
    const FullyConnectedParams p = prepare_fully_connected(
        {1, 2}, FusedActivation::Relu, {1.0f, 0}, {1.0f}, 0, {0.5f, -20});  // scale 2
    EXPECT_EQ(p.shift[0], 2);
    EXPECT_EQ(p.act_min, -20);
    const TensorI8 y = fully_connected(p, x, w, {});
    EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 1}));
    EXPECT_EQ(as_ints(y), (std::vector<int>{127, -20}));
}

TEST(Add, EqualScalesAddExactlyAndSaturate) {
    const AddParams p = prepare_add({0.5f, 0}, {0.5f, 0}, {0.5f, 0}, FusedActivation::None);
    EXPECT_EQ(p.input1_multiplier, kHalf);
    EXPECT_EQ(p.output_shift, -18);  // 2 * 0.5 / (2^20 * 0.5) = 2^-19
    EXPECT_EQ(as_ints(add(p, tensor({3}, {3, 100, -100}), tensor({3}, {4, 100, -100}))),
              (std::vector<int>{7, 127, -128}));
}

TEST(Add, BroadcastsLikeNumpy) {
    const AddParams p = prepare_add({1.0f, 0}, {1.0f, 0}, {1.0f, 0}, FusedActivation::None);
    const TensorI8 y = add(p, tensor({2, 1}, {10, 20}), tensor({3}, {1, 2, 3}));
    EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(as_ints(y), (std::vector<int>{11, 12, 13, 21, 22, 23}));
    EXPECT_THROW(add(p, tensor({2}, {1, 2}), tensor({3}, {1, 2, 3})), Error);
}

TEST(Add, ZeroPointsAndRejectedScales) {
    // Inputs with zero points 10 and -10 hold 1 and -1; the output (zero point 5) 0.
    const AddParams p = prepare_add({1.0f, 10}, {1.0f, -10}, {1.0f, 5}, FusedActivation::None);
    EXPECT_EQ(as_ints(add(p, tensor({1}, {11}), tensor({1}, {-11}))), (std::vector<int>{5}));
    // An output scale below 2^-19 of the inputs' needs a multiplier >= 1: TFLite aborts.
    EXPECT_THROW(prepare_add({1.0f, 0}, {1.0f, 0}, {1e-7f, 0}, FusedActivation::None), Error);
}

Pool2dParams pool_2x2_same_on_3x3() {
    return prepare_pool2d({1, 3, 3, 1}, {{Padding::Same, 2, 2, FusedActivation::None}, 2, 2},
                          {1.0f, 0}, {1.0f, 0});
}

TEST(Pool, WindowsAreClippedAtTheBorder) {
    const Pool2dParams p = pool_2x2_same_on_3x3();
    EXPECT_EQ(p.window.out_h, 2);
    EXPECT_EQ(p.window.pad_top, 0);
    const TensorI8 x = tensor({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    EXPECT_EQ(as_ints(max_pool2d(p, x)), (std::vector<int>{5, 6, 8, 9}));
    // (1+2+4+5)/4 = 3, (3+6)/2 = 4.5 -> 5, (7+8)/2 = 7.5 -> 8, 9/1.
    EXPECT_EQ(as_ints(average_pool2d(p, x)), (std::vector<int>{3, 5, 8, 9}));
}

TEST(Pool, AverageRoundsHalfAwayFromZeroAndActivationClamps) {
    const TensorI8 x = tensor({1, 3, 3, 1}, {-1, -2, -3, -4, -5, -6, -7, -8, -9});
    EXPECT_EQ(as_ints(average_pool2d(pool_2x2_same_on_3x3(), x)),
              (std::vector<int>{-3, -5, -8, -9}));
    const Pool2dParams relu = prepare_pool2d(
        {1, 3, 3, 1}, {{Padding::Same, 2, 2, FusedActivation::Relu}, 2, 2}, {1.0f, -4},
        {1.0f, -4});
    EXPECT_EQ(as_ints(max_pool2d(relu, x)), (std::vector<int>{-1, -3, -4, -4}));
    EXPECT_THROW(prepare_pool2d({1, 3, 3, 1}, {}, {1.0f, 0}, {2.0f, 0}), Error);
}

TEST(Mean, GlobalAverageWithEqualParams) {
    const MeanParams p = prepare_mean(4, {1, 2}, true, {0.1f, 0}, {0.1f, 0});
    EXPECT_EQ(p.shift, 1);  // scale 1.0
    // 10 / 4 = 2.5 -> 3, -10 / 4 -> -3.
    const TensorI8 y = mean(p, tensor({1, 2, 2, 2}, {1, -1, 2, -2, 3, -3, 4, -4}));
    EXPECT_EQ(y.shape, (std::vector<int64_t>{1, 1, 1, 2}));
    EXPECT_EQ(as_ints(y), (std::vector<int>{3, -3}));
}

TEST(Mean, DropsAxesAndFoldsTheCountIntoTheMultiplier) {
    // Three elements: the multiplier becomes (2^30 << 1) / 3, the shift 0.
    const MeanParams p = prepare_mean(2, {-1, 1}, false, {1.0f, 0}, {1.0f, 0});
    EXPECT_EQ(p.axes, (std::vector<int>{1}));
    const TensorI8 y = mean(p, tensor({2, 3}, {1, 2, 4, 0, 0, -1}));
    EXPECT_EQ(y.shape, (std::vector<int64_t>{2}));
    EXPECT_EQ(as_ints(y), (std::vector<int>{2, 0}));  // 7/3 -> 2, -1/3 -> 0
}

TEST(Mean, ZeroPointsAndLargeScales) {
    // Input zero point 10, output scale 1/8 of the input's (shift 4), zero point -100.
    const MeanParams p = prepare_mean(1, {0}, true, {1.0f, 10}, {0.125f, -100});
    EXPECT_EQ(p.shift, 4);
    // Centred values 2 and 3: mean 2.5 * 8 = 20 -> -80.
    EXPECT_EQ(as_ints(mean(p, tensor({2}, {12, 13}))), (std::vector<int>{-80}));
    EXPECT_THROW(prepare_mean(2, {2}, true, {1.0f, 0}, {1.0f, 0}), Error);
}

SoftmaxParams unit_softmax() { return prepare_softmax(1.0f, {0.1f, 0}, {1.0f / 256, -128}); }

TEST(Softmax, EqualLogitsShareTheProbability) {
    // 1/4 * 256 = 64 -> -64; a row of one is 1.0, which saturates at 127.
    EXPECT_EQ(as_ints(softmax(unit_softmax(), tensor({1, 4}, {7, 7, 7, 7}))),
              (std::vector<int>{-64, -64, -64, -64}));
    EXPECT_EQ(as_ints(softmax(unit_softmax(), tensor({2, 1}, {-128, 127}))),
              (std::vector<int>{127, 127}));
}

TEST(Softmax, FarBelowTheMaximumIsZero) {
    // Scale 1: a difference of 255 is far below diff_min and gives exactly -128.
    const SoftmaxParams p = prepare_softmax(1.0f, {1.0f, 0}, {1.0f / 256, -128});
    EXPECT_LT(p.diff_min, 0);
    EXPECT_GT(p.diff_min, -255);
    EXPECT_EQ(as_ints(softmax(p, tensor({1, 2}, {127, -128}))), (std::vector<int>{127, -128}));
}

TEST(Softmax, CappedMultiplierAndRejectedParams) {
    // beta * scale * 2^26 beyond 2^31 - 1 is capped: left shift 31, only the maximum counts.
    const SoftmaxParams big = prepare_softmax(1.0f, {40.0f, 0}, {1.0f / 256, -128});
    EXPECT_EQ(big.input_left_shift, 31);
    EXPECT_EQ(big.diff_min, 0);
    EXPECT_EQ(as_ints(softmax(big, tensor({1, 3}, {5, 4, 5}))), (std::vector<int>{0, -128, 0}));
    EXPECT_THROW(prepare_softmax(1.0f, {0.1f, 0}, {1.0f / 256, 0}), Error);
    EXPECT_THROW(prepare_softmax(1.0f, {0.1f, 0}, {1.0f / 128, -128}), Error);
    // 600 equal logits sum past 512: TFLite's kernel fails its exponent check.
    const SoftmaxParams tiny = prepare_softmax(1.0f, {1e-4f, 0}, {1.0f / 256, -128});
    EXPECT_NO_THROW(softmax(tiny, TensorI8({1, 500})));
    EXPECT_THROW(softmax(tiny, TensorI8({1, 600})), Error);
}

TEST(Quantize, RoundsHalfAwayFromZeroInFloat) {
    Tensor<float> x({5});
    x.data = {1.25f, -1.25f, 1000.0f, -0.24f, 0.0f};
    // /0.5: 2.5 -> 3, -2.5 -> -3, saturated, -0.48 -> 0; plus zero point 1.
    EXPECT_EQ(as_ints(quantize({0.5f, 1}, x)), (std::vector<int>{4, -2, 127, 1, 1}));
}

TEST(Quantize, NonFiniteValuesBehaveAsOnX86) {
    Tensor<float> x({3});
    x.data = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
              -3e9f};
    // Each converts to INT32_MIN; a negative zero point wraps the sum to near INT32_MAX.
    EXPECT_EQ(as_ints(quantize({1.0f, 0}, x)), (std::vector<int>{-128, -128, -128}));
    EXPECT_EQ(as_ints(quantize({1.0f, -64}, x)), (std::vector<int>{127, 127, 127}));
}

TEST(Requantize, PositiveShiftRoundsTiesUpward) {
    const RequantizeParams p = prepare_requantize({2.5f, 0}, {1.0f, 0});
    EXPECT_EQ(p.multiplier, 1342177280);  // 0.625 * 2^31
    EXPECT_EQ(p.shift, 2);
    // 3 * 2.5 = 7.5 -> 8, -3 * 2.5 = -7.5 -> -7, saturation at both ends.
    EXPECT_EQ(as_ints(requantize(p, tensor({4}, {3, -3, 60, -60}))),
              (std::vector<int>{8, -7, 127, -128}));
    const RequantizeParams z = prepare_requantize({0.5f, 4}, {0.5f, -4});
    EXPECT_EQ(as_ints(requantize(z, tensor({2}, {4, 127}))), (std::vector<int>{-4, 119}));
}

TEST(Dequantize, ScalesTheCentredValue) {
    const Tensor<float> y = dequantize({0.5f, 3}, tensor({3}, {10, 3, -128}));
    EXPECT_EQ(y.data, (std::vector<float>{3.5f, 0.0f, -65.5f}));
}

TEST(Concatenation, CopiesEqualParamsAndRescalesOthers) {
    const TensorI8 a = tensor({1, 2}, {1, 2});
    const TensorI8 b = tensor({1, 3}, {3, 100, -7});
    const ConcatenationParams same =
        prepare_concatenation(2, -1, {{0.5f, 0}, {0.5f, 0}}, {0.5f, 0});
    EXPECT_EQ(same.axis, 1);
    EXPECT_EQ(as_ints(concatenation(same, {&a, &b})), (std::vector<int>{1, 2, 3, 100, -7}));
    // b at scale 1 into scale 0.5: doubled, and saturated at 127.
    const ConcatenationParams mixed =
        prepare_concatenation(2, 1, {{0.5f, 0}, {1.0f, 0}}, {0.5f, 0});
    EXPECT_FALSE(mixed.inputs[1].copy);
    EXPECT_EQ(as_ints(concatenation(mixed, {&a, &b})), (std::vector<int>{1, 2, 6, 127, -14}));
    const TensorI8 c = tensor({2, 2}, {5, 6, 7, 8});
    const ConcatenationParams rows = prepare_concatenation(2, 0, {{1.0f, 0}, {1.0f, 0}}, {1.0f, 0});
    EXPECT_EQ(as_ints(concatenation(rows, {&a, &c})), (std::vector<int>{1, 2, 5, 6, 7, 8}));
    EXPECT_THROW(concatenation(rows, {&a, &b}), Error);  // widths differ outside the axis
}

TEST(Pad, FillsWithTheOutputZeroPoint) {
    const PadParams p = prepare_pad({{0, 1}, {1, 0}}, {1.0f, 5});
    const TensorI8 y = pad(p, tensor({1, 2}, {-1, -2}));
    EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(as_ints(y), (std::vector<int>{5, -1, -2, 5, 5, 5}));
    EXPECT_THROW(prepare_pad({{-1, 0}}, {1.0f, 0}), Error);
    EXPECT_THROW(pad(p, tensor({2}, {1, 2})), Error);
}

}  // namespace
}  // namespace accel
