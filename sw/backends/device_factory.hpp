// The device a backend stands for (runtime/backend.hpp), made by the runtime once it
// knows the DRAM size: the functional simulator, the Verilator model of the config, or
// a board. The one room that links the Verilator models, for the accel CLI and the
// Python package alike.
#pragma once
#include <string>

#include "runtime/backend.hpp"
#include "runtime/runtime.hpp"
#include "verilator_device.hpp"

namespace accel {

struct DeviceChoice {
    Backend backend = Backend::Verilator;
    // Uart: the serial port, PATH[@BAUD] (115200 baud unless given); Zynq: UIO,UDMABUF
    // (docs/fpga.md).
    std::string port;
    // The Verilator device's options; max_cycles is the functional simulator's too.
    VerilatorOptions options;
};

// What a board spec (`accel conv2d --device`, accel.conv2d's device=) is, for help texts
// and errors.
constexpr const char* kBoardSpecs =
    "uart:PATH[@BAUD] (a board's UART bridge over a serial port) or zynq:UIO,UDMABUF (the "
    "accelerator in a Zynq's PL: /dev/uioN and /dev/udmabufN)";

// The board of a spec, uart:PATH[@BAUD] or zynq:UIO,UDMABUF; accel::Error "SPEC: ..."
// when it is malformed. Nothing is opened yet.
DeviceChoice board_choice(const std::string& spec);

// accel::Error for Backend::Reference, which runs no device. The factory throws what the
// device's constructor throws: accel::Error for a missing model or a port that cannot be
// opened, accel::DeviceError for a board that does not answer.
DeviceFactory device_factory(const DeviceChoice& choice);

}  // namespace accel
