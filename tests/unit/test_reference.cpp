// The golden conv2d: hand-worked layers, then random layers against a second
// implementation written literally from the formula of docs/semantics.md.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "ops/quant.hpp"
#include "ops/reference.hpp"

namespace accel {
namespace {

constexpr int32_t kIdentity = std::numeric_limits<int32_t>::max();  // ~1.0, shift 0

Conv2dLayer make_layer(Conv2dShape shape, int32_t multiplier, int shift) {
    Conv2dLayer l;
    l.shape = shape;
    l.params.multiplier.assign(static_cast<size_t>(shape.k), multiplier);
    l.params.shift.assign(static_cast<size_t>(shape.k), shift);
    return l;
}

TensorI8 tensor(std::vector<int64_t> shape, std::vector<int8_t> values) {
    TensorI8 t(std::move(shape));
    t.data = std::move(values);
    return t;
}

TEST(Reference, OneByOneWithBiasAndOutputZeroPoint) {
    Conv2dLayer l = make_layer({1, 1, 1, 2, 1, 1, 1}, 1 << 30, 0);  // scale 0.5
    l.params.output_zero_point = 3;
    // acc = 4 + 3*2 + (-4)*5 = -10; -10 * 0.5 = -5; + 3 = -2
    const TensorI8 y = conv2d_reference(l, tensor({1, 1, 1, 2}, {3, -4}),
                                        tensor({1, 1, 2, 1}, {2, 5}), {4});
    EXPECT_EQ(y.shape, (std::vector<int64_t>{1, 1, 1, 1}));
    EXPECT_EQ(y.data, std::vector<int8_t>{-2});
}

TEST(Reference, PositiveShiftsAndTheirRange) {
    // acc = 3*2 + (-4)*5 = -14; shifted left by 2: -56; * 0.5 = -28.
    Conv2dLayer l = make_layer({1, 1, 1, 2, 1, 1, 1}, 1 << 30, 2);
    const TensorI8 x = tensor({1, 1, 1, 2}, {3, -4}), w = tensor({1, 1, 2, 1}, {2, 5});
    EXPECT_EQ(conv2d_reference(l, x, w, {0}).data, std::vector<int8_t>{-28});
    // TFLite's range is [-31, 30].
    for (int shift : {-31, 30}) {
        l.params.shift = {shift};
        EXPECT_NO_THROW(validate(l)) << shift;
    }
    for (int shift : {-32, 31}) {
        l.params.shift = {shift};
        EXPECT_THROW(validate(l), Error) << shift;
    }
}

TEST(Reference, PaddingHoldsInputZeroPointAndContributesNothing) {
    // 1x1 image, 3x3 kernel, pad 1: only the centre tap sees the image.
    Conv2dLayer l = make_layer({1, 1, 1, 1, 1, 3, 3}, 1 << 30, -1);  // scale 0.25
    l.params.pad_top = l.params.pad_bottom = l.params.pad_left = l.params.pad_right = 1;
    l.params.input_zero_point = 7;
    const TensorI8 w = tensor({3, 3, 1, 1}, {100, 100, 100, 100, 4, 100, 100, 100, 100});
    // acc = (10 - 7) * 4 = 12; 12 * 0.5 = 6; RDBPOT(6, 1) = 3. Zero padding would add
    // 8 * (0 - 7) * 100 = -5600 and clamp to -128.
    const TensorI8 y = conv2d_reference(l, tensor({1, 1, 1, 1}, {10}), w, {0});
    EXPECT_EQ(y.data, std::vector<int8_t>{3});
}

TEST(Reference, AsymmetricPadStrideAndDilation) {
    // W=5, S=2 taps dilated by 2, stride 2, pad left 1 / right 0: OW = (5+1-2-1)/2+1 = 2.
    Conv2dLayer l = make_layer({1, 1, 5, 1, 1, 1, 2}, kIdentity, 0);
    l.params.pad_left = 1;
    l.params.dilation_w = 2;
    l.params.stride_w = 2;
    // ow=0 taps iw=-1 (pad), 1: 0*10 + 2*1 = 2.  ow=1 taps iw=1, 3: 2*10 + 4*1 = 24.
    const TensorI8 y = conv2d_reference(l, tensor({1, 1, 5, 1}, {1, 2, 3, 4, 5}),
                                        tensor({1, 2, 1, 1}, {10, 1}), {0});
    EXPECT_EQ(y.shape, (std::vector<int64_t>{1, 1, 2, 1}));
    EXPECT_EQ(y.data, (std::vector<int8_t>{2, 24}));
}

TEST(Reference, PerChannelRequantClampAndRelu) {
    Conv2dLayer l = make_layer({1, 1, 1, 1, 3, 1, 1}, 0, 0);
    l.params.multiplier = {1 << 30, 1 << 30, kIdentity};
    l.params.shift = {0, -2, 0};
    l.params.output_zero_point = -5;
    l.params.act_min = -5;  // ReLU
    l.params.act_max = 100;
    // x=20, w=(10, 10, -1): acc = 200, 200, -20
    // k0: 200*0.5 = 100 - 5 = 95; k1: 100 / 4 = 25 - 5 = 20; k2: -20 - 5 = -25 -> ReLU -5
    const TensorI8 y = conv2d_reference(l, tensor({1, 1, 1, 1}, {20}),
                                        tensor({1, 1, 1, 3}, {10, 10, -1}), {0, 0, 0});
    EXPECT_EQ(y.data, (std::vector<int8_t>{95, 20, -5}));
    l.params.act_max = 90;
    EXPECT_EQ(conv2d_reference(l, tensor({1, 1, 1, 1}, {20}), tensor({1, 1, 1, 3}, {10, 10, -1}),
                               {0, 0, 0}).data,
              (std::vector<int8_t>{90, 20, -5}));
}

TEST(Reference, AccumulatorWrapsAroundInt32) {
    // INT32_MAX + 1 wraps to INT32_MIN -> about -2^31 -> clamps to -128 (saturation: 127).
    const Conv2dLayer l = make_layer({1, 1, 1, 1, 1, 1, 1}, kIdentity, 0);
    const TensorI8 y = conv2d_reference(l, tensor({1, 1, 1, 1}, {1}), tensor({1, 1, 1, 1}, {1}),
                                        {std::numeric_limits<int32_t>::max()});
    EXPECT_EQ(y.data, std::vector<int8_t>{-128});
}

// Double scales requantize as TFLite's reference FULLY_CONNECTED: round half away from
// zero, and zy + R wraps in int32 (R = INT32_MIN out of range).
TEST(Reference, DoubleScalesRoundHalfAwayFromZeroAndWrapTheZeroPoint) {
    Conv2dLayer l;
    l.shape = {1, 1, 1, 1, 4, 1, 1};
    l.params.double_scale = {0.5, 0.5, 0.25, 1e10};
    l.params.output_zero_point = -3;
    // acc = 5*w + bias: 5, -5, 10 -> 2.5 -> 3, -2.5 -> -3, 2.5 -> 3; 1e10: INT32_MIN - 3
    // wraps to INT32_MAX - 2 -> clamps to 127.
    const TensorI8 y = conv2d_reference(l, tensor({1, 1, 1, 1}, {5}),
                                        tensor({1, 1, 1, 4}, {1, -1, 2, 1}), {0, 0, 0, 0});
    EXPECT_EQ(y.data, (std::vector<int8_t>{0, -6, 0, 127}));
    l.params.double_scale[1] = -1.0;
    EXPECT_THROW(validate(l), Error);
    l.params.double_scale[1] = 0.5;
    l.params.multiplier.assign(4, kIdentity);
    l.params.shift.assign(4, 0);
    EXPECT_THROW(validate(l), Error);  // one requantization or the other
}

TEST(Reference, RejectsMismatchedTensors) {
    const Conv2dLayer l = make_layer({1, 2, 2, 1, 1, 1, 1}, kIdentity, 0);
    EXPECT_THROW(conv2d_reference(l, tensor({1, 2, 2, 2}, std::vector<int8_t>(8)),
                                  tensor({1, 1, 1, 1}, {1}), {0}),
                 Error);
    EXPECT_THROW(conv2d_reference(l, tensor({1, 2, 2, 1}, std::vector<int8_t>(4)),
                                  tensor({1, 1, 1, 1}, {1}), {0, 0}),
                 Error);
}

// The formula of docs/semantics.md, one output element at a time, int64 sums wrapped.
int8_t literal_output(const Conv2dLayer& l, const TensorI8& x, const TensorI8& w,
                      const std::vector<int32_t>& b, int64_t n, int64_t oh, int64_t ow,
                      int64_t k) {
    const Conv2dShape& s = l.shape;
    const Conv2dParams& p = l.params;
    int64_t acc = b[static_cast<size_t>(k)];
    for (int64_t r = 0; r < s.r; ++r)
        for (int64_t t = 0; t < s.s; ++t)
            for (int64_t c = 0; c < s.c; ++c) {
                const int64_t i = oh * p.stride_h - p.pad_top + r * p.dilation_h;
                const int64_t j = ow * p.stride_w - p.pad_left + t * p.dilation_w;
                const bool inside = i >= 0 && i < s.h && j >= 0 && j < s.w;
                const int64_t xp = inside ? x.data[static_cast<size_t>(((n * s.h + i) * s.w + j) * s.c + c)]
                                          : p.input_zero_point;
                acc += (xp - p.input_zero_point) * w.data[static_cast<size_t>(((r * s.s + t) * s.c + c) * s.k + k)];
            }
    const auto wrapped = static_cast<int32_t>(static_cast<uint32_t>(acc));
    const int64_t v = p.output_zero_point + mbqm(wrapped, p.multiplier[static_cast<size_t>(k)],
                                                 p.shift[static_cast<size_t>(k)]);
    return static_cast<int8_t>(std::clamp<int64_t>(v, p.act_min, p.act_max));
}

TEST(Reference, RandomLayersMatchTheLiteralFormula) {
    std::mt19937 rng(20261202);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    std::set<int> distinct_outputs;
    int layers = 0;
    while (layers < 300) {
        Conv2dShape s{pick(1, 2), pick(1, 9), pick(1, 9), pick(1, 20), pick(1, 20), pick(1, 4),
                      pick(1, 4)};
        Conv2dLayer l = make_layer(s, 0, 0);
        Conv2dParams& p = l.params;
        p.stride_h = pick(1, 3), p.stride_w = pick(1, 3);
        p.dilation_h = pick(1, 2), p.dilation_w = pick(1, 2);
        p.pad_top = pick(0, 3), p.pad_bottom = pick(0, 3), p.pad_left = pick(0, 3),
        p.pad_right = pick(0, 3);
        if (l.out_h() < 1 || l.out_w() < 1) continue;
        p.input_zero_point = pick(-128, 127), p.output_zero_point = pick(-20, 20);
        p.act_min = pick(-128, -100), p.act_max = pick(100, 127);
        for (int64_t k = 0; k < s.k; ++k) {
            // A scale near 1/(typical |acc|) keeps outputs spread over the int8 range.
            p.multiplier[static_cast<size_t>(k)] = pick(1 << 30, std::numeric_limits<int>::max());
            p.shift[static_cast<size_t>(k)] = -pick(4, 12);
        }
        TensorI8 x({s.n, s.h, s.w, s.c}), w({s.r, s.s, s.c, s.k});
        for (auto& v : x.data) v = static_cast<int8_t>(pick(-128, 127));
        for (auto& v : w.data) v = static_cast<int8_t>(pick(-128, 127));
        std::vector<int32_t> b(static_cast<size_t>(s.k));
        for (auto& v : b) v = pick(-100000, 100000);
        const TensorI8 y = conv2d_reference(l, x, w, b);
        size_t idx = 0;
        for (int64_t n = 0; n < s.n; ++n)
            for (int64_t oh = 0; oh < l.out_h(); ++oh)
                for (int64_t ow = 0; ow < l.out_w(); ++ow)
                    for (int64_t k = 0; k < s.k; ++k, ++idx) {
                        ASSERT_EQ(y.data[idx], literal_output(l, x, w, b, n, oh, ow, k))
                            << "layer " << layers << " at " << n << "," << oh << "," << ow << ","
                            << k;
                        distinct_outputs.insert(y.data[idx]);
                    }
        ++layers;
    }
    // Outputs that were all clipped or all zero would prove nothing.
    EXPECT_GT(distinct_outputs.size(), 200u);
}

}  // namespace
}  // namespace accel
