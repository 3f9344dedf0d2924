#include "device_options.hpp"

#include <optional>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel::cli {
namespace {

constexpr const char* kUartPrefix = "uart:";
constexpr const char* kZynqPrefix = "zynq:";

bool starts_with(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

}  // namespace

DeviceFactory backend_factory(const std::string& backend, const VerilatorOptions& options) {
    const std::optional<Backend> b = backend_named(backend);
    if (b == Backend::Fsim) return device_factory({Backend::Fsim, "", options});
    if (b == Backend::Verilator) {
        return [f = device_factory({Backend::Verilator, "", options})](const HwParams& hw,
                                                                        uint64_t bytes) {
            try {
                return f(hw, bytes);
            } catch (const Error& e) {  // the library names no option: the CLI does
                throw Error(std::string("--backend verilator: ") + e.what());
            }
        };
    }
    throw Error(fmt::format("--backend {}: unknown; expected verilator, fsim or ref", backend));
}

sim::DramFaultPlan parse_faults_option(const std::string& spec, const std::string& backend) {
    if (backend != "verilator") {
        throw Error("--faults: only the verilator backend injects DRAM faults");
    }
    try {
        return sim::parse_dram_fault_plan(spec);
    } catch (const Error& e) {
        throw Error(std::string("--faults: ") + e.what());
    }
}

std::string device_backend(const std::string& spec) {
    if (starts_with(spec, kUartPrefix)) {
        if (spec.size() == std::char_traits<char>::length(kUartPrefix)) {
            throw Error(fmt::format("--device {}: names no serial port (uart:/dev/ttyUSB0)", spec));
        }
        return "uart";
    }
    if (starts_with(spec, kZynqPrefix)) {
        const std::string rest = spec.substr(std::char_traits<char>::length(kZynqPrefix));
        const size_t comma = rest.find(',');
        if (comma == std::string::npos || comma == 0 || comma + 1 == rest.size()) {
            throw Error(fmt::format("--device {}: expected zynq:UIO,UDMABUF "
                                    "(zynq:/dev/uio0,/dev/udmabuf0)", spec));
        }
        return "zynq";
    }
    throw Error(fmt::format("--device {}: unknown; expected {}", spec, kDeviceSpecs));
}

DeviceFactory board_factory(const std::string& spec) {
    const std::string backend = device_backend(spec);
    const std::string rest = spec.substr(backend.size() + 1);
    const bool uart = backend == "uart";
    const DeviceFactory f =
        device_factory({uart ? Backend::Uart : Backend::Zynq, rest, VerilatorOptions{}});
    return [f, rest, uart](const HwParams& hw, uint64_t bytes) {
        try {
            return f(hw, bytes);
        } catch (const Error& e) {  // name the option (and the spec, unless it is named)
            const std::string what = e.what();
            if (uart || starts_with(what, kZynqPrefix)) throw Error("--device " + what);
            throw Error(fmt::format("--device zynq:{}: {}", rest, what));
        }
    };
}

}  // namespace accel::cli
