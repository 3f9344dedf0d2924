// The steps of `accel plan` that the Python package (python/) takes too: the options as
// the CLI spells them, the layer they describe and the plan's JSON (--json).
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

// What --json writes: the plan, the layer, the config's name and the roofline.
nlohmann::ordered_json plan_document(const Conv2dLayer& layer, const HwParams& hw,
                                     const Conv2dPlan& plan);

}  // namespace accel::cli
