// Google Benchmarks of the host side of the kit, on the layers of `accel bench
// --suite resnet18` with the same data: how fast the golden reference and the
// functional simulator compute a layer (MAC/s), and how long planning takes.
// Performance is measured here and by `accel bench`, never asserted in tests.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "compiler/plan.hpp"
#include "compiler/planner.hpp"
#include "devices/fsim.hpp"
#include "formats/workload.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "ops/reference.hpp"
#include "runtime/runtime.hpp"

namespace {

// Layers of three shapes: the widest 3x3 layer, a deep 3x3 layer and a 1x1 shortcut.
const char* const kLayers[] = {"C2", "C8", "C4"};

const accel::Workload& resnet18() {
    static const accel::Workload w = accel::builtin_workload("resnet18");
    return w;
}

const accel::HwParams& hw() {
    static const accel::HwParams p = accel::derive_params(accel::default_hw_config());
    return p;
}

void set_macs(benchmark::State& state, const accel::Conv2dLayer& layer) {
    state.counters["MAC/s"] = benchmark::Counter(static_cast<double>(layer.macs()),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

void reference_conv2d(benchmark::State& state, const std::string& name) {
    const accel::WorkloadCase c = accel::make_workload_case(resnet18(), *resnet18().find(name));
    for (auto _ : state) {
        accel::TensorI8 y = accel::conv2d_reference(c.layer, c.x, c.w, c.bias);
        benchmark::DoNotOptimize(y.data.data());
    }
    set_macs(state, c.layer);
}

// The whole device path on fsim: schedule, DRAM image, run, read back.
void fsim_conv2d(benchmark::State& state, const std::string& name) {
    const accel::WorkloadCase c = accel::make_workload_case(resnet18(), *resnet18().find(name));
    const accel::Conv2dPlan plan = accel::plan_conv2d(c.layer, hw());
    const accel::DeviceFactory fsim = [](const accel::HwParams& p, uint64_t bytes) {
        return std::unique_ptr<accel::Device>(std::make_unique<accel::FunctionalSim>(p, bytes));
    };
    for (auto _ : state) {
        accel::Conv2dRun run = accel::run_conv2d(fsim, hw(), c.layer, plan, c.x, c.w, c.bias);
        benchmark::DoNotOptimize(run.y.data.data());
    }
    set_macs(state, c.layer);
}

void plan_suite(benchmark::State& state) {
    std::vector<accel::Conv2dLayer> layers;
    for (const accel::WorkloadLayer& l : resnet18().layers) {
        layers.push_back(accel::workload_conv2d(resnet18(), l));
    }
    for (auto _ : state) {
        for (const accel::Conv2dLayer& l : layers) {
            accel::Conv2dPlan p = accel::plan_conv2d(l, hw());
            benchmark::DoNotOptimize(p.predicted_cycles);
        }
    }
    state.counters["layers/s"] = benchmark::Counter(static_cast<double>(layers.size()),
                                                    benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

int main(int argc, char** argv) {
    for (const char* layer : kLayers) {
        benchmark::RegisterBenchmark((std::string("reference_conv2d/") + layer).c_str(),
                                     reference_conv2d, std::string(layer))
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((std::string("fsim_conv2d/") + layer).c_str(), fsim_conv2d,
                                     std::string(layer))
            ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark("plan_conv2d/resnet18", plan_suite)
        ->Unit(benchmark::kMicrosecond);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
