// One conv2d layer end to end on any backend -- the golden reference on the host, or a
// device -- and, on request, its output against the golden reference: the typed call
// under `accel conv2d`, `accel bench` and `accel.conv2d`, with no option text, output or
// JSON in between (report.hpp makes the report's JSON of a result).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/tensor.hpp"
#include "compiler/plan.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"
#include "runtime/backend.hpp"
#include "runtime/run_progress.hpp"
#include "runtime/runtime.hpp"

namespace accel {

// The output against the golden reference's.
struct LayerCheck {
    static constexpr size_t kFirst = 5;  // differences kept
    struct Difference {
        std::vector<int64_t> index;  // [n, oh, ow, k]
        int got = 0, want = 0;
    };
    int64_t outputs = 0, differing = 0;
    std::vector<Difference> first;  // the first kFirst, in output order
    bool bit_exact() const { return differing == 0; }
};

// "y[N,OH,OW,K]: device GOT, reference WANT", as every check message names one.
std::string describe(const LayerCheck::Difference& d);

struct LayerResult {
    TensorI8 y;
    Backend backend = Backend::Reference;
    std::optional<Conv2dRun> device;  // on a device: its plan, counters and instructions
    double seconds = 0;               // wall time of the device's run, or of the reference
    std::optional<LayerCheck> check;  // when asked for
};

struct LayerRunOptions {
    bool check = false;                // compare the output with the golden reference
    const Conv2dPlan* plan = nullptr;  // a device's plan; null: plan_conv2d's
    ProgressSink progress;             // hears when the device run starts
};

// Runs `layer` (validated) on `backend`: the golden reference, or a device from
// `make_device` (unused for the reference). Throws accel::Error for a layer the device
// cannot take and accel::DeviceError when the device fails, as run_conv2d does; a check
// that finds differences is a result, not an exception.
LayerResult run_layer(const Conv2dLayer& layer, const TensorI8& x, const TensorI8& w,
                      const std::vector<int32_t>& bias, const HwParams& hw, Backend backend,
                      const DeviceFactory& make_device, const LayerRunOptions& options = {});

}  // namespace accel
