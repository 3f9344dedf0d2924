// The CLI's --backend, --device and --faults into the device that runs
// (backends/device_factory.hpp), with errors that name the option at fault.
#pragma once
#include <string>

#include "backends/device_factory.hpp"
#include "runtime/runtime.hpp"
#include "verilator_device.hpp"

namespace accel::cli {

// --backend fsim or verilator (with `options`); accel::Error for any other name. Errors
// of the Verilator device name --backend verilator.
DeviceFactory backend_factory(const std::string& backend, const VerilatorOptions& options);

constexpr const char* kFaultsHelp =
    "inject DRAM faults (verilator backend): SPEC such as seed=1,stall=0.01,slverr=read:3 "
    "(docs/cli.md)";

// The DRAM fault plan of a --faults SPEC (verilator/dram_faults.hpp) for `backend`;
// accel::Error naming --faults when the SPEC is malformed or the backend is not verilator.
sim::DramFaultPlan parse_faults_option(const std::string& spec, const std::string& backend);

// The Verilator device options of --trace, --trace-window (set_trace_window) and --faults
// (parse_faults_option, for `backend`), which every command that runs programs reads the
// same way; errors name the option.
VerilatorOptions trace_and_fault_options(const std::string& trace, const std::string& trace_window,
                                         const std::string& faults, const std::string& backend);

// The backend name a --device spec stands for ("uart", "zynq"); accel::Error naming --device
// when the spec is malformed (board_choice). Nothing is opened yet.
std::string device_backend(const std::string& spec);

// The --backend/--device/--check/--trace rules run and conv2d share: --device and
// --backend exclude each other, a board takes no --trace, and the backend (verilator
// when neither is given) takes --check and --trace as check_backend_choice says. Sets
// `backend` to the device's name (device_backend) when --device is given.
void resolve_backend(std::string& backend, const std::string& device, bool check, bool trace);

// The board device of a --device spec. The port is opened when the factory runs: a
// path that cannot be opened is an accel::Error, a board that does not answer an
// accel::DeviceError, each naming --device.
DeviceFactory board_factory(const std::string& spec);

}  // namespace accel::cli
