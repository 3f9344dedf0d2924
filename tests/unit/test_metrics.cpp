// Layer figures worked out by hand: MACs, compulsory DRAM bytes, roofline.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "compiler/metrics.hpp"
#include "hw/hw_config.hpp"

namespace accel {
namespace {

// A square layer of one image, named field by field: H x H x C -> K, an R x R kernel,
// the same stride and padding on both axes.
struct Square {
    int64_t h = 1, c = 1, k = 1, r = 1;
    int stride = 1, pad = 0;
};

Conv2dLayer layer(const Square& q) {
    Conv2dLayer l;
    l.shape = {.n = 1, .h = q.h, .w = q.h, .c = q.c, .k = q.k, .r = q.r, .s = q.r};
    l.params.stride_h = l.params.stride_w = q.stride;
    l.params.pad_top = l.params.pad_bottom = l.params.pad_left = l.params.pad_right = q.pad;
    l.params.multiplier.assign(static_cast<size_t>(q.k), 1 << 30);
    l.params.shift.assign(static_cast<size_t>(q.k), 0);
    return l;
}

TEST(Metrics, OneByOneStrideTwoReadsAQuarter) {
    const Conv2dLayer l = layer({.h = 8, .c = 4, .k = 4, .stride = 2});
    EXPECT_EQ(input_elements_read(l), 4 * 4 * 4);  // rows 0,2,4,6 x cols 0,2,4,6 x C
}

TEST(Metrics, StrideLargerThanKernelSkipsRows) {
    // H=7, 2x2 kernel, stride 3: outputs 0,1 read rows {0,1} and {3,4}; rows 2,5,6 unread.
    const Conv2dLayer l = layer({.h = 7, .r = 2, .stride = 3});
    EXPECT_EQ(l.out_h(), 2);
    EXPECT_EQ(input_elements_read(l), 4 * 4);
}

TEST(Metrics, ResNet18C2OnDefaultConfig) {
    // 56x56x64 -> 64, 3x3, pad 1, stride 1.
    const Conv2dLayer l = layer({.h = 56, .c = 64, .k = 64, .r = 3, .pad = 1});
    const HwConfig hw = default_hw_config();
    EXPECT_EQ(l.macs(), 115605504);  // 56*56*64*64*9
    const CompulsoryBytes b = compulsory_bytes(l);
    EXPECT_EQ(b.input, 200704);      // 56*56*64, every element read
    EXPECT_EQ(b.weights, 36864);     // 3*3*64*64
    EXPECT_EQ(b.params, 576);        // 64 * (4 + 4 + 1)
    EXPECT_EQ(b.output, 200704);
    EXPECT_EQ(roofline_cycles(l, hw), 451584);  // compute bound: 115605504 / 256
    EXPECT_EQ(direct_gemm_cycles(l, hw), 451584);  // 56*56*9 * 4 * 4
}

// The rows and columns read, against marking every tap of every output one by one.
TEST(Metrics, InputElementsReadAgreesWithEveryTapMarked) {
    std::mt19937 rng(3);
    auto draw = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    for (int i = 0; i < 3000; ++i) {
        Conv2dLayer l =
            layer({.h = draw(1, 30), .r = draw(1, 9), .stride = draw(1, 5), .pad = draw(0, 6)});
        l.shape.w = draw(1, 30);
        l.shape.s = draw(1, 9);
        l.params.stride_w = draw(1, 5);
        l.params.dilation_h = draw(1, 4);
        l.params.dilation_w = draw(1, 4);
        l.params.pad_left = draw(0, 6);
        if (l.out_h() < 1 || l.out_w() < 1) continue;
        auto marked = [](int64_t in, int64_t out, int64_t kernel, int stride, int pad,
                         int dilation) {
            std::vector<bool> read(static_cast<size_t>(in), false);
            for (int64_t o = 0; o < out; ++o)
                for (int64_t t = 0; t < kernel; ++t) {
                    const int64_t at = o * stride - pad + t * dilation;
                    if (at >= 0 && at < in) read[static_cast<size_t>(at)] = true;
                }
            return static_cast<int64_t>(std::count(read.begin(), read.end(), true));
        };
        const Conv2dParams& p = l.params;
        const int64_t want =
            marked(l.shape.h, l.out_h(), l.shape.r, p.stride_h, p.pad_top, p.dilation_h) *
            marked(l.shape.w, l.out_w(), l.shape.s, p.stride_w, p.pad_left, p.dilation_w);
        ASSERT_EQ(input_elements_read(l), want) << "case " << i;
    }
}

// A wide image under a wide kernel is counted in a moment, not out x kernel steps.
TEST(Metrics, WideKernelOverAWideImage) {
    Conv2dLayer l = layer({.h = 80, .c = 3, .k = 6, .r = 9});
    l.shape.w = 265199;
    l.shape.s = 2431;
    l.params.stride_h = 2;
    l.params.dilation_w = 2;
    EXPECT_EQ(input_elements_read(l), 79 * 265199 * 3);  // every column, the rows but the last
}

TEST(Metrics, MemoryBoundLayerRoofline) {
    // 1x1, C=1, K=1: 64 MACs on 256 PEs is 1 cycle; bytes 64 + 1 + 9 + 64 = 138 -> 18 cycles
    const Conv2dLayer l = layer({.h = 8});
    EXPECT_EQ(roofline_cycles(l, default_hw_config()), 18);
}

}  // namespace
}  // namespace accel
