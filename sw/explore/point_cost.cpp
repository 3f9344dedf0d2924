// The cost model on one point: the planner's own predictions, summed over the layers
// exactly as `accel run --report` and `accel bench` sum them.
#include "explore/point_cost.hpp"

#include "compiler/planner.hpp"
#include "network/network_plan.hpp"
#include "runtime/model_file.hpp"

namespace accel::explore {

ExploreTarget model_target(const std::string& path) {
    return ExploreTarget{path, read_model(path), std::nullopt};
}

ExploreTarget suite_target(const std::string& name) {
    return ExploreTarget{"suite:" + name, std::nullopt, builtin_workload(name)};
}

PointCost point_cost(const ExploreTarget& target, const HwParams& hw) {
    PointCost cost;
    if (target.model) {
        const network::NetworkPlan plan = network::plan_network(*target.model, hw, true);
        for (const network::Step& s : plan.steps) {
            if (s.add) cost.cycles += s.add->plan.predicted_cycles;
            for (const network::ConvLayer& c : s.convs) cost.cycles += c.plan.predicted_cycles;
            cost.device_layers += static_cast<int64_t>(s.convs.size()) + (s.add ? 1 : 0);
        }
    } else {
        for (const WorkloadLayer& l : target.suite->layers) {
            cost.cycles += plan_conv2d(workload_conv2d(*target.suite, l), hw).predicted_cycles;
            ++cost.device_layers;
        }
    }
    const HwConfig& c = hw.config;
    cost.sram_bytes = c.input_bytes() + c.weight_bytes() + c.acc_bytes();
    cost.micros = static_cast<double>(cost.cycles) / c.clock_mhz;
    return cost;
}

}  // namespace accel::explore
