// A program built on the kit from outside it (tests/packaging): plans ResNet-18's C2
// layer (56x56x64 -> 64, 3x3, pad 1) on the default config and prints the plan's cycles,
// which the test compares with what `accel plan --json` says.
#include <cstdio>

#include "compiler/planner.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"

int main() {
    accel::Conv2dLayer layer;
    layer.shape = {1, 56, 56, 64, 64, 3, 3};
    layer.params.pad_top = layer.params.pad_bottom = 1;
    layer.params.pad_left = layer.params.pad_right = 1;
    layer.params.multiplier.assign(64, 1 << 30);
    layer.params.shift.assign(64, 0);
    accel::validate(layer);
    const accel::HwParams hw = accel::derive_params(accel::default_hw_config());
    const accel::Conv2dPlan plan = accel::plan_conv2d(layer, hw);
    std::printf("predicted_cycles %lld\n", static_cast<long long>(plan.predicted_cycles));
    return 0;
}
