// The synthesized netlist of accel_top as a Device: the Verilator device of the RTL
// (verilator/verilator_device_impl.hpp) over the Verilated netlist instead of the
// Verilated RTL, so the same reset, CSR driver, DRAM model and watchdog drive it.
#pragma once
#include <cstdint>
#include <memory>

#include "devices/device.hpp"
#include "verilator_device.hpp"

namespace accel::netlist_sim {

// The netlist was synthesized for one hardware config; the device checks its CSRs
// against `params` at reset (a netlist of another config is a DeviceError).
std::unique_ptr<Device> make_netlist_device(const HwParams& params, uint64_t dram_bytes,
                                            const VerilatorOptions& options);

}  // namespace accel::netlist_sim
