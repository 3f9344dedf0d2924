// The JSON report of a conv2d run (docs/cli.md, "--report"): one place that computes
// efficiency and names every key, for `accel conv2d --report` and `accel bench --json`.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "compiler/plan.hpp"
#include "devices/device.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"

namespace accel {

// The `schema_version` of every JSON file the CLI writes (reports, plans, counters,
// timelines; docs/schemas/): raised when a key is removed or changes its meaning.
inline constexpr int kJsonSchemaVersion = 1;

struct RunFacts {
    std::string backend;                 // "verilator", "fsim" or "ref"
    const Conv2dPlan* plan = nullptr;    // null for the reference backend
    const DeviceCounters* counters = nullptr;
    bool cycle_accurate = false;         // counters.cycles is a measurement
    double sim_seconds = 0;              // wall time of the device (or reference) run
    std::optional<bool> bit_exact;       // when --check ran
};

// roofline / cycles, or null for a run that measured no cycles (fsim, the reference):
// the one answer of every report, a layer's or a network's.
nlohmann::ordered_json efficiency_json(int64_t roofline_cycles, int64_t cycles);

nlohmann::ordered_json layer_json(const Conv2dLayer& layer);
nlohmann::ordered_json plan_json(const Conv2dPlan& plan);
nlohmann::ordered_json conv2d_report(const Conv2dLayer& layer, const HwParams& hw,
                                     const RunFacts& facts);

}  // namespace accel
