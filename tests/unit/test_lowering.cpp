// Host-side lowerings (lowering.hpp): the lowered layer on the lowered tensors must give
// the original layer's output bit for bit, and the planner must pick them where they pay.
#include <gtest/gtest.h>

#include <random>

#include "compiler/lowering.hpp"
#include "compiler/plan.hpp"
#include "compiler/planner.hpp"
#include "hw/hw_config.hpp"
#include "ops/reference.hpp"
#include "random_layer.hpp"

namespace accel {
namespace {

HwParams config(const char* name) {
    return load_hw_params(std::string(ACCEL_HW_CONFIG_DIR) + "/" + name + ".yaml");
}

// Every lowering that applies to the case: reference(lowered) == reference(original).
int check_all_lowerings(const testing::LayerCase& c, const HwParams& hw, const std::string& what) {
    const TensorI8 want = conv2d_reference(c.layer, c.x, c.w, c.bias);
    int lowered = 0;
    for (const Lowering& lo : lowerings_for(c.layer, hw)) {
        if (lo.kind == LoweringKind::None) continue;
        ++lowered;
        const Conv2dLayer l2 = lower_layer(c.layer, lo);
        EXPECT_EQ(l2.out_h(), c.layer.out_h()) << what;
        EXPECT_EQ(l2.out_w(), c.layer.out_w()) << what;
        const TensorI8 y = conv2d_reference(l2, lower_input(c.layer, lo, c.x),
                                            lower_weights(c.layer, lo, c.w), c.bias);
        EXPECT_EQ(y.data, want.data) << what << ", " << lowering_name(lo);
    }
    return lowered;
}

TEST(Lowering, RandomLayersKeepTheirOutput) {
    std::mt19937 rng(77);
    const HwParams hws[] = {config("default"), config("tiny")};
    int lowered = 0;
    for (int i = 0; i < 400; ++i) {
        testing::LayerLimits lim;
        lim.max_c = i % 2 ? 8 : 3;  // few channels: column packing applies
        lim.max_k = 12;
        const testing::LayerCase c = testing::random_layer(rng, lim);
        lowered += check_all_lowerings(c, hws[i % 2], "case " + std::to_string(i));
        if (HasFailure()) return;
    }
    EXPECT_GT(lowered, 200);  // the cases really were lowered
}

TEST(Lowering, StridedPointwiseIsSubsampled) {
    std::mt19937 rng(5);
    Conv2dParams p;
    p.stride_h = p.stride_w = 2;
    const testing::LayerCase c = testing::make_case(rng, {1, 9, 11, 5, 7, 1, 1}, p);
    const auto los = lowerings_for(c.layer, config("default"));
    ASSERT_EQ(los.size(), 2u);
    EXPECT_EQ(los[1].kind, LoweringKind::Subsample);
    const Conv2dLayer l2 = lower_layer(c.layer, los[1]);
    EXPECT_EQ(l2.shape.h, 5);
    EXPECT_EQ(l2.shape.w, 6);
    EXPECT_EQ(l2.params.stride_h, 1);
    check_all_lowerings(c, config("default"), "9x11 1x1/2");
}

TEST(Lowering, RgbStemPacksFiveColumnsOnTheDefaultCore) {
    // ResNet-18's C1: 3 channels in a 16-wide block leave room for 5 kernel columns.
    std::mt19937 rng(6);
    Conv2dParams p;
    p.stride_h = p.stride_w = 2;
    p.pad_top = p.pad_bottom = p.pad_left = p.pad_right = 3;
    const Conv2dLayer l = testing::make_case(rng, {1, 224, 224, 3, 64, 7, 7}, p).layer;
    const auto los = lowerings_for(l, config("default"));
    ASSERT_EQ(los.size(), 2u);
    EXPECT_EQ(los[1].kind, LoweringKind::PackColumns);
    EXPECT_EQ(los[1].pack, 5);
    const Conv2dLayer l2 = lower_layer(l, los[1]);
    EXPECT_EQ(l2.shape.c, 15);
    EXPECT_EQ(l2.shape.s, 2);
    EXPECT_EQ(l2.params.dilation_w, 5);
    const Conv2dPlan plan = plan_conv2d(l, config("default"));
    EXPECT_EQ(plan.lowering.kind, LoweringKind::PackColumns);
}

}  // namespace
}  // namespace accel
