// Where a layer or a model runs: the golden reference on the host, the functional
// simulator, the RTL in Verilator, or the RTL on a board (docs/cli.md, --backend and
// --device). The devices a backend stands for are made by backends/device_factory.hpp.
#pragma once
#include <optional>
#include <string_view>

namespace accel {

enum class Backend { Reference, Fsim, Verilator, Uart, Zynq };

// The name reports and options give it.
constexpr const char* backend_name(Backend b) {
    switch (b) {
        case Backend::Reference: return "ref";
        case Backend::Fsim: return "fsim";
        case Backend::Verilator: return "verilator";
        case Backend::Uart: return "uart";
        case Backend::Zynq: return "zynq";
    }
    return "?";
}

// The backend of a name; none for any other.
constexpr std::optional<Backend> backend_named(std::string_view name) {
    for (Backend b : {Backend::Reference, Backend::Fsim, Backend::Verilator, Backend::Uart,
                      Backend::Zynq}) {
        if (name == backend_name(b)) return b;
    }
    return std::nullopt;
}

// A device runs the program (every backend but the reference).
constexpr bool on_device(Backend b) { return b != Backend::Reference; }

// Its cycle counts are measurements: the RTL, simulated or on a board.
constexpr bool cycle_accurate(Backend b) { return on_device(b) && b != Backend::Fsim; }

}  // namespace accel
