// accel conv2d: load the tensors, build and validate the layer, run it on a backend,
// write the output atomically and, on request, a JSON report (docs/cli.md).
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

#include "backends/chrome_trace.hpp"
#include "base/error.hpp"
#include "base/file_io.hpp"
#include "base/tensor.hpp"
#include "formats/npy.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"
#include "ops/quant.hpp"
#include "runtime/layer_run.hpp"
#include "runtime/report.hpp"
#include "runtime/run_progress.hpp"
#include "runtime/runtime.hpp"
#include "activity_timeline.hpp"
#include "device_options.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "progress_line.hpp"
#include "shared_options.hpp"
#include "verilator_device.hpp"

namespace po = boost::program_options;

namespace accel::cli {
namespace {

struct Conv2dArgs {
    std::string input, weights, bias, output, hw, report, trace, trace_window, timeline, device;
    std::string backend;  // empty: verilator, or the board of --device
    std::string stride = "1", pad = "0", dilation = "1";
    std::string input_zp = "0", output_zp = "0";
    std::string scale, multiplier, shift, act_min, act_max;
    std::string faults;  // a DRAM fault plan for the verilator backend
    std::string max_cycles;
    bool relu = false, check = false;
};

struct LoadedLayer {
    Conv2dLayer layer;
    TensorI8 x, w;
    std::vector<int32_t> bias;
};

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

TensorI8 load_rank4(const std::string& path, const char* what, const char* layout) {
    TensorI8 t = read_npy_i8(path);
    check_conv2d_tensor(t.shape, path, what, layout);
    return t;
}

std::vector<int32_t> load_per_channel(const std::string& option, const std::string& path,
                                      int64_t k) {
    TensorI32 t = read_npy_i32(path);
    check_per_channel(t.shape, k, option + " " + path);
    return t.data;
}

// An integer broadcast to all K channels, or a .npy of K values, range-checked.
std::vector<int32_t> per_channel_values(const std::string& option, const std::string& text,
                                        int64_t k, int64_t lo, int64_t hi) {
    if (is_int_literal(text)) {
        return std::vector<int32_t>(static_cast<size_t>(k),
                                    static_cast<int32_t>(parse_int(option, text, lo, hi)));
    }
    std::vector<int32_t> v = load_per_channel(option, text, k);
    for (size_t i = 0; i < v.size(); ++i) {
        if (v[i] < lo || v[i] > hi) {
            throw Error(fmt::format("{} {}: value [{}] = {} is outside [{}, {}]", option, text,
                                    i, v[i], lo, hi));
        }
    }
    return v;
}

void set_requantization(const Conv2dArgs& a, int64_t k,
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
                                      std::numeric_limits<int32_t>::max());
    p.shift = per_channel_values("--shift", a.shift, k, kMinShift, kMaxShift);
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

// The layer of --input and --weights with the options' geometry, zero points, clamp
// and requantization, validated; accel::Error naming the option or file at fault.
LoadedLayer load_layer(const Conv2dArgs& a) {
    LoadedLayer l;
    l.x = load_rank4(a.input, "input", "[N,H,W,C]");
    l.w = load_rank4(a.weights, "weights", "[R,S,C,K]");
    l.layer.shape = conv2d_shape_of(l.x.shape, l.w.shape, a.input, a.weights);
    const int64_t k = l.layer.shape.k;
    l.bias = a.bias.empty() ? std::vector<int32_t>(static_cast<size_t>(k), 0)
                            : load_per_channel("--bias", a.bias, k);
    set_geometry(a.stride, a.pad, a.dilation, l.layer.params);
    set_zero_points_and_clamp(a, l.layer.params);
    set_requantization(a, k, l.layer.params);
    validate(l.layer);
    return l;
}

// The --backend/--device/--check/--trace/--timeline rules; sets a.backend to the
// device's name (verilator when neither is given).
void check_backend(Conv2dArgs& a) {
    resolve_backend(a.backend, a.device, a.check, !a.trace.empty());
    if (!a.timeline.empty() && a.backend != "verilator") {
        throw Error("--timeline: only the verilator backend records unit activity");
    }
    check_max_cycles(a.max_cycles, a.device.empty() ? a.backend : "a board");
}

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

// How many outputs agree (stdout), or where the device and the reference differ
// (stderr, the first five).
void print_check(const LayerCheck& c) {
    if (c.bit_exact()) {
        std::cout << fmt::format("check: bit-exact: all {} outputs match the golden reference\n",
                                 c.outputs);
        return;
    }
    std::string first;
    for (const LayerCheck::Difference& d : c.first) first += "\n  " + describe(d);
    std::cerr << fmt::format("check: {} of {} outputs differ from the golden reference; first:{}\n",
                             c.differing, c.outputs, first);
}

// The layer's shapes, as the progress line and the timeline's title name it.
std::string layer_shapes(const Conv2dLayer& l) {
    const Conv2dShape& s = l.shape;
    return fmt::format("{}x{}x{}x{} -> {}, kernel {}x{}", s.n, s.h, s.w, s.c, s.k, s.r, s.s);
}

// The timeline's title: what ran.
std::string timeline_title(const Conv2dLayer& l) { return "conv2d " + layer_shapes(l); }

}  // namespace

int run_conv2d(const std::vector<std::string>& args) {
    Conv2dArgs a;
    const po::options_description desc = conv2d_options(a);
    if (!parse_options(args, desc)) return 0;
    check_outputs(a);
    check_backend(a);
    VerilatorOptions options =
        trace_and_fault_options(a.trace, a.trace_window, a.faults, a.backend);
    if (!a.timeline.empty()) options.activity = std::make_shared<ActivityTimeline>();
    options.max_cycles = parse_max_cycles(a.max_cycles);
    const HwParams hw = derive_params(a.hw.empty() ? default_hw_config() : load_hw_config(a.hw));
    const LoadedLayer l = load_layer(a);
    ProgressLine progress("conv2d", "layer", std::cerr, ProgressLine::stderr_is_terminal());
    options.on_cycles = [&progress](uint64_t c) { progress.run_cycles(c); };
    const Backend backend = *backend_named(a.backend);  // check_backend: a known one
    DeviceFactory factory;
    if (on_device(backend)) {
        factory = a.device.empty() ? backend_factory(a.backend, options) : board_factory(a.device);
    }
    LayerRunOptions run_options;
    run_options.check = a.check;
    run_options.progress = [&progress, &l](const RunProgress& p) {
        RunProgress named = p;
        named.what = layer_shapes(l.layer);
        progress.step(named);
    };
    const LayerResult run =
        accel::run_layer(l.layer, l.x, l.w, l.bias, hw, backend, factory, run_options);
    progress.clear();
    if (run.check) print_check(*run.check);
    const bool exact = !run.check || run.check->bit_exact();
    // The output, the report and the timeline appear together or not at all (a --trace
    // waveform is written by the device while it runs).
    const std::string npy = encode_npy(run.y);
    const std::string report =
        a.report.empty() ? "" : conv2d_report(l.layer, hw, run).dump(2) + "\n";
    std::vector<std::pair<std::string, std::string_view>> files{{a.output, npy}};
    if (!a.report.empty()) files.emplace_back(a.report, report);
    const std::string timeline =
        a.timeline.empty() ? ""
                           : chrome_trace(timeline_title(l.layer), hw, *options.activity,
                                          run.device->counters).dump() + "\n";
    if (!a.timeline.empty()) files.emplace_back(a.timeline, timeline);
    write_files_atomic(files);
    return exact ? 0 : 1;
}

}  // namespace accel::cli
