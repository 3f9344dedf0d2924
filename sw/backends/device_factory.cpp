#include "backends/device_factory.hpp"

#include "base/error.hpp"
#include "devices/fsim.hpp"
#include "devices/uart_device.hpp"
#include "devices/zynq_device.hpp"

namespace accel {

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
