// make fpga-sim (docs/fpga.md, "The synthesized netlist, simulated"): the Verilated
// ECP5 netlist of accel_top runs random conv2d layers and a small network through the
// host's own runtime, planner and DRAM model, each output against the golden reference,
// once per seed of random initial state: every flip-flop, read latch and RAM word of
// the netlist starts random (Verilator --x-initial unique), so that an output that
// depends on uninitialised state differs between seeds or from the reference. Each run
// is also compared, counter by counter, with the RTL model of the same config, when the
// build has one: the netlist is the same design, cycle for cycle.
//
//   netlist_sim --config NAME [--seeds 1,2] [--layers N] [--layer-seed S] [--model F.tflite]
//
// Prints one line per layer and network and a summary. Exit 0: everything bit-exact and
// equal to the RTL; 1: a mismatch, a device error or a counter that differs; 2: bad usage.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/error.hpp"
#include "compiler/planner.hpp"
#include "formats/tflite_reader.hpp"
#include "hw/hw_params.hpp"
#include "netlist_device.hpp"
#include "network/network_plan.hpp"
#include "ops/reference.hpp"
#include "random_layer.hpp"
#include "runtime/network_runner.hpp"
#include "runtime/runtime.hpp"
#include "verilator_device.hpp"

namespace accel::netlist_sim {
namespace {

struct Args {
    std::string config;
    std::vector<uint32_t> seeds = {1, 2};
    uint32_t layers = 8;
    uint32_t layer_seed = 1;
    std::string model;  // a .tflite network; none: layers only
};

// A random layer of random_layer's whole mix (kernels, strides, dilations, padding, zero
// points, batches; the soak's limits) that the planner predicts to take at most
// kMaxLayerCycles: seconds of netlist simulation, not hours.
constexpr int64_t kMaxLayerCycles = 40000;
testing::LayerCase netlist_layer(std::mt19937& rng, const HwParams& hw) {
    while (true) {
        testing::LayerCase c = testing::random_layer(rng, testing::LayerLimits{});
        if (plan_conv2d(c.layer, hw).predicted_cycles <= kMaxLayerCycles) return c;
    }
}

struct Tally {
    uint64_t layers = 0, networks = 0, elements = 0, mismatches = 0, failures = 0;
    uint64_t cycles = 0;
    double seconds = 0;  // wall time in Device::run
};

// A hang must end the run within seconds of simulation, not after a million idle cycles.
VerilatorOptions device_options(uint32_t init_seed) {
    VerilatorOptions o;
    o.watchdog_cycles = 100000;
    o.random_init_seed = init_seed;
    return o;
}

// Every device a seed's runs create starts from its own random state.
DeviceFactory netlist_factory(uint32_t seed) {
    auto devices = std::make_shared<uint32_t>(0);
    return [seed, devices](const HwParams& hw, uint64_t bytes) {
        return make_netlist_device(hw, bytes, device_options(seed * 1000003u + ++*devices));
    };
}

// The RTL model of the config, for the counter comparison; none when the build did not
// Verilate the config (ACCEL_HW_CONFIGS).
std::optional<DeviceFactory> rtl_factory(const HwParams& hw) {
    try {
        make_verilator_device(hw, 4096, device_options(0));
    } catch (const Error& e) {
        std::printf("note: no RTL model of this config in the build, so no counter comparison "
                    "(%s)\n", e.what());
        return std::nullopt;
    }
    return DeviceFactory([](const HwParams& h, uint64_t bytes) {
        return make_verilator_device(h, bytes, device_options(0));
    });
}

// How a run compares with the same run on the RTL model.
struct AgainstRtl {
    bool differs = false;
    std::string text = "no RTL model";
};

// The first counter in which the netlist and the RTL differ, or "".
std::string counter_difference(const DeviceCounters& n, const DeviceCounters& r) {
    const struct {
        const char* name;
        uint64_t netlist, rtl;
    } fields[] = {
        {"errors", n.errors, r.errors},           {"load_insns", n.load_insns, r.load_insns},
        {"gemm_insns", n.gemm_insns, r.gemm_insns}, {"drain_insns", n.drain_insns, r.drain_insns},
        {"gemm_steps", n.gemm_steps, r.gemm_steps}, {"load_bytes", n.load_bytes, r.load_bytes},
        {"drain_bytes", n.drain_bytes, r.drain_bytes}, {"cycles", n.cycles, r.cycles},
        {"fetch_bytes", n.fetch_bytes, r.fetch_bytes}, {"load_busy", n.load_busy, r.load_busy},
        {"gemm_busy", n.gemm_busy, r.gemm_busy},   {"drain_busy", n.drain_busy, r.drain_busy},
        {"load_wait", n.load_wait, r.load_wait},   {"gemm_wait", n.gemm_wait, r.gemm_wait},
        {"drain_wait", n.drain_wait, r.drain_wait},
    };
    for (const auto& f : fields) {
        if (f.netlist != f.rtl) return fmt::format("{} {} (RTL {})", f.name, f.netlist, f.rtl);
    }
    return "";
}

std::string describe(const Conv2dLayer& l) {
    const Conv2dShape& s = l.shape;
    const Conv2dParams& p = l.params;
    return fmt::format("{}x{}x{}x{}->{} {}x{}/{},{} dil {},{}", s.n, s.h, s.w, s.c, s.k, s.r, s.s,
                       p.stride_h, p.stride_w, p.dilation_h, p.dilation_w);
}

double rate(uint64_t cycles, double seconds) { return seconds > 0 ? cycles / seconds : 0; }

void run_layer(const HwParams& hw, const testing::LayerCase& c, const DeviceFactory& netlist,
               const std::optional<DeviceFactory>& rtl, const std::string& what, Tally& t) {
    ++t.layers;
    const Conv2dPlan plan = plan_conv2d(c.layer, hw);
    Conv2dRun run;
    try {
        run = run_conv2d(netlist, hw, c.layer, plan, c.x, c.w, c.bias);
    } catch (const DeviceError& e) {
        ++t.failures;
        std::printf("FAILED %s %s: %s\n", what.c_str(), describe(c.layer).c_str(), e.what());
        return;
    }
    const TensorI8 want = conv2d_reference(c.layer, c.x, c.w, c.bias);
    uint64_t differ = 0;
    for (size_t i = 0; i < want.size(); ++i) differ += run.y.data[i] != want.data[i];
    t.elements += want.size();
    t.mismatches += differ;
    t.cycles += run.counters.cycles;
    t.seconds += run.device_seconds;
    AgainstRtl vs;
    if (rtl) {
        const Conv2dRun r = run_conv2d(*rtl, hw, c.layer, plan, c.x, c.w, c.bias);
        const std::string d = counter_difference(run.counters, r.counters);
        vs = d.empty() ? AgainstRtl{false, "counters = RTL"} : AgainstRtl{true, "counters differ: " + d};
    }
    t.failures += vs.differs;
    std::printf("%s %s %s: %zu outputs, %llu differ; %llu cycles, %s; %.1f s (%.0f cycles/s)\n",
                differ == 0 && !vs.differs ? "ok    " : "FAILED", what.c_str(),
                describe(c.layer).c_str(), want.size(), static_cast<unsigned long long>(differ),
                static_cast<unsigned long long>(run.counters.cycles), vs.text.c_str(),
                run.device_seconds, rate(run.counters.cycles, run.device_seconds));
    std::fflush(stdout);
}

// Random inputs of the model's shapes: int8, or float32 in [-1, 1) for a model that
// quantizes its own input.
std::vector<reference::Value> random_inputs(const graph::Model& m, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<reference::Value> out;
    for (const int index : m.inputs) {
        const graph::TensorDesc& d = m.tensor(index);
        if (d.type == graph::DType::Float32) {
            Tensor<float> x(d.shape);
            for (float& v : x.data) v = std::uniform_real_distribution<float>(-1, 1)(rng);
            out.push_back(reference::Value::of(std::move(x)));
        } else {
            TensorI8 x(d.shape);
            std::uniform_int_distribution<int> byte(-128, 127);
            for (int8_t& v : x.data) v = static_cast<int8_t>(byte(rng));
            out.push_back(reference::Value::of(std::move(x)));
        }
    }
    return out;
}

uint64_t count_differences(const reference::Value& got, const reference::Value& want) {
    if (got.shape != want.shape || got.type != want.type) {
        return std::max(want.i8.size(), want.f32.size());
    }
    uint64_t differ = 0;
    for (size_t i = 0; i < want.i8.size(); ++i) differ += got.i8[i] != want.i8[i];
    for (size_t i = 0; i < want.f32.size(); ++i) differ += got.f32[i] != want.f32[i];
    return differ;
}

int64_t device_cycles(const NetworkRun& run) {
    int64_t cycles = 0;
    for (const OperatorRun& op : run.operators) cycles += op.cycles;
    return cycles;
}

// Every tensor a device operator writes against the golden reference (RunOptions::check)
// and the outputs against a run of the whole model on the host.
void run_network_once(const HwParams& hw, const graph::Model& model, uint32_t input_seed,
                      const DeviceFactory& netlist, const std::optional<DeviceFactory>& rtl,
                      const std::string& what, Tally& t) {
    ++t.networks;
    const network::NetworkPlan plan = network::plan_network(model, hw, true);
    const std::vector<reference::Value> inputs = random_inputs(model, input_seed);
    RunOptions check;
    check.check = true;
    NetworkRun run;
    try {
        run = run_network(model, plan, hw, &netlist, inputs, check);
    } catch (const DeviceError& e) {
        ++t.failures;
        std::printf("FAILED %s: %s\n", what.c_str(), e.what());
        return;
    }
    const NetworkRun host = run_network(model, network::plan_network(model, hw, false), hw,
                                        nullptr, inputs);
    uint64_t differ = run.mismatch ? static_cast<uint64_t>(run.mismatch->differing) : 0;
    uint64_t elements = static_cast<uint64_t>(run.elements_checked);
    for (size_t i = 0; i < host.outputs.size(); ++i) {
        differ += count_differences(run.outputs[i], host.outputs[i]);
        elements += host.outputs[i].i8.size() + host.outputs[i].f32.size();
    }
    const auto cycles = static_cast<uint64_t>(device_cycles(run));
    t.elements += elements;
    t.mismatches += differ;
    t.cycles += cycles;
    t.seconds += run.device_seconds;
    AgainstRtl vs;
    if (rtl) {  // the runner keeps each device operator's cycles
        const NetworkRun r = run_network(model, plan, hw, &*rtl, inputs);
        vs = {false, "cycles = RTL"};
        for (size_t i = 0; i < r.operators.size() && !vs.differs; ++i) {
            if (run.operators[i].cycles != r.operators[i].cycles) {
                vs = {true, fmt::format("cycles differ: operator {} {} (RTL {})", i,
                                        run.operators[i].cycles, r.operators[i].cycles)};
            }
        }
    }
    t.failures += vs.differs;
    std::string first;
    if (run.mismatch) {
        first = fmt::format(" (first: operator {} tensor {} element {}: {} vs {})",
                            run.mismatch->op, run.mismatch->tensor, run.mismatch->element,
                            run.mismatch->got, run.mismatch->want);
    }
    std::printf("%s %s: %lld tensors and the outputs, %llu elements, %llu differ%s; %llu device "
                "cycles, %s; %.1f s (%.0f cycles/s)\n",
                differ == 0 && !vs.differs ? "ok    " : "FAILED", what.c_str(),
                static_cast<long long>(run.tensors_checked),
                static_cast<unsigned long long>(elements), static_cast<unsigned long long>(differ),
                first.c_str(), static_cast<unsigned long long>(cycles), vs.text.c_str(),
                run.device_seconds, rate(cycles, run.device_seconds));
    std::fflush(stdout);
}

uint32_t parse_u32(const std::string& option, const std::string& text, uint32_t min) {
    try {
        size_t used = 0;
        const unsigned long v = std::stoul(text, &used);
        if (used == text.size() && text[0] != '-' && v >= min && v <= UINT32_MAX) {
            return static_cast<uint32_t>(v);
        }
    } catch (const std::exception&) {
    }
    throw Error(fmt::format("{} '{}': not an integer in [{}, {}]", option, text, min, UINT32_MAX));
}

Args parse_args(const std::vector<std::string>& args) {
    Args a;
    for (size_t i = 0; i < args.size(); i += 2) {
        if (i + 1 >= args.size()) throw Error(fmt::format("{}: needs a value", args[i]));
        const std::string& v = args[i + 1];
        if (args[i] == "--config") a.config = v;
        else if (args[i] == "--layers") a.layers = parse_u32("--layers", v, 0);
        else if (args[i] == "--layer-seed") a.layer_seed = parse_u32("--layer-seed", v, 0);
        else if (args[i] == "--model") a.model = v;
        else if (args[i] == "--seeds") {
            a.seeds.clear();
            size_t begin = 0;
            while (begin <= v.size()) {
                const size_t end = std::min(v.find(',', begin), v.size());
                a.seeds.push_back(parse_u32("--seeds", v.substr(begin, end - begin), 1));
                begin = end + 1;
            }
        } else throw Error(fmt::format("{}: unknown option", args[i]));
    }
    if (a.config.empty()) throw Error("--config is missing (a configs/hw name)");
    return a;
}

int run(const Args& a, const HwParams& hw) {
    const std::optional<DeviceFactory> rtl = rtl_factory(hw);
    std::optional<graph::Model> model;
    if (!a.model.empty()) model = read_tflite(a.model);
    Tally t;
    for (const uint32_t seed : a.seeds) {
        const DeviceFactory netlist = netlist_factory(seed);
        std::mt19937 rng(a.layer_seed);  // the same layers under every seed
        for (uint32_t i = 0; i < a.layers; ++i) {
            const testing::LayerCase c = netlist_layer(rng, hw);
            run_layer(hw, c, netlist, rtl, fmt::format("seed {} layer {}", seed, i), t);
        }
        if (model) {
            run_network_once(hw, *model, a.layer_seed, netlist, rtl,
                             fmt::format("seed {} network {}", seed, a.model), t);
        }
    }
    std::printf("netlist %s, %zu seeds: %llu layers and %llu networks run, %llu elements "
                "compared, %llu mismatches, %llu failures; %llu device cycles in %.1f s "
                "(%.0f simulated cycles/s)\n",
                a.config.c_str(), a.seeds.size(), static_cast<unsigned long long>(t.layers),
                static_cast<unsigned long long>(t.networks),
                static_cast<unsigned long long>(t.elements),
                static_cast<unsigned long long>(t.mismatches),
                static_cast<unsigned long long>(t.failures),
                static_cast<unsigned long long>(t.cycles), t.seconds, rate(t.cycles, t.seconds));
    return t.mismatches == 0 && t.failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace accel::netlist_sim

int main(int argc, char** argv) {
    accel::netlist_sim::Args args;
    accel::HwParams hw;
    try {
        args = accel::netlist_sim::parse_args(std::vector<std::string>(argv + 1, argv + argc));
        hw = accel::load_hw_params(std::string(ACCEL_HW_CONFIG_DIR) + "/" + args.config + ".yaml");
    } catch (const accel::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
    try {
        return accel::netlist_sim::run(args, hw);
    } catch (const std::exception& e) {  // a device error outside a run, a bad model file
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
