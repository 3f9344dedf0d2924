// Checks a --timeline file (docs/cli.md, "--timeline") against the report of the same
// run: well-formed Chrome trace events on the six tracks, disjoint on each track, inside
// the run, and adding up to the device's counters.
#pragma once
#include <nlohmann/json.hpp>

namespace accel::e2e {

// Records gtest failures; `report` is a conv2d --report object of the verilator backend.
void expect_timeline_matches_report(const nlohmann::json& trace, const nlohmann::json& report);

}  // namespace accel::e2e
