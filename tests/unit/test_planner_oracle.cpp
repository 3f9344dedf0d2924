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

namespace accel {
namespace {

HwParams config(const char* name) {
    return load_hw_params(std::string(ACCEL_HW_CONFIG_DIR) + "/" + name + ".yaml");
}

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
    const HwParams hws[] = {config("default"), config("tiny")};
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

}  // namespace
}  // namespace accel
