// The table of Verilated models compiled into this build, one per hardware config.
#pragma once
#include <cstdint>
#include <memory>

#include "devices/device.hpp"
#include "verilator_device.hpp"

namespace accel::detail {

struct CompiledModel {
    const char* config_name;
    const char* config_yaml;  // the config it was generated from
    std::unique_ptr<Device> (*make)(const HwParams&, uint64_t, const VerilatorOptions&);
};

}  // namespace accel::detail
