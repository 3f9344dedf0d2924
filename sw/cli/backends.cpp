#include "backends.hpp"

#include <fmt/format.h>

#include "accel/error.hpp"
#include "accel/fsim.hpp"

namespace accel::cli {

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

}  // namespace accel::cli
