// Layer figures worked out by hand: MACs, compulsory DRAM bytes, roofline.
#include <gtest/gtest.h>

#include "compiler/metrics.hpp"
#include "hw/hw_config.hpp"

namespace accel {
namespace {

Conv2dLayer layer(int64_t h, int64_t c, int64_t k, int64_t r, int stride, int pad) {
    Conv2dLayer l;
    l.shape = {1, h, h, c, k, r, r};
    l.params.stride_h = l.params.stride_w = stride;
    l.params.pad_top = l.params.pad_bottom = l.params.pad_left = l.params.pad_right = pad;
    l.params.multiplier.assign(static_cast<size_t>(k), 1 << 30);
    l.params.shift.assign(static_cast<size_t>(k), 0);
    return l;
}

TEST(Metrics, OneByOneStrideTwoReadsAQuarter) {
    const Conv2dLayer l = layer(8, 4, 4, 1, 2, 0);
    EXPECT_EQ(input_elements_read(l), 4 * 4 * 4);  // rows 0,2,4,6 x cols 0,2,4,6 x C
}

TEST(Metrics, StrideLargerThanKernelSkipsRows) {
    // H=7, 2x2 kernel, stride 3: outputs 0,1 read rows {0,1} and {3,4}; rows 2,5,6 unread.
    const Conv2dLayer l = layer(7, 1, 1, 2, 3, 0);
    EXPECT_EQ(l.out_h(), 2);
    EXPECT_EQ(input_elements_read(l), 4 * 4);
}

TEST(Metrics, ResNet18C2OnDefaultConfig) {
    // 56x56x64 -> 64, 3x3, pad 1, stride 1.
    const Conv2dLayer l = layer(56, 64, 64, 3, 1, 1);
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

TEST(Metrics, MemoryBoundLayerRoofline) {
    // 1x1, C=1, K=1: 64 MACs on 256 PEs is 1 cycle; bytes 64 + 1 + 9 + 64 = 138 -> 18 cycles
    const Conv2dLayer l = layer(8, 1, 1, 1, 1, 0);
    EXPECT_EQ(roofline_cycles(l, default_hw_config()), 18);
}

}  // namespace
}  // namespace accel
