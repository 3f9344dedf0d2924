// The options of `accel conv2d` as the CLI spells them, the backend rules, and the layer
// they describe with its tensors (conv2d_command.cpp runs it).
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

struct LoadedLayer {
    Conv2dLayer layer;
    TensorI8 x, w;
    std::vector<int32_t> bias;
};

// The layer of --input and --weights with the options' geometry, zero points, clamp
// and requantization, validated; accel::Error naming the option or file at fault.
LoadedLayer load_layer(const Conv2dArgs& a);

// The --backend/--device/--check/--trace/--timeline rules; sets a.backend to the
// device's name (verilator when neither is given).
void check_backend(Conv2dArgs& a);

}  // namespace accel::cli
