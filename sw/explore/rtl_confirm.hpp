// Stage 4 of a sweep (docs/explore.md): chosen points run on their own RTL, the
// Verilated model of each config built on demand and kept in the cache by config hash
// (scripts/explore/rtl-point), so that the cost model's prediction stands beside the
// cycles the hardware takes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "explore/design_space.hpp"
#include "explore/job_engine.hpp"
#include "explore/synthesis.hpp"

namespace accel::explore {

// Runs `model` on the RTL of every point not already confirmed on it, as jobs of
// `engine`; returns the hashes whose job failed twice.
std::vector<std::string> confirm_on_rtl(const FlowSetup& setup,
                                        const std::vector<DesignPoint>& points,
                                        const std::string& model, const EngineOptions& engine,
                                        const std::string& log_dir);

// What a run of `model` is called in the cache: named after the model's bytes.
std::string rtl_report_name(const std::string& model);

// The device cycles `accel run --backend verilator` measured on the config, in the run
// called `report_name`, when it ran.
std::optional<int64_t> rtl_cycles(const FlowSetup& setup, const std::string& hash,
                                  const std::string& report_name);

}  // namespace accel::explore
