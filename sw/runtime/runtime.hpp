// Runs a conv2d on a device end to end: plan, schedule, lay the tensors out in DRAM,
// run the instruction stream, read the output back.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "base/tensor.hpp"
#include "compiler/plan.hpp"
#include "compiler/scheduler.hpp"
#include "devices/device.hpp"
#include "ops/conv2d.hpp"

namespace accel {

struct Conv2dRun {
    TensorI8 y;
    Conv2dPlan plan;
    DeviceCounters counters;
    int64_t instructions = 0;
    double device_seconds = 0;  // wall time of Device::run
};

// Makes the device for a run once its DRAM size is known.
using DeviceFactory = std::function<std::unique_ptr<Device>(const HwParams&, uint64_t dram_bytes)>;

// Throws accel::DeviceError when the device reports an error (the program the
// scheduler emits never should) or stops responding.
Conv2dRun run_conv2d(const DeviceFactory& make_device, const HwParams& hw,
                     const Conv2dLayer& layer, const Conv2dPlan& plan, const TensorI8& x,
                     const TensorI8& w, const std::vector<int32_t>& bias);

}  // namespace accel
