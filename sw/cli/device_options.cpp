#include "device_options.hpp"

#include <optional>

#include <fmt/format.h>

#include "base/error.hpp"
#include "cli_util.hpp"

namespace accel::cli {
namespace {

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

VerilatorOptions trace_and_fault_options(const std::string& trace, const std::string& trace_window,
                                         const std::string& faults, const std::string& backend) {
    VerilatorOptions options;
    options.trace_path = trace;
    set_trace_window(trace_window, trace, options);
    if (!faults.empty()) options.faults = parse_faults_option(faults, backend);
    return options;
}

std::string device_backend(const std::string& spec) {
    try {
        return backend_name(board_choice(spec).backend);
    } catch (const Error& e) {  // the library names no option: the CLI does
        throw Error(std::string("--device ") + e.what());
    }
}

void resolve_backend(std::string& backend, const std::string& device, bool check, bool trace) {
    if (!device.empty()) {
        if (!backend.empty()) throw Error("--device: runs on a board; do not also give --backend");
        backend = device_backend(device);
        if (trace) throw Error("--trace: only the verilator backend writes waveforms");
        return;
    }
    if (backend.empty()) backend = "verilator";
    check_backend_choice(backend, check, trace);
}

DeviceFactory board_factory(const std::string& spec) {
    device_backend(spec);  // malformed: an error naming --device
    const DeviceChoice board = board_choice(spec);
    const DeviceFactory f = device_factory(board);
    return [f, rest = board.port, uart = board.backend == Backend::Uart](const HwParams& hw,
                                                                          uint64_t bytes) {
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
