// The table of Verilated models compiled into this build, one per hardware config.
#pragma once
#include <cstdint>
#include <memory>

#include "devices/device.hpp"
#include "verilator_device.hpp"

namespace accel::detail {

struct CompiledModel {
    const char* config_name;  // the config of configs/hw/ it was generated from
    std::unique_ptr<Device> (*make)(const HwParams&, uint64_t, const VerilatorOptions&);
};

}  // namespace accel::detail
