#include "backends/device_factory.hpp"

#include <string_view>

#include <fmt/format.h>

#include "base/error.hpp"
#include "devices/fsim.hpp"
#include "devices/uart_device.hpp"
#include "devices/zynq_device.hpp"

namespace accel {

DeviceChoice board_choice(const std::string& spec) {
    constexpr std::string_view kUart = "uart:", kZynq = "zynq:";
    const std::string_view s = spec;
    if (s.substr(0, kUart.size()) == kUart) {
        if (s.size() == kUart.size()) {
            throw Error(fmt::format("{}: names no serial port (uart:/dev/ttyUSB0)", spec));
        }
        return {Backend::Uart, spec.substr(kUart.size()), {}};
    }
    if (s.substr(0, kZynq.size()) == kZynq) {
        const std::string rest = spec.substr(kZynq.size());
        const size_t comma = rest.find(',');
        if (comma == std::string::npos || comma == 0 || comma + 1 == rest.size()) {
            throw Error(fmt::format("{}: expected zynq:UIO,UDMABUF (zynq:/dev/uio0,/dev/udmabuf0)",
                                    spec));
        }
        return {Backend::Zynq, rest, {}};
    }
    throw Error(fmt::format("{}: unknown; expected {}", spec, kBoardSpecs));
}

DeviceFactory device_factory(const DeviceChoice& choice) {
    switch (choice.backend) {
        case Backend::Fsim:
            return [max_cycles = choice.options.max_cycles](
                       const HwParams& hw, uint64_t bytes) -> std::unique_ptr<Device> {
                auto sim = std::make_unique<FunctionalSim>(hw, bytes);
                sim->set_max_cycles(max_cycles);  // the budget holds on every backend
                return sim;
            };
        case Backend::Verilator:
            return [options = choice.options](const HwParams& hw, uint64_t bytes) {
                return make_verilator_device(hw, bytes, options);
            };
        case Backend::Uart:
            return [port = choice.port](const HwParams& hw, uint64_t bytes) {
                return make_uart_device(port, hw, bytes, UartOptions{});
            };
        case Backend::Zynq:
            return [port = choice.port](const HwParams& hw, uint64_t bytes) {
                return make_zynq_device(port, hw, bytes);
            };
        case Backend::Reference: break;
    }
    throw Error("the reference backend runs on the host: it has no device");
}

}  // namespace accel
