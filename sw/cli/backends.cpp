#include "backends.hpp"

#include <fmt/format.h>

#include "accel/error.hpp"
#include "accel/fsim.hpp"
#include "accel/uart_device.hpp"

namespace accel::cli {
namespace {

constexpr const char* kUartPrefix = "uart:";

bool starts_with(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

}  // namespace

DeviceFactory device_factory(const std::string& backend, const VerilatorOptions& options) {
    if (backend == "fsim") {
        return [](const HwParams& hw, uint64_t bytes) -> std::unique_ptr<Device> {
            return std::make_unique<FunctionalSim>(hw, bytes);
        };
    }
    if (backend == "verilator") {
        return [options](const HwParams& hw, uint64_t bytes) {
            return make_verilator_device(hw, bytes, options);
        };
    }
    throw Error(fmt::format("--backend {}: unknown; expected verilator, fsim or ref", backend));
}

std::string device_backend(const std::string& spec) {
    if (starts_with(spec, kUartPrefix)) {
        if (spec.size() == std::char_traits<char>::length(kUartPrefix)) {
            throw Error(fmt::format("--device {}: names no serial port (uart:/dev/ttyUSB0)", spec));
        }
        return "uart";
    }
    throw Error(fmt::format("--device {}: unknown; expected {}", spec, kDeviceSpecs));
}

DeviceFactory board_device_factory(const std::string& spec) {
    const std::string backend = device_backend(spec);
    const std::string rest = spec.substr(backend.size() + 1);
    return [rest](const HwParams& hw, uint64_t bytes) {
        try {
            return make_uart_device(rest, hw, bytes, UartOptions{});
        } catch (const Error& e) {  // name the option
            throw Error(std::string("--device ") + e.what());
        }
    };
}

}  // namespace accel::cli
