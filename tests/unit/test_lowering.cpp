// Lowerings (lowering.hpp): the lowered layer on the tensors the device reads must give
// the original layer's output bit for bit, and the planner must pick them where they pay.
#include <gtest/gtest.h>

#include <random>

#include "compiler/lowering.hpp"
#include "compiler/plan.hpp"
#include "compiler/planner.hpp"
#include "hw/hw_config.hpp"
#include "ops/reference.hpp"
#include "random_layer.hpp"
#include "shipped_hw.hpp"

namespace accel {
namespace {

// What a strided-read lowering's LOADs read of the original input x: the pixels
// subsample_window names, as a tensor of the lowered layer's input shape.
TensorI8 strided_reads(const Conv2dLayer& layer, const Lowering& lo, const TensorI8& x) {
    const SubsampleWindow w = subsample_window(layer, lo);
    const Conv2dShape& s = layer.shape;
    TensorI8 out({s.n, w.rows.count, w.cols.count, s.c});
    size_t at = 0;
    for (int64_t n = 0; n < s.n; ++n)
        for (int64_t y = 0; y < w.rows.count; ++y)
            for (int64_t xx = 0; xx < w.cols.count; ++xx)
                for (int64_t c = 0; c < s.c; ++c) {
                    const int64_t h = w.rows.first + y * w.rows.step;
                    const int64_t v = w.cols.first + xx * w.cols.step;
                    out.data[at++] = x.data[static_cast<size_t>(((n * s.h + h) * s.w + v) * s.c + c)];
                }
    return out;
}

// What a packing lowering's LOADs write (docs/isa.md, LOAD, pack_taps): lowered column
// j holds the padded original columns j .. j+P-1 side by side, zx where they fall in
// the padding or past it; the rows stay as they are.
TensorI8 packed_reads(const Conv2dLayer& layer, const Lowering& lo, const TensorI8& x) {
    const Conv2dShape& s = layer.shape;
    const Conv2dShape p = lower_layer(layer, lo).shape;
    TensorI8 out({s.n, s.h, p.w, p.c});
    size_t at = 0;
    for (int64_t n = 0; n < s.n; ++n)
        for (int64_t y = 0; y < s.h; ++y)
            for (int64_t j = 0; j < p.w; ++j)
                for (int64_t k = 0; k < lo.pack; ++k)
                    for (int64_t c = 0; c < s.c; ++c) {
                        const int64_t v = j + k - layer.params.pad_left;
                        out.data[at++] =
                            v < 0 || v >= s.w
                                ? static_cast<int8_t>(layer.params.input_zero_point)
                                : x.data[static_cast<size_t>(((n * s.h + y) * s.w + v) * s.c + c)];
                    }
    return out;
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
        const TensorI8 x2 = lo.kind == LoweringKind::PackColumns ? packed_reads(c.layer, lo, c.x)
                                                                 : strided_reads(c.layer, lo, c.x);
        const TensorI8 y = conv2d_reference(l2, x2, lower_weights(c.layer, lo, c.w), c.bias);
        EXPECT_EQ(y.data, want.data) << what << ", " << lowering_name(lo);
    }
    return lowered;
}

TEST(Lowering, RandomLayersKeepTheirOutput) {
    std::mt19937 rng(77);
    const HwParams hws[] = {test::shipped_hw("default"), test::shipped_hw("tiny")};
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
    const auto los = lowerings_for(c.layer, test::shipped_hw("default"));
    ASSERT_EQ(los.size(), 3u);
    EXPECT_EQ(los[1].kind, LoweringKind::Subsample);
    EXPECT_EQ(los[2].kind, LoweringKind::SubsampleRows);
    const Conv2dLayer rows = lower_layer(c.layer, los[2]);
    EXPECT_EQ(rows.shape.h, 5);
    EXPECT_EQ(rows.shape.w, 11);
    EXPECT_EQ(rows.params.stride_h, 1);
    EXPECT_EQ(rows.params.stride_w, 2);
    const Conv2dLayer l2 = lower_layer(c.layer, los[1]);
    EXPECT_EQ(l2.shape.h, 5);
    EXPECT_EQ(l2.shape.w, 6);
    EXPECT_EQ(l2.params.stride_h, 1);
    check_all_lowerings(c, test::shipped_hw("default"), "9x11 1x1/2");
    // With padding the load unit inserts what falls on it: pad 3 at stride 2 puts
    // outputs 0 and 1 on the padding and reads from original row 1 on.
    p.pad_top = p.pad_left = 3;
    p.pad_bottom = p.pad_right = 2;
    const testing::LayerCase padded = testing::make_case(rng, {1, 9, 11, 5, 7, 1, 1}, p);
    const SubsampleWindow w = subsample_window(padded.layer, los[1]);
    EXPECT_EQ(w.rows.pad_before, 2);
    EXPECT_EQ(w.rows.first, 1);
    EXPECT_EQ(w.rows.count, 4);  // rows 1, 3, 5, 7
    EXPECT_EQ(w.rows.pad_after, padded.layer.out_h() - 6);
    EXPECT_EQ(check_all_lowerings(padded, test::shipped_hw("default"), "9x11 1x1/2 padded"), 2);
}

TEST(Lowering, RgbStemPacksFiveColumnsOnTheDefaultCore) {
    // ResNet-18's C1: 3 channels in a 16-wide block leave room for 5 kernel columns.
    std::mt19937 rng(6);
    Conv2dParams p;
    p.stride_h = p.stride_w = 2;
    p.pad_top = p.pad_bottom = p.pad_left = p.pad_right = 3;
    const Conv2dLayer l = testing::make_case(rng, {1, 224, 224, 3, 64, 7, 7}, p).layer;
    const auto los = lowerings_for(l, test::shipped_hw("default"));
    ASSERT_EQ(los.size(), 2u);
    EXPECT_EQ(los[1].kind, LoweringKind::PackColumns);
    EXPECT_EQ(los[1].pack, 5);
    const Conv2dLayer l2 = lower_layer(l, los[1]);
    EXPECT_EQ(l2.shape.c, 15);
    EXPECT_EQ(l2.shape.s, 2);
    EXPECT_EQ(l2.params.dilation_w, 5);
    const Conv2dPlan plan = plan_conv2d(l, test::shipped_hw("default"));
    EXPECT_EQ(plan.lowering.kind, LoweringKind::PackColumns);
}

TEST(Lowering, PackingNeedsAnUndilatedLayerAndPaddingTheLoadInserts) {
    std::mt19937 rng(8);
    Conv2dParams p;
    p.pad_left = p.pad_right = 1;
    auto kinds = [&](const Conv2dParams& q) {
        const Conv2dLayer l = testing::make_case(rng, {1, 8, 8, 3, 4, 3, 3}, q).layer;
        std::vector<LoweringKind> out;
        for (const Lowering& lo : lowerings_for(l, test::shipped_hw("default"))) out.push_back(lo.kind);
        return out;
    };
    const std::vector<LoweringKind> packed{LoweringKind::None, LoweringKind::PackColumns};
    const std::vector<LoweringKind> plain{LoweringKind::None};
    EXPECT_EQ(kinds(p), packed);
    Conv2dParams dilated = p;
    dilated.dilation_w = 2;
    EXPECT_EQ(kinds(dilated), plain);
    Conv2dParams wide = p;  // the packing LOADs pad P-1 = 2 columns more on the right
    wide.pad_right = static_cast<int>(kMaxLoadPad) - 1;
    EXPECT_EQ(kinds(wide), plain);
    wide.pad_right = static_cast<int>(kMaxLoadPad) - 2;
    EXPECT_EQ(kinds(wide), packed);
}

}  // namespace
}  // namespace accel
