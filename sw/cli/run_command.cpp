// accel run: a whole int8 TFLite model on a backend — plan it, run it, print where the
// time goes, check every device tensor on request, write the output and a report
// (docs/cli.md, docs/networks.md).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "formats/npy.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "ops/match.hpp"
#include "runtime/backend.hpp"
#include "runtime/model_file.hpp"
#include "runtime/model_inputs.hpp"
#include "runtime/network_runner.hpp"
#include "runtime/report.hpp"
#include "device_options.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "progress_line.hpp"
#include "shared_options.hpp"

namespace po = boost::program_options;

namespace accel::cli {
namespace {

using network::Placement;
using reference::Value;

struct RunArgs {
    std::string model, backend, hw, input, seed = "1", output, report, trace;
    std::string device;  // a board: the backend is the device's (uart, zynq)
    std::string dump, trace_window, max_cycles, inferences = "1";
    std::string faults;  // a DRAM fault plan for the verilator backend
    std::string match = "ref";
    bool check = false;
};

po::options_description run_options(RunArgs& a) {
    po::options_description d = command_options(
        "usage: accel run MODEL.tflite [options]\n\n"
        "Runs a fully int8-quantized TFLite model: its convolutions on the device, the\n"
        "other operators on the host (docs/networks.md).\n\noptions");
    d.add_options()
        ("backend", po::value(&a.backend), "verilator | fsim | ref (default verilator)")
        ("device", po::value(&a.device), (std::string("run on a board instead of --backend: ") +
                                          kBoardSpecs).c_str());
    add_hw_option(d, a.hw);
    d.add_options()
        ("input", po::value(&a.input), "the model's input, an int8 .npy of its shape (float32 "
                                       "if the model quantizes its input; default: random, "
                                       "see --seed)")
        ("seed", po::value(&a.seed), "seed of the random input (default 1)")
        ("output", po::value(&a.output), "write the model's output (.npy: int8, or float32 "
                                         "if the model dequantizes it)")
        ("check", po::bool_switch(&a.check), "compare every tensor a device operator writes "
                                             "with the golden reference; exit 1 at the first "
                                             "mismatch")
        ("report", po::value(&a.report), "write a JSON report to this file")
        ("match", po::value(&a.match), "the LiteRT kernels to be bit-exact with: ref (the "
                                       "reference kernels), opt (the optimized ones) "
                                       "(default ref; docs/semantics.md)")
        ("inferences", po::value(&a.inferences), "run the model N times on one device, the "
                                                 "weights and parameters that fit staying on "
                                                 "chip; report the first and the last "
                                                 "(steady-state) inference (default 1)");
    add_trace_options(d, a.trace, a.trace_window, "of the device's runs, one after another");
    d.add_options()
        ("dump-tensors", po::value(&a.dump), "write every tensor an operator wrote to DIR as "
                                            "tensor_<index>.npy (DIR must exist)");
    d.add_options()("faults", po::value(&a.faults), kFaultsHelp);
    add_max_cycles_option(d, a.max_cycles);
    return d;
}

std::string dims(const std::vector<int64_t>& shape) { return fmt::format("{}", fmt::join(shape, "x")); }

// Sets a.backend to the device's name when --device is given (verilator when neither is).
void check_args(RunArgs& a) {
    if (a.model.empty()) throw Error("no model given (accel run MODEL.tflite)");
    resolve_backend(a.backend, a.device, a.check, !a.trace.empty());
    check_max_cycles(a.max_cycles, a.device.empty() ? a.backend : "a board");
    parse_int("--inferences", a.inferences, 1, kMaxInferences);
    parse_match(a.match, "--match");
    check_output_paths({{"--output", a.output}, {"--report", a.report}, {"--trace", a.trace}},
                       {a.model, a.input, a.hw});
    if (!a.dump.empty() && !std::filesystem::is_directory(a.dump)) {
        throw Error(fmt::format("--dump-tensors {}: is not a directory", a.dump));
    }
}

// The model's inputs: --input, or the random draw of --seed.
std::vector<Value> run_inputs(const RunArgs& a, const graph::Model& m) {
    if (!a.input.empty() && m.inputs.size() != 1) {
        throw Error(fmt::format("--input: the model has {} inputs; only one-input models take "
                                "--input", m.inputs.size()));
    }
    const auto seed = static_cast<uint64_t>(parse_int("--seed", a.seed, 0, INT64_MAX));
    if (a.input.empty()) return model_inputs(m, seed);
    const GivenInputs file{[&a](size_t, const graph::TensorDesc& d) {
                               return d.type == graph::DType::Float32
                                          ? Value::of(read_npy_f32(a.input))
                                          : Value::of(read_npy_i8(a.input));
                           },
                           [&a](size_t) { return "--input " + a.input; }};
    return model_inputs(m, seed, &file);
}

// For the table, which shows it only where cycles were measured (efficiency_json).
double efficiency(int64_t roofline, int64_t cycles) {
    return static_cast<double>(roofline) / static_cast<double>(cycles);
}

// The device columns of an operator's row: cycles, predicted, roofline, efficiency.
std::string device_columns(const OperatorRun& r) {
    const bool dev = r.placement == Placement::Device;
    const bool timed = dev && r.cycles > 0;  // fsim keeps no time
    return fmt::format("{:>9} {:>9} {:>9} {:>5}", timed ? std::to_string(r.cycles) : "",
                       dev ? std::to_string(r.predicted_cycles) : "",
                       dev ? std::to_string(r.roofline_cycles) : "",
                       timed ? fmt::format("{:.2f}", efficiency(r.roofline_cycles, r.cycles)) : "");
}

// One row per operator; with several inferences, the steady state's columns after the
// first inference's, and `on` saying what of the operator stays on chip: W its weights,
// P its parameters.
void print_operators(const NetworkRun& run) {
    const bool steady = !run.steady.empty();
    std::cout << fmt::format("{:>4} {:<18} {:<7} {:<16} {:>11} {:>9} {:>9} {:>9} {:>5} {:>8}",
                             "op", "type", "where", "output", "MACs", "cycles", "predicted",
                             "roofline", "eff", "host ms");
    if (steady) {
        std::cout << fmt::format(" {:>2} {:>9} {:>9} {:>9} {:>5}", "on", "steady", "predicted",
                                 "roofline", "eff");
    }
    std::cout << "\n";
    for (size_t i = 0; i < run.operators.size(); ++i) {
        const OperatorRun& r = run.operators[i];
        std::cout << fmt::format(
            "{:>4} {:<18} {:<7} {:<16} {:>11} {} {:>8}", r.index, r.type,
            network::placement_name(r.placement), dims(r.output_shape), r.macs, device_columns(r),
            r.placement == Placement::Host ? fmt::format("{:.2f}", r.host_seconds * 1e3) : "");
        if (steady && i < run.steady.size()) {
            const std::string kept = std::string(r.weights_resident ? "W" : "") +
                                     (r.params_resident ? "P" : "");
            std::cout << fmt::format(" {:>2} {}", kept,
                                     device_columns(run.steady[i]));
        }
        std::cout << "\n";
    }
}

// The device's cycles of a whole inference against its roofline, or the roofline alone
// when the backend keeps no time.
std::string device_line(const OperatorTotals& device) {
    return device.cycles > 0
               ? fmt::format("device {} cycles (predicted {}) against a roofline of {}: "
                             "efficiency {:.2f}",
                             device.cycles, device.predicted, device.roofline,
                             efficiency(device.roofline, device.cycles))
               : fmt::format("device predicted {} cycles, roofline {} (this backend keeps no "
                             "time)", device.predicted, device.roofline);
}

void print_table(const NetworkRun& run) {
    print_operators(run);
    std::map<std::string, OperatorTotals> by_type;
    OperatorTotals device, all;
    for (const OperatorRun& r : run.operators) {
        by_type[fmt::format("{} ({})", r.type, network::placement_name(r.placement))].add(r);
        if (r.placement == Placement::Device) device.add(r);
        all.add(r);
    }
    std::cout << fmt::format("\n{:<28} {:>4} {:>13} {:>10} {:>10} {:>5} {:>9}\n", "by type",
                             "ops", "MACs", "cycles", "roofline", "eff", "host ms");
    for (const auto& [type, t] : by_type) {
        std::cout << fmt::format("{:<28} {:>4} {:>13} {:>10} {:>10} {:>5} {:>9.2f}\n", type,
                                 t.ops, t.macs, t.cycles, t.roofline,
                                 t.cycles ? fmt::format("{:.2f}", efficiency(t.roofline, t.cycles))
                                          : "",
                                 t.host_seconds * 1e3);
    }
    std::cout << fmt::format(
        "\ntotal: {} operators, {} MACs; {}; host operators {:.1f} ms; arena {} bytes, "
        "constants {} bytes\n",
        all.ops, all.macs, device_line(device), all.host_seconds * 1e3, run.arena_bytes,
        run.constant_bytes);
    std::cout << fmt::format("on chip across inferences: {} constant tensors (weights, "
                             "biases), {} bytes of the weight buffer and parameter table\n",
                             run.resident_tensors.size(), run.resident_bytes);
    if (run.steady.empty()) return;
    std::cout << fmt::format("first inference: {}\nsteady state (inference {} of {}): {}\n",
                             device_line(device), run.inferences, run.inferences,
                             device_line(device_totals(run.steady)));
}

// The device options of --trace, --trace-window, --faults and --max-cycles, checked
// before the model is read.
VerilatorOptions device_options(const RunArgs& a) {
    VerilatorOptions options =
        trace_and_fault_options(a.trace, a.trace_window, a.faults, a.backend);
    options.max_cycles = parse_max_cycles(a.max_cycles);
    return options;
}

}  // namespace

int run_run(const std::vector<std::string>& args) {
    RunArgs a;
    std::vector<std::string> rest = args;
    if (!rest.empty() && !rest[0].empty() && rest[0][0] != '-') {  // the model comes first
        a.model = rest[0];
        rest.erase(rest.begin());
    }
    const po::options_description desc = run_options(a);
    if (!parse_options(rest, desc)) return 0;
    check_args(a);
    VerilatorOptions options = device_options(a);
    const auto start = std::chrono::steady_clock::now();
    const HwParams hw = derive_params(a.hw.empty() ? default_hw_config() : load_hw_config(a.hw));
    const graph::Model model = read_model(a.model);
    const std::vector<Value> inputs = run_inputs(a, model);
    const Backend backend = *backend_named(a.backend);  // check_args: a known one
    ProgressLine progress("run", "operator", std::cerr, ProgressLine::stderr_is_terminal());
    RunOptions run_options;
    run_options.inferences = parse_int("--inferences", a.inferences, 1, kMaxInferences);
    run_options.check = a.check;
    run_options.match = parse_match(a.match);
    run_options.keep_tensors = !a.dump.empty();
    run_options.progress = [&progress](const RunProgress& p) { progress.step(p); };
    options.on_cycles = [&progress](uint64_t c) { progress.run_cycles(c); };
    const DeviceFactory factory = !a.device.empty()   ? board_factory(a.device)
                                  : on_device(backend) ? backend_factory(a.backend, options)
                                                       : DeviceFactory{};
    const NetworkRun run = run_model(model, hw, backend, factory, inputs, run_options);
    progress.clear();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    print_table(run);
    if (!a.device.empty()) {  // over a serial line the transfers can outweigh the runs
        std::cout << fmt::format("board: {:.3f} s writing and reading its memory, {:.3f} s "
                                 "running the accelerator (wall time)\n",
                                 run.transfer_seconds, run.device_seconds);
    }
    if (run.mismatch) {
        std::cerr << "check: " << describe(*run.mismatch, model) << "\n";
        return 1;
    }
    if (a.check) {
        std::cout << fmt::format("check: bit-exact: {} tensors, {} elements compared with the "
                                 "golden reference\n", run.tensors_checked, run.elements_checked);
    }
    std::string npy, json;
    std::vector<std::string> dumps;  // the views below point into these
    std::vector<std::pair<std::string, std::string_view>> files;
    dumps.reserve(run.tensors.size());
    for (const auto& [t, v] : run.tensors) {
        dumps.push_back(v.type == graph::DType::Float32 ? encode_npy(v.as_f32())
                                                         : encode_npy(v.as_i8()));
        files.emplace_back(fmt::format("{}/tensor_{}.npy", a.dump, t), dumps.back());
    }
    if (!a.output.empty()) {
        const Value& y = run.outputs.at(0);
        npy = y.type == graph::DType::Float32 ? encode_npy(y.as_f32()) : encode_npy(y.as_i8());
        files.emplace_back(a.output, npy);
    }
    if (!a.report.empty()) {
        json = network_report(a.model, backend, hw, run, a.check, wall).dump(2) + "\n";
        files.emplace_back(a.report, json);
    }
    if (!files.empty()) write_files_atomic(files);
    return 0;
}

}  // namespace accel::cli
