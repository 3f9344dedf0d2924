// accel bench: run a workload suite layer by layer on a device and print, per layer,
// how close each run comes to its roofline (docs/cli.md "accel bench"). Everything the
// user can get wrong -- the workload, the layer selection, the outputs, a layer that
// cannot be tiled, a missing Verilator model -- is checked before the first layer runs.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
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
#include "compiler/metrics.hpp"
#include "compiler/plan.hpp"
#include "compiler/planner.hpp"
#include "formats/workload.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "runtime/layer_run.hpp"
#include "runtime/report.hpp"
#include "runtime/runtime.hpp"
#include "activity_timeline.hpp"
#include "device_options.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "progress_line.hpp"
#include "shared_options.hpp"

namespace po = boost::program_options;
using Json = nlohmann::ordered_json;

namespace accel::cli {
namespace {

struct BenchArgs {
    std::string suite, workload, layers, hw, json;
    std::string backend = "verilator";
    std::vector<std::string> timeline;
    std::string max_cycles;
    bool check = false;
};

po::options_description bench_options(BenchArgs& a) {
    po::options_description d = command_options(
        "usage: accel bench [--suite NAME | --workload FILE.yaml] [--layers L1,L2,...]\n"
        "                   [--backend verilator|fsim] [--hw HW.yaml] [--check]\n"
        "                   [--json FILE] [--timeline LAYER FILE.json]\n\n"
        "Runs each conv2d layer of a workload on a device, with reproducible random data\n"
        "seeded per layer, and prints one row per layer: cycles (measured, predicted by the\n"
        "cost model, ideal GEMM issue, roofline), efficiency = roofline / cycles, DRAM bytes\n"
        "read and written and their ratio to the compulsory traffic, each buffer's use of\n"
        "its capacity, simulation speed and the --check result; then the totals.\n"
        "On a terminal, progress goes to stderr. Exit 1 when --check found a mismatch.\n\n"
        "options");
    d.add_options()
        ("suite", po::value(&a.suite), "a built-in workload (configs/workloads/NAME.yaml); "
                                       "default resnet18")
        ("workload", po::value(&a.workload), "a workload YAML file instead of a suite")
        ("layers", po::value(&a.layers), "comma-separated layer names to run, in this order "
                                         "(default: all)")
        ("backend", po::value(&a.backend), "verilator | fsim (default verilator); fsim "
                                           "measures no cycles");
    add_hw_option(d, a.hw);
    d.add_options()
        ("check", po::bool_switch(&a.check), "compare every output with the golden "
                                             "reference; exit 1 on any mismatch")
        ("json", po::value(&a.json), "write the per-layer reports (conv2d --report objects, "
                                     "layer.name added) as a JSON list")
        ("timeline", po::value(&a.timeline)->multitoken(),
         "LAYER FILE.json: write that layer's timeline in the Chrome trace format (Perfetto, "
         "chrome://tracing): fetch, load, compute, drain, token waits, DRAM reads and "
         "writes, cycle by cycle (verilator backend)");
    add_max_cycles_option(d, a.max_cycles);
    return d;
}

Workload load_bench_workload(const BenchArgs& a) {
    if (!a.suite.empty() && !a.workload.empty()) {
        throw Error("--suite/--workload: give one of them, not both");
    }
    if (!a.workload.empty()) return load_workload(a.workload);
    try {
        return builtin_workload(a.suite.empty() ? "resnet18" : a.suite);
    } catch (const Error& e) {
        throw Error(fmt::format("--suite: {}", e.what()));
    }
}

// The layers to run: all, or those --layers names, in its order.
std::vector<const WorkloadLayer*> select_layers(const Workload& w, const std::string& list) {
    std::vector<const WorkloadLayer*> out;
    if (list.empty()) {
        for (const WorkloadLayer& l : w.layers) out.push_back(&l);
        return out;
    }
    std::vector<std::string> names;
    for (const WorkloadLayer& l : w.layers) names.push_back(l.name);
    std::set<std::string> seen;
    size_t start = 0;
    while (true) {
        const size_t comma = list.find(',', start);
        const std::string name = list.substr(start, comma - start);
        const WorkloadLayer* l = w.find(name);
        if (l == nullptr) {
            throw Error(fmt::format("--layers {}: no layer '{}' in workload '{}' (it has {})",
                                    list, name, w.name, fmt::join(names, ", ")));
        }
        if (!seen.insert(name).second) {
            throw Error(fmt::format("--layers {}: layer '{}' is named twice", list, name));
        }
        out.push_back(l);
        if (comma == std::string::npos) return out;
        start = comma + 1;
    }
}

void check_outputs(const BenchArgs& a) {
    const std::string timeline_file = a.timeline.size() == 2 ? a.timeline[1] : "";
    check_output_paths({{"--json", a.json}, {"--timeline", timeline_file}}, {a.workload, a.hw});
}

void check_backend_and_timeline(const BenchArgs& a, const std::vector<const WorkloadLayer*>& run) {
    if (a.backend != "verilator" && a.backend != "fsim") {
        throw Error(fmt::format("--backend {}: expected verilator or fsim (bench runs a device; "
                                "the reference is what --check compares with)",
                                a.backend));
    }
    check_max_cycles(a.max_cycles, a.backend);
    if (a.timeline.empty()) return;
    if (a.timeline.size() != 2) {
        throw Error(fmt::format("--timeline: expected LAYER FILE.json, got {} value(s)",
                                a.timeline.size()));
    }
    if (a.backend != "verilator") {
        throw Error("--timeline: only the verilator backend measures unit activity");
    }
    for (const WorkloadLayer* l : run) {
        if (l->name == a.timeline[0]) return;
    }
    throw Error(fmt::format("--timeline {}: not among the layers this run runs", a.timeline[0]));
}

// A layer of the suite: what it is, then how its run went.
struct BenchRow {
    const WorkloadLayer* spec = nullptr;
    Conv2dLayer layer;
    Conv2dPlan plan;
    DeviceCounters counters;
    std::optional<bool> exact;
    std::string check_note;  // the first mismatches
    size_t outputs = 0;
    Json report;
};

// Every selected layer's plan, before anything runs: a layer that cannot be tiled is bad
// input (exit 2), and must not surface after half the suite has run.
std::vector<BenchRow> plan_layers(const Workload& w,
                                     const std::vector<const WorkloadLayer*>& run,
                                     const HwParams& hw) {
    std::vector<BenchRow> out;
    for (const WorkloadLayer* l : run) {
        BenchRow r;
        r.spec = l;
        r.layer = workload_conv2d(w, *l);
        try {
            r.plan = plan_conv2d(r.layer, hw);
        } catch (const Error& e) {
            throw Error(fmt::format("layer {} ({}): {}", l->name, describe(*l), e.what()));
        }
        out.push_back(std::move(r));
    }
    return out;
}

// The first mismatches of a check, for the verdict line.
std::string check_note(const LayerCheck& c) {
    constexpr size_t kNoted = 3;
    std::string note = fmt::format("{} of {} outputs differ; ", c.differing, c.outputs);
    for (size_t i = 0; i < c.first.size() && i < kNoted; ++i) {
        note += (i == 0 ? "" : "; ") + describe(c.first[i]);
    }
    return note;
}

void run_layer(const Workload& w, const BenchArgs& a, const HwParams& hw,
               const DeviceFactory& factory, BenchRow& r) {
    const WorkloadCase c = make_workload_case(w, *r.spec);
    r.layer = c.layer;
    LayerRunOptions options;
    options.check = a.check;
    options.plan = &r.plan;
    LayerResult result;
    try {
        result = accel::run_layer(c.layer, c.x, c.w, c.bias, hw, *backend_named(a.backend),
                                  factory, options);
    } catch (const DeviceError& e) {
        throw DeviceError(fmt::format("layer {}: {}", r.spec->name, e.what()));
    }
    r.outputs = result.y.size();
    if (result.check) {
        r.exact = result.check->bit_exact();
        if (!*r.exact) r.check_note = check_note(*result.check);
    }
    r.counters = result.device->counters;
    r.report = conv2d_report(r.layer, hw, result);
    // The layer's name, first in the report's layer object, where a reader looks for it.
    Json layer = {{"name", r.spec->name}};
    for (const auto& [key, value] : r.report["layer"].items()) {
        if (key != "name") layer[key] = value;
    }
    r.report["layer"] = layer;
}

// ---- the table: every figure is read from the report, so table and --json agree ----

int64_t i64(const Json& j) { return j.is_null() ? 0 : j.get<int64_t>(); }

std::string number(const Json& j) { return j.is_null() ? "-" : fmt::format("{}", i64(j)); }

// A table cell of the KiB columns: always one decimal, no unit.
std::string kib_cell(int64_t bytes) {
    return fmt::format("{:.1f}", static_cast<double>(bytes) / 1024.0);
}

std::string ratio(int64_t a, int64_t b) {
    return b > 0 ? fmt::format("{:.2f}", static_cast<double>(a) / static_cast<double>(b)) : "-";
}

std::string percent(const Json& buffer) {
    const double cap = static_cast<double>(i64(buffer["capacity_bytes"]));
    const double used = static_cast<double>(i64(buffer["used_bytes"]));
    return cap > 0 ? fmt::format("{:.0f}", 100.0 * used / cap) : "-";
}

std::string rate(double cycles_per_second) {
    if (!(cycles_per_second > 0) || !std::isfinite(cycles_per_second)) return "-";
    if (cycles_per_second >= 1e6) return fmt::format("{:.2f}M", cycles_per_second / 1e6);
    return fmt::format("{:.0f}k", cycles_per_second / 1e3);
}

std::string exact_cell(const std::optional<bool>& exact) {
    return !exact.has_value() ? "-" : *exact ? "yes" : "NO";
}

constexpr const char* kRowFormat =
    "{:<7} {:<22} {:>10} {:>10} {:>10} {:>10} {:>5} {:>9} {:>8} {:>5} {:>4} {:>4} {:>4} "
    "{:>7} {:>5}\n";

void print_table(const std::vector<BenchRow>& results, bool timed, bool checked) {
    fmt::print(kRowFormat, "layer", "shape", "cycles", "predicted", "ideal", "roofline", "eff",
               "rd KiB", "wr KiB", "/comp", "in%", "wt%", "acc%", "cyc/s", "exact");
    int64_t cycles = 0, predicted = 0, ideal = 0, roofline = 0, rd = 0, wr = 0, comp = 0;
    double seconds = 0;
    for (const BenchRow& r : results) {
        const Json& j = r.report;
        const Json& b = j["buffers"];
        const Json& cps = j["sim_cycles_per_second"];
        fmt::print(kRowFormat, r.spec->name, describe(*r.spec), number(j["cycles"]),
                   number(j["predicted_cycles"]), number(j["ideal_cycles"]),
                   number(j["roofline_cycles"]),
                   j["efficiency"].is_null() ? "-"
                                             : fmt::format("{:.2f}", j["efficiency"].get<double>()),
                   kib_cell(i64(j["dram_read_bytes"])), kib_cell(i64(j["dram_write_bytes"])),
                   ratio(i64(j["dram_read_bytes"]) + i64(j["dram_write_bytes"]),
                         i64(j["compulsory_dram_bytes"])),
                   percent(b["input"]), percent(b["weight"]), percent(b["acc"]),
                   rate(cps.is_null() ? 0.0 : cps.get<double>()), exact_cell(r.exact));
        cycles += i64(j["cycles"]);
        predicted += i64(j["predicted_cycles"]);
        ideal += i64(j["ideal_cycles"]);
        roofline += i64(j["roofline_cycles"]);
        rd += i64(j["dram_read_bytes"]);
        wr += i64(j["dram_write_bytes"]);
        comp += i64(j["compulsory_dram_bytes"]);
        seconds += j["sim_seconds"].get<double>();
    }
    size_t bad = 0;
    for (const BenchRow& r : results) bad += r.exact.has_value() && !*r.exact;
    const std::optional<bool> all_exact =
        checked ? std::optional<bool>(bad == 0) : std::nullopt;
    fmt::print(kRowFormat, "total", fmt::format("{} layers", results.size()),
               timed ? fmt::format("{}", cycles) : "-", predicted, ideal, roofline,
               timed ? ratio(roofline, cycles) : "-", kib_cell(rd), kib_cell(wr),
               ratio(rd + wr, comp), "", "", "",
               timed ? rate(static_cast<double>(cycles) / seconds) : "-", exact_cell(all_exact));
    if (timed) {
        fmt::print("\ntotal: {} cycles against a roofline of {}: efficiency {}; {:.2f} s of "
                   "device wall time, {} cycles/s\n",
                   cycles, roofline, ratio(roofline, cycles), seconds,
                   rate(static_cast<double>(cycles) / seconds));
    } else {
        fmt::print("\ntotal: {:.2f} s of device wall time (fsim measures no cycles)\n", seconds);
    }
}

// One line per layer, for a reader (and `make sim`) who wants the verdict alone.
void print_check(const std::vector<BenchRow>& results) {
    fmt::print("\n");
    for (const BenchRow& r : results) {
        if (*r.exact) {
            fmt::print("{:<7} bit-exact: all {} outputs match the golden reference\n",
                       r.spec->name, r.outputs);
        } else {
            fmt::print("{:<7} NOT bit-exact: {}\n", r.spec->name, r.check_note);
        }
    }
}

// The device factory exists before anything runs: a missing Verilator model for --hw
// is bad input, found by building a small device once.
DeviceFactory checked_factory(const std::string& backend, const VerilatorOptions& options,
                              const HwParams& hw) {
    DeviceFactory f = backend_factory(backend, options);
    f(hw, 4096);
    return f;
}

}  // namespace

int run_bench(const std::vector<std::string>& args) {
    BenchArgs a;
    const po::options_description desc = bench_options(a);
    if (!parse_options(args, desc)) return 0;
    const Workload w = load_bench_workload(a);
    const std::vector<const WorkloadLayer*> selected = select_layers(w, a.layers);
    check_backend_and_timeline(a, selected);
    check_outputs(a);
    const HwParams hw = derive_params(a.hw.empty() ? default_hw_config() : load_hw_config(a.hw));
    std::vector<BenchRow> results = plan_layers(w, selected, hw);
    ProgressLine progress("bench", "layer", std::cerr, ProgressLine::stderr_is_terminal());
    VerilatorOptions options;
    options.max_cycles = parse_max_cycles(a.max_cycles);
    options.on_cycles = [&progress](uint64_t c) { progress.run_cycles(c); };
    const DeviceFactory factory = checked_factory(a.backend, options, hw);

    auto timeline = std::make_shared<ActivityTimeline>();
    int64_t predicted = 0, cycles_done = 0;
    for (const BenchRow& r : results) predicted += r.plan.predicted_cycles;
    for (size_t i = 0; i < results.size(); ++i) {
        BenchRow& r = results[i];
        progress.step({static_cast<int64_t>(i + 1), static_cast<int64_t>(results.size()),
                       r.spec->name + " " + describe(*r.spec), cycles_done, predicted});
        if (!a.timeline.empty() && r.spec->name == a.timeline[0]) {
            VerilatorOptions recording = options;
            recording.activity = timeline;
            run_layer(w, a, hw, backend_factory(a.backend, recording), r);
        } else {
            run_layer(w, a, hw, factory, r);
        }
        cycles_done += static_cast<int64_t>(r.counters.cycles);
    }
    progress.clear();
    fmt::print("workload {} on {} (hw {}), {} layer(s)\n\n", w.name, a.backend, hw.config.name,
               results.size());
    print_table(results, a.backend == "verilator", a.check);
    if (a.check) print_check(results);
    std::fflush(stdout);
    // The JSON and the timeline appear together or not at all.
    std::string json, timeline_text;
    std::vector<std::pair<std::string, std::string_view>> files;
    if (!a.json.empty()) {
        Json list = Json::array();
        for (const BenchRow& r : results) list.push_back(r.report);
        json = list.dump(2) + "\n";
        files.emplace_back(a.json, json);
    }
    if (!a.timeline.empty()) {
        for (const BenchRow& r : results) {
            if (r.spec->name == a.timeline[0]) {
                const std::string title = r.spec->name + " " + describe(*r.spec);
                timeline_text = chrome_trace(title, hw, *timeline, r.counters).dump() + "\n";
                files.emplace_back(a.timeline[1], timeline_text);
            }
        }
    }
    if (!files.empty()) write_files_atomic(files);
    bool exact = true;
    for (const BenchRow& r : results) exact = exact && r.exact.value_or(true);
    return exact ? 0 : 1;
}

}  // namespace accel::cli
