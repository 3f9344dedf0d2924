// The planner against an exhaustive search: the planner ranks its tile space with a
// quick estimate and schedules only the best few through the cost model; the oracle
// (test-only) schedules every plan of the same space. The planner's choice must be
// within 1% of the oracle's best predicted cycles.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "compiler/plan.hpp"
#include "compiler/planner.hpp"
#include "hw/hw_config.hpp"
#include "random_layer.hpp"
#include "shipped_hw.hpp"

namespace accel {
namespace {

int64_t exhaustive_best(const Conv2dLayer& layer, const HwParams& hw) {
    int64_t best = std::numeric_limits<int64_t>::max();
    for (Conv2dPlan& p : tile_space(layer, hw)) {
        predict_plan(layer, hw, p);
        best = std::min(best, p.predicted_cycles);
    }
    return best;
}

TEST(PlannerOracle, ChoiceIsWithinOnePercentOfExhaustiveSearch) {
    std::mt19937 rng(2024);
    const HwParams hws[] = {test::shipped_hw("default"), test::shipped_hw("tiny")};
    int worse = 0, exact = 0;
    double worst = 0;
    for (int i = 0; i < 60; ++i) {
        testing::LayerLimits lim;
        lim.max_n = 2, lim.max_hw = 10, lim.max_c = 24, lim.max_k = 24, lim.max_kernel = 5;
        const testing::LayerCase c = testing::random_layer(rng, lim);
        const HwParams& hw = hws[i % 2];
        const int64_t chosen = plan_conv2d(c.layer, hw).predicted_cycles;
        const int64_t best = exhaustive_best(c.layer, hw);
        ASSERT_GE(chosen, best) << "case " << i << ": the oracle missed a plan";
        const double gap = double(chosen - best) / double(best);
        worst = std::max(worst, gap);
        worse += gap > 0.01;
        exact += chosen == best;
        EXPECT_LE(gap, 0.01) << "case " << i << " on " << hw.config.name << ": planner "
                             << chosen << " cycles, exhaustive search " << best;
    }
    std::printf("planner vs exhaustive search: worst gap %.2f%%, %d of 60 optimal\n",
                100 * worst, exact);
    EXPECT_EQ(worse, 0);
}

// Few-channel stems, which the planner lowers by packing kernel columns (lowering.hpp,
// PackColumns): their LOADs read P-1 entries past each row's window, which the estimate
// must count, or it ranks narrow tiles that re-read most of their input first.
TEST(PlannerOracle, PackingStemsAreWithinOnePercentOfExhaustiveSearch) {
    const HwParams hw = test::shipped_hw("default");
    struct Stem {
        int64_t size, channels, kernel;
        int stride, pad_before, pad_after;
    };
    // MobileNetV2's (3x3/2, TF's SAME: one row and column after) and ResNet's (7x7/2), at
    // full size: on small images the planner schedules most of the space anyway.
    for (const Stem& s : {Stem{224, 3, 3, 2, 0, 1}, Stem{224, 3, 7, 2, 3, 3}}) {
        Conv2dLayer l;
        l.shape = {1, s.size, s.size, s.channels, 32, s.kernel, s.kernel};
        l.params.stride_h = l.params.stride_w = s.stride;
        l.params.pad_top = l.params.pad_left = s.pad_before;
        l.params.pad_bottom = l.params.pad_right = s.pad_after;
        l.params.multiplier.assign(32, 1 << 30);
        l.params.shift.assign(32, -8);
        const Conv2dPlan chosen = plan_conv2d(l, hw);
        ASSERT_EQ(chosen.lowering.kind, LoweringKind::PackColumns) << s.kernel << "x" << s.kernel;
        const int64_t best = exhaustive_best(l, hw);
        EXPECT_LE(double(chosen.predicted_cycles - best) / double(best), 0.01)
            << s.kernel << "x" << s.kernel << " stem: planner " << chosen.predicted_cycles
            << " cycles, exhaustive search " << best;
    }
}

}  // namespace
}  // namespace accel
