// The options of `accel plan` as the CLI spells them and the layer they describe.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "compiler/plan.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"

namespace accel::cli {

struct PlanArgs {
    std::string input, weights, shape, kernel, out_channels, hw, json;
    std::string stride = "1", pad = "0", dilation = "1";
};

// The layer to plan: its shape from --input/--weights or --shape/--kernel/--out-channels,
// its geometry from the options; validated.
Conv2dLayer plan_layer(const PlanArgs& a);

}  // namespace accel::cli
