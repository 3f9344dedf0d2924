// Stage 1 of a sweep: what the kit's own planner and cost model predict for one design
// point on the workload explored (docs/explore.md).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/workload.hpp"
#include "graph/model.hpp"
#include "hw/hw_params.hpp"

namespace accel::explore {

// What a sweep explores: a whole TFLite model (planned as `accel run` plans it) or a
// workload suite's conv2d layers (planned as `accel bench` plans them).
struct ExploreTarget {
    std::string label;  // the model's path or "suite:NAME"
    std::optional<graph::Model> model;
    std::optional<Workload> suite;
};
ExploreTarget model_target(const std::string& path);
ExploreTarget suite_target(const std::string& name);

struct PointCost {
    int64_t cycles = 0;       // the device operators' predicted cycles, summed
    int64_t sram_bytes = 0;   // the three on-chip buffers
    double micros = 0;        // cycles at the config's clock_mhz
    int64_t device_layers = 0;
};

// Throws accel::Error when the target cannot be planned on `hw` (a layer no tile fits,
// a core shape the network cannot use): the point is invalid, with that message.
PointCost point_cost(const ExploreTarget& target, const HwParams& hw);

}  // namespace accel::explore
