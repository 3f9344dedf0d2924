// The steps of `accel run` that the Python package (python/) takes too: the options as
// the CLI spells them, the model's inputs and the JSON report.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/model.hpp"
#include "hw/hw_params.hpp"
#include "network/value.hpp"
#include "runtime/network_runner.hpp"

namespace accel::cli {

struct RunArgs {
    std::string model, backend = "verilator", hw, input, seed = "1", output, report, trace;
    std::string dump, trace_window, max_cycles;
    bool check = false;
};

// The rules the options must keep (a model, the backend's, the output paths).
void check_args(const RunArgs& a);

// The model file read and checked whole (network/model_check.hpp) before anything runs;
// every error starts with the file's path.
graph::Model read_model(const std::string& path);

// The model's inputs: `given` (one per model input, in memory, each checked against the
// model's shape), else --input, else a random draw from --seed.
std::vector<network::Value> model_inputs(const RunArgs& a, const graph::Model& m,
                                         const std::vector<network::Value>& given = {});

// Plans the model and runs it on a.backend (with its --trace, --trace-window and
// --max-cycles); `on_cycles` is the Verilator device's progress clock (VerilatorOptions).
NetworkRun run_model(const RunArgs& a, const graph::Model& model, const HwParams& hw,
                     const std::vector<network::Value>& inputs, const RunOptions& run_options,
                     const std::function<void(uint64_t)>& on_cycles = {});

// The report of --report (docs/cli.md): per operator, totals, arena, the check.
nlohmann::json network_report(const RunArgs& a, const HwParams& hw, const NetworkRun& run,
                              double wall_seconds);

}  // namespace accel::cli
