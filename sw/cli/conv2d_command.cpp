// accel conv2d: load the tensors, build and validate the layer, run it on a backend,
// write the output atomically and, on request, a JSON report (docs/cli.md).
#include <chrono>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "compiler/plan.hpp"
#include "compiler/planner.hpp"
#include "formats/npy.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"
#include "ops/quant.hpp"
#include "ops/reference.hpp"
#include "runtime/report.hpp"
#include "runtime/runtime.hpp"
#include "activity_timeline.hpp"
#include "device_options.hpp"
#include "chrome_trace.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "conv2d_command.hpp"
#include "progress_line.hpp"
#include "shared_options.hpp"

namespace po = boost::program_options;

namespace accel::cli {
namespace {

po::options_description conv2d_options(Conv2dArgs& a) {
    po::options_description d = command_options(
        "usage: accel conv2d --input X.npy --weights W.npy [options] --output Y.npy\n\n"
        "Runs one TFLite-compatible int8 conv2d (docs/semantics.md).\n\noptions");
    d.add_options()
        ("input", po::value(&a.input), "input x, int8 [N,H,W,C] .npy (required)")
        ("weights", po::value(&a.weights), "weights w, int8 [R,S,C,K] .npy (required)")
        ("bias", po::value(&a.bias), "bias b, int32 [K] .npy (default: zeros)");
    add_geometry_options(d, a.stride, a.pad, a.dilation);
    d.add_options()
        ("input-zero-point", po::value(&a.input_zp), "zx in [-128,127] (default 0)")
        ("output-zero-point", po::value(&a.output_zp), "zy in [-128,127] (default 0)")
        ("scale", po::value(&a.scale), "real scale in (0,2^30), converted by QuantizeMultiplier")
        ("multiplier", po::value(&a.multiplier), "M in [0,2^31-1], or an int32 [K] .npy")
        ("shift", po::value(&a.shift), "S in [-31,30] (> 0: left), or an int32 [K] .npy")
        ("act-min", po::value(&a.act_min), "clamp minimum in [-128,127] (default -128)")
        ("act-max", po::value(&a.act_max), "clamp maximum in [-128,127] (default 127)")
        ("relu", po::bool_switch(&a.relu), "ReLU: act-min = output zero point")
        ("output", po::value(&a.output), "output y, int8 [N,OH,OW,K] .npy (required)");
    add_hw_option(d, a.hw);
    d.add_options()
        ("backend", po::value(&a.backend), "verilator | fsim | ref (default verilator)")
        ("device", po::value(&a.device), (std::string("run on a board instead of --backend: ") +
                                          kBoardSpecs).c_str())
        ("check", po::bool_switch(&a.check), "compare with the golden reference; exit 1 on "
                                             "mismatch")
        ("report", po::value(&a.report), "write a JSON report to this file");
    add_trace_options(d, a.trace, a.trace_window, "since the run started");
    d.add_options()
        ("timeline", po::value(&a.timeline), "write the run's unit activity as a Chrome trace "
                                             "(Perfetto, chrome://tracing; verilator backend)")
        ("faults", po::value(&a.faults), kFaultsHelp);
    add_max_cycles_option(d, a.max_cycles);
    return d;
}

TensorI8 load_rank4(const std::string& path, const char* what, const char* layout,
                    const std::optional<TensorI8>& given) {
    TensorI8 t = given ? *given : read_npy_i8(path);
    bool empty = false;
    for (int64_t d : t.shape) empty = empty || d == 0;
    if (t.rank() != 4 || empty) {
        throw Error(fmt::format("{}: {} must have a non-empty shape {}, got {}", path, what,
                                layout, shape_repr(t.shape)));
    }
    return t;
}

std::vector<int32_t> load_per_channel(const std::string& option, const std::string& path,
                                      int64_t k, const std::optional<TensorI32>& given) {
    TensorI32 t = given ? *given : read_npy_i32(path);
    if (t.shape != std::vector<int64_t>{k}) {
        throw Error(fmt::format("{} {}: must have shape (K,) = ({},), got {}", option, path, k,
                                shape_repr(t.shape)));
    }
    return t.data;
}

// An integer broadcast to all K channels, or a .npy of K values, range-checked.
std::vector<int32_t> per_channel_values(const std::string& option, const std::string& text,
                                        int64_t k, int64_t lo, int64_t hi,
                                        const std::optional<TensorI32>& given) {
    if (is_int_literal(text)) {
        return std::vector<int32_t>(static_cast<size_t>(k),
                                    static_cast<int32_t>(parse_int(option, text, lo, hi)));
    }
    std::vector<int32_t> v = load_per_channel(option, text, k, given);
    for (size_t i = 0; i < v.size(); ++i) {
        if (v[i] < lo || v[i] > hi) {
            throw Error(fmt::format("{} {}: value [{}] = {} is outside [{}, {}]", option, text,
                                    i, v[i], lo, hi));
        }
    }
    return v;
}

void set_requantization(const Conv2dArgs& a, const Conv2dTensors& given, int64_t k,
                        Conv2dParams& p) {
    const bool explicit_mult = !a.multiplier.empty() || !a.shift.empty();
    if (!a.scale.empty() && explicit_mult) {
        throw Error("--scale: give either --scale or --multiplier with --shift, not both");
    }
    if (!a.scale.empty()) {
        QuantizedMultiplier q{};
        const double scale = parse_double("--scale", a.scale);  // names the option itself
        try {
            q = quantize_multiplier(scale);
        } catch (const Error& e) {  // the library says "scale ...": name the option
            throw Error(std::string("--") + e.what());
        }
        p.multiplier.assign(static_cast<size_t>(k), q.multiplier);
        p.shift.assign(static_cast<size_t>(k), q.shift);
        return;
    }
    if (a.multiplier.empty() || a.shift.empty()) {
        throw Error("--multiplier/--shift: the requantization needs --scale, or both "
                    "--multiplier and --shift");
    }
    p.multiplier = per_channel_values("--multiplier", a.multiplier, k, 0,
                                      std::numeric_limits<int32_t>::max(), given.multiplier);
    p.shift = per_channel_values("--shift", a.shift, k, kMinShift, kMaxShift, given.shift);
}

void set_zero_points_and_clamp(const Conv2dArgs& a, Conv2dParams& p) {
    p.input_zero_point = static_cast<int>(parse_int("--input-zero-point", a.input_zp, -128, 127));
    p.output_zero_point =
        static_cast<int>(parse_int("--output-zero-point", a.output_zp, -128, 127));
    if (a.relu && !a.act_min.empty()) {
        throw Error("--relu: sets act-min to the output zero point; do not also give --act-min");
    }
    p.act_min = a.act_min.empty() ? -128 : static_cast<int>(parse_int("--act-min", a.act_min,
                                                                       -128, 127));
    p.act_max = a.act_max.empty() ? 127 : static_cast<int>(parse_int("--act-max", a.act_max,
                                                                      -128, 127));
    if (a.relu) p.act_min = p.output_zero_point;
    if (p.act_min > p.act_max) {
        throw Error(fmt::format("--act-min {} is above --act-max {}", p.act_min, p.act_max));
    }
}

}  // namespace

LoadedLayer load_layer(const Conv2dArgs& a, const Conv2dTensors& given) {
    LoadedLayer l;
    l.x = load_rank4(a.input, "input", "[N,H,W,C]", given.x);
    l.w = load_rank4(a.weights, "weights", "[R,S,C,K]", given.w);
    if (l.w.dim(2) != l.x.dim(3)) {
        throw Error(fmt::format("{}: weights have C = {} but input {} has C = {}", a.weights,
                                l.w.dim(2), a.input, l.x.dim(3)));
    }
    l.layer.shape = {l.x.dim(0), l.x.dim(1), l.x.dim(2), l.x.dim(3),
                     l.w.dim(3), l.w.dim(0), l.w.dim(1)};
    const int64_t k = l.layer.shape.k;
    l.bias = a.bias.empty() ? std::vector<int32_t>(static_cast<size_t>(k), 0)
                            : load_per_channel("--bias", a.bias, k, given.bias);
    set_geometry(a.stride, a.pad, a.dilation, l.layer.params);
    set_zero_points_and_clamp(a, l.layer.params);
    set_requantization(a, given, k, l.layer.params);
    validate(l.layer);
    return l;
}

void check_backend(Conv2dArgs& a) {
    if (!a.device.empty()) {
        if (!a.backend.empty()) {
            throw Error("--device: runs on a board; do not also give --backend");
        }
        a.backend = device_backend(a.device);
        if (!a.trace.empty()) throw Error("--trace: only the verilator backend writes waveforms");
    }
    if (a.backend.empty()) a.backend = "verilator";
    if (a.device.empty()) check_backend_choice(a.backend, a.check, !a.trace.empty());
    if (!a.timeline.empty() && a.backend != "verilator") {
        throw Error("--timeline: only the verilator backend records unit activity");
    }
    check_max_cycles(a.max_cycles, a.device.empty() ? a.backend : "a board");
}

namespace {

// Outputs must never replace an input, nor each other, nor anything but a regular file.
void check_outputs(const Conv2dArgs& a) {
    if (a.input.empty() || a.weights.empty() || a.output.empty()) {
        throw Error("--input, --weights and --output are required (see 'accel conv2d --help')");
    }
    std::vector<std::string> inputs{a.input, a.weights, a.bias, a.hw};
    for (const std::string* m : {&a.multiplier, &a.shift}) {
        if (!is_int_literal(*m)) inputs.push_back(*m);  // a file, not a number
    }
    check_output_paths({{"--output", a.output}, {"--report", a.report}, {"--trace", a.trace},
                        {"--timeline", a.timeline}},
                       inputs);
}

// Prints how many outputs agree, or where the device and the reference differ; returns
// whether they agree.
bool compare_with_reference(const TensorI8& got, const TensorI8& want) {
    size_t mismatches = 0;
    std::string first;
    for (size_t i = 0; i < want.size(); ++i) {
        if (got.data[i] == want.data[i]) continue;
        if (++mismatches <= 5) {
            size_t rest = i;
            std::vector<int64_t> index(want.rank());
            for (size_t d = want.rank(); d-- > 0;) {
                index[d] = static_cast<int64_t>(rest % static_cast<size_t>(want.shape[d]));
                rest /= static_cast<size_t>(want.shape[d]);
            }
            first += fmt::format("\n  y[{}]: device {}, reference {}", fmt::join(index, ","),
                                 got.data[i], want.data[i]);
        }
    }
    if (mismatches == 0) {
        std::cout << fmt::format("check: bit-exact: all {} outputs match the golden reference\n",
                                 want.size());
        return true;
    }
    std::cerr << fmt::format("check: {} of {} outputs differ from the golden reference; first:{}\n",
                             mismatches, want.size(), first);
    return false;
}

// The layer's shapes, as the progress line and the timeline's title name it.
std::string layer_shapes(const Conv2dLayer& l) {
    const Conv2dShape& s = l.shape;
    return fmt::format("{}x{}x{}x{} -> {}, kernel {}x{}", s.n, s.h, s.w, s.c, s.k, s.r, s.s);
}

// The timeline's title: what ran.
std::string timeline_title(const Conv2dLayer& l) { return "conv2d " + layer_shapes(l); }

}  // namespace

void run_layer(const Conv2dArgs& a, const HwParams& hw, const LoadedLayer& l,
               const VerilatorOptions& options, LayerRun& out, const ProgressSink& progress) {
    RunFacts& facts = out.facts;
    facts.backend = a.backend;
    if (a.backend == "ref") {
        const auto start = std::chrono::steady_clock::now();
        out.y = conv2d_reference(l.layer, l.x, l.w, l.bias);
        facts.sim_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } else {
        const Conv2dPlan plan = plan_conv2d(l.layer, hw);
        if (progress) progress({1, 1, layer_shapes(l.layer), 0, plan.predicted_cycles});
        const DeviceFactory factory = a.device.empty() ? backend_factory(a.backend, options)
                                                       : board_factory(a.device);
        out.device = run_conv2d(factory, hw, l.layer, plan, l.x, l.w, l.bias);
        out.y = std::move(out.device.y);
        facts.plan = &out.device.plan;
        facts.counters = &out.device.counters;
        facts.cycle_accurate = a.backend != "fsim";  // the RTL, simulated or on a board
        facts.sim_seconds = out.device.device_seconds;
    }
    if (a.check) {
        facts.bit_exact =
            compare_with_reference(out.y, conv2d_reference(l.layer, l.x, l.w, l.bias));
    }
}

int run_conv2d(const std::vector<std::string>& args) {
    Conv2dArgs a;
    const po::options_description desc = conv2d_options(a);
    if (!parse_options(args, desc)) return 0;
    check_outputs(a);
    check_backend(a);
    VerilatorOptions options;
    options.trace_path = a.trace;
    set_trace_window(a.trace_window, a.trace, options);
    if (!a.faults.empty()) options.faults = parse_faults_option(a.faults, a.backend);
    if (!a.timeline.empty()) options.activity = std::make_shared<ActivityTimeline>();
    options.max_cycles = parse_max_cycles(a.max_cycles);
    const HwParams hw = derive_params(a.hw.empty() ? default_hw_config() : load_hw_config(a.hw));
    const LoadedLayer l = load_layer(a);
    LayerRun run;
    ProgressLine progress("conv2d", "layer", std::cerr, ProgressLine::stderr_is_terminal());
    options.on_cycles = [&progress](uint64_t c) { progress.run_cycles(c); };
    run_layer(a, hw, l, options, run, [&progress](const RunProgress& p) { progress.step(p); });
    progress.clear();
    const bool exact = run.facts.bit_exact.value_or(true);
    // The output, the report and the timeline appear together or not at all (a --trace
    // waveform is written by the device while it runs).
    const std::string npy = encode_npy(run.y);
    const std::string report =
        a.report.empty() ? "" : conv2d_report(l.layer, hw, run.facts).dump(2) + "\n";
    std::vector<std::pair<std::string, std::string_view>> files{{a.output, npy}};
    if (!a.report.empty()) files.emplace_back(a.report, report);
    const std::string timeline =
        a.timeline.empty() ? ""
                           : chrome_trace(timeline_title(l.layer), hw, *options.activity,
                                          run.device.counters).dump() + "\n";
    if (!a.timeline.empty()) files.emplace_back(a.timeline, timeline);
    write_files_atomic(files);
    return exact ? 0 : 1;
}

}  // namespace accel::cli
