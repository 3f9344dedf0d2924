// The devices the CLI can run on, by --backend name.
#pragma once
#include <string>

#include "accel/runtime.hpp"
#include "verilator_device.hpp"

namespace accel::cli {

// "fsim" or "verilator"; accel::Error for any other name.
DeviceFactory device_factory(const std::string& backend, const VerilatorOptions& options);

}  // namespace accel::cli
