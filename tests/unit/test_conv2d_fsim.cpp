// End to end on the functional simulator: planner, scheduler, layout and runtime
// against the golden reference, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>

#include "compiler/planner.hpp"
#include "devices/fsim.hpp"
#include "hw/hw_config.hpp"
#include "ops/reference.hpp"
#include "runtime/runtime.hpp"
#include "random_layer.hpp"

namespace accel {
namespace {

HwParams config(const char* name) {
    return load_hw_params(std::string(ACCEL_HW_CONFIG_DIR) + "/" + name + ".yaml");
}

DeviceFactory fsim_factory() {
    return [](const HwParams& hw, uint64_t bytes) -> std::unique_ptr<Device> {
        return std::make_unique<FunctionalSim>(hw, bytes);
    };
}

void expect_bit_exact(const HwParams& hw, const testing::LayerCase& c, const std::string& what) {
    const Conv2dPlan plan = plan_conv2d(c.layer, hw);
    const Conv2dRun run = run_conv2d(fsim_factory(), hw, c.layer, plan, c.x, c.w, c.bias);
    const TensorI8 want = conv2d_reference(c.layer, c.x, c.w, c.bias);
    ASSERT_EQ(run.y.shape, want.shape) << what;
    size_t mismatches = 0;
    for (size_t i = 0; i < want.size(); ++i) mismatches += run.y.data[i] != want.data[i];
    ASSERT_EQ(mismatches, 0u) << what << ": " << mismatches << " of " << want.size()
                              << " outputs differ";
    EXPECT_EQ(static_cast<int64_t>(run.counters.gemm_steps), run.plan.ideal_cycles) << what;
}

TEST(Conv2dFsim, RandomLayersDefaultAndTiny) {
    std::mt19937 rng(4242);
    size_t spread = 0, left_shifted = 0;
    for (int i = 0; i < 240; ++i) {
        const HwParams hw = config(i % 2 ? "tiny" : "default");
        testing::LayerLimits lim;
        lim.max_c = i % 10 == 0 ? 300 : 40;
        lim.max_k = i % 10 == 5 ? 300 : 40;
        const testing::LayerCase c = testing::random_layer(rng, lim);
        expect_bit_exact(hw, c, "layer " + std::to_string(i) + " on " + hw.config.name);
        if (HasFatalFailure()) return;
        spread += testing::distinct_values(conv2d_reference(c.layer, c.x, c.w, c.bias)) > 20;
        const std::vector<int32_t>& shift = c.layer.params.shift;
        left_shifted += std::any_of(shift.begin(), shift.end(), [](int32_t s) { return s > 0; });
    }
    // Most layers must produce a real spread of values, not clipped or constant output.
    EXPECT_GT(spread, 150u);
    EXPECT_GT(left_shifted, 100u) << "too few layers with positive shifts";
}

}  // namespace
}  // namespace accel
