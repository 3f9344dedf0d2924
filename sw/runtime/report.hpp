// The JSON reports of the runtime's results (docs/cli.md): a layer's run (`accel conv2d
// --report`, `accel bench --json`), a plan (`accel plan --json`) and a model's run (`accel
// run --report`); one place that computes efficiency and names every key, for the CLI and
// the Python package alike.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/plan.hpp"
#include "devices/device.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"
#include "runtime/backend.hpp"
#include "runtime/layer_run.hpp"
#include "runtime/network_runner.hpp"

namespace accel {

// The `schema_version` of every JSON file the CLI writes (reports, plans, counters,
// timelines; docs/schemas/): raised when a key is removed or changes its meaning.
inline constexpr int kJsonSchemaVersion = 1;

// roofline / cycles, or null for a run that measured no cycles (fsim, the reference):
// the one answer of every report, a layer's or a network's.
nlohmann::ordered_json efficiency_json(int64_t roofline_cycles, int64_t cycles);

nlohmann::ordered_json layer_json(const Conv2dLayer& layer);
nlohmann::ordered_json plan_json(const Conv2dPlan& plan);
// What `accel plan --json` writes and accel.plan returns: the plan, the layer, the
// config's name and the roofline.
nlohmann::ordered_json plan_report(const Conv2dLayer& layer, const HwParams& hw,
                                   const Conv2dPlan& plan);

// Sums over a model's operators, for the report and the CLI's table.
struct OperatorTotals {
    int64_t ops = 0, macs = 0, cycles = 0, predicted = 0, roofline = 0, read = 0, write = 0;
    double host_seconds = 0;
    void add(const OperatorRun& r);
};
// The totals of the device operators among `ops` (an inference's records).
OperatorTotals device_totals(const std::vector<OperatorRun>& ops);

// The report of a model's run (docs/cli.md, "accel run", --report): per operator,
// totals, arena and, when `checked`, the check. `model` names the model file.
nlohmann::json network_report(const std::string& model, Backend backend, const HwParams& hw,
                              const NetworkRun& run, bool checked, double wall_seconds);

// The report of a layer's run (docs/cli.md, "--report").
nlohmann::ordered_json conv2d_report(const Conv2dLayer& layer, const HwParams& hw,
                                     const LayerResult& result);

}  // namespace accel
