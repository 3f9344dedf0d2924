// Stage 2 of a sweep (docs/explore.md): the kit's FPGA flow (scripts/fpga/run, board
// ulx3s) and the generic synthesis of accel_top (scripts/explore/synth-cells) on chosen
// points, one job per point, their reports kept in a cache by config hash so that no
// config is synthesized or routed twice.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "explore/budget.hpp"
#include "explore/design_space.hpp"
#include "explore/flow_cache.hpp"
#include "explore/job_engine.hpp"
#include "explore/point_row.hpp"

namespace accel::explore {

// Synth: synth_ecp5 of the ULX3S design; Route: its place and route; Cells: the
// generic synthesis of accel_top.
enum class FlowStep { Synth, Route, Cells };

// Runs the step on every point of `points` not already in the cache, as jobs of
// `engine` logged under `log_dir`; returns the hashes whose job failed twice.
std::vector<std::string> run_flow(const FlowSetup& setup, FlowStep step,
                                  const std::vector<DesignPoint>& points,
                                  const EngineOptions& engine, const std::string& log_dir);

// What the cache holds for `row`'s config: its synthesized area (and the capacity of
// the device the report counted against), its routed Fmax and its generic cell count.
struct CachedFlow {
    std::optional<Area> area;
    std::optional<FpgaCapacity> capacity;
    std::optional<double> fmax_mhz;
    std::optional<CellCount> cells;
};
CachedFlow cached_flow(const FlowSetup& setup, const std::string& hash);

// The cell count of Yosys' `stat -json` of one flattened module (synth-cells' stat.json):
// every cell but the memories' ports ($mem*) and the hierarchy's names ($scopeinfo);
// the flip-flops are the cell types with DFF in their name. accel::Error when `stat` is
// not such a report.
CellCount cell_count_from_yosys_stat(const nlohmann::json& stat);

}  // namespace accel::explore
