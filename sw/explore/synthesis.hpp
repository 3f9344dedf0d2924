// Stage 2 of a sweep (docs/explore.md): the kit's FPGA flow (scripts/fpga/run, board
// ulx3s) on chosen points, one job per point, its reports kept in a cache by config
// hash so that no config is synthesized or routed twice.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "explore/budget.hpp"
#include "explore/design_space.hpp"
#include "explore/flow_cache.hpp"
#include "explore/job_engine.hpp"
#include "explore/point_row.hpp"

namespace accel::explore {

enum class FlowStep { Synth, Route };

// Runs the step on every point of `points` not already in the cache, as jobs of
// `engine` logged under `log_dir`; returns the hashes whose job failed twice.
std::vector<std::string> run_flow(const FlowSetup& setup, FlowStep step,
                                  const std::vector<DesignPoint>& points,
                                  const EngineOptions& engine, const std::string& log_dir);

// What the cache holds for `row`'s config: its synthesized area (and the capacity of
// the device the report counted against), and its routed Fmax.
struct CachedFlow {
    std::optional<Area> area;
    std::optional<FpgaCapacity> capacity;
    std::optional<double> fmax_mhz;
};
CachedFlow cached_flow(const FlowSetup& setup, const std::string& hash);

}  // namespace accel::explore
