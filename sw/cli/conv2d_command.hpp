// The steps of `accel conv2d` that the Python package (python/) takes too: the options
// as the CLI spells them, the backend rules, and the layer with its tensors.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/tensor.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"
#include "runtime/report.hpp"
#include "runtime/run_progress.hpp"
#include "runtime/runtime.hpp"
#include "verilator_device.hpp"

namespace accel::cli {

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

// Tensors handed over in memory (the Python package) instead of read from the file
// their option names; the option's value still names the tensor in errors.
struct Conv2dTensors {
    std::optional<TensorI8> x, w;
    std::optional<TensorI32> bias, multiplier, shift;
};

struct LoadedLayer {
    Conv2dLayer layer;
    TensorI8 x, w;
    std::vector<int32_t> bias;
};

// The layer of --input and --weights with the options' geometry, zero points, clamp
// and requantization, validated; accel::Error naming the option or file at fault.
LoadedLayer load_layer(const Conv2dArgs& a, const Conv2dTensors& given = {});

// The --backend/--device/--check/--trace/--timeline rules; sets a.backend to the
// device's name (verilator when neither is given).
void check_backend(Conv2dArgs& a);

// One run of a layer: its output and what the report says of it.
struct LayerRun {
    TensorI8 y;
    Conv2dRun device;  // a device backend's run: plan and counters
    RunFacts facts;    // points into `device`, hence neither copied nor moved
    LayerRun() = default;
    LayerRun(const LayerRun&) = delete;
    LayerRun& operator=(const LayerRun&) = delete;
};

// Runs the layer on a.backend (the golden reference, or a device made with `options` or
// from a.device) and, with a.check, compares the output with the golden reference:
// how many outputs agree goes to stdout, where they differ to stderr, the verdict to
// out.facts.bit_exact. `progress` hears when the device run starts, with its plan's
// predicted cycles.
void run_layer(const Conv2dArgs& a, const HwParams& hw, const LoadedLayer& l,
               const VerilatorOptions& options, LayerRun& out,
               const ProgressSink& progress = {});

}  // namespace accel::cli
