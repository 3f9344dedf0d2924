// accel explore as one call (docs/explore.md), for the CLI and the Python package: the
// stages of a sweep over a design space, each as jobs on an engine, merged into a
// report whose CSV and JSON are written to the output directory.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "explore/job_engine.hpp"
#include "explore/sweep_report.hpp"
#include "explore/synthesis.hpp"

namespace accel::explore {

struct ExploreOptions {
    std::string space;           // SPACE.yaml
    std::string model, suite;    // one of them
    std::string out;             // results and the jobs' shared directory
    std::vector<std::string> budgets;
    EngineOptions engine;
    int64_t chunk_points = 0;    // 0: the points / 64, at least 1
    // Stage 2: synthesize this many valid points (spread over the space's MACs and
    // SRAM), route this many of the front's fastest, through the kit's FPGA flow.
    int synth = 0, route = 0;
    // Stage 2 too: this many valid points (spread as for synth) through Yosys' generic
    // synth of accel_top alone, for cell counts; and which area the front weighs.
    int synth_cells = 0;
    AreaAxis area = AreaAxis::Fpga;
    // Stage 4: run the model on the RTL of the best point within the budget and the
    // front's fastest, this many in all (--model only).
    int confirm = 0;
    FlowSetup flow;
    // The command a job runs: an accel executable and its explore-job subcommand.
    std::string accel_executable;
};

// Checks the options (accel::Error naming the bad one, before anything is written),
// runs the stages, writes OUT/points.csv and OUT/points.json whole, and returns the
// report. Progress goes to `log`.
SweepReport explore(const ExploreOptions& options, std::ostream& log);

}  // namespace accel::explore
