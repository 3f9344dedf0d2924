// accel._accel: the kit's runtime for Python. Errors the user can cause raise
// accel.Error (a ValueError), device failures accel.DeviceError (a RuntimeError); a check
// that finds the device unlike the golden reference is returned for the front
// (python/accel/__init__.py) to raise as accel.CheckError.
#include <optional>
#include <string>

#include <fmt/format.h>
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include "backends/build_info.hpp"
#include "base/error.hpp"
#include "hw/hw_config.hpp"
#include "hw/shipped_configs.hpp"
#include "bindings.hpp"
#include "verilator_device.hpp"

namespace accel::python {

namespace {

HwConfig shipped_or_file(const std::string& name_or_path) {
    if (const char* yaml = shipped_config_yaml(name_or_path)) {
        return parse_hw_config(yaml, fmt::format("configs/hw/{}.yaml", name_or_path));
    }
    return load_hw_config(name_or_path);
}

py::list shipped_config_names() {
    py::list names;
    for (const ShippedConfig& c : shipped_configs()) names.append(c.name);
    return names;
}

void bind_hw_config(py::module_& m) {
    py::class_<HwConfig>(m, "HwConfig", "A hardware config (docs/hw-config.md).")
        .def_static("load", &load_hw_config, py::arg("path"), "Reads a config YAML file.")
        .def_static("shipped", &shipped_or_file, py::arg("name"),
                    "A config of configs/hw/ by name (or, failing that, a YAML path).")
        .def_readonly("name", &HwConfig::name)
        .def_readonly("batch", &HwConfig::batch)
        .def_readonly("block_in", &HwConfig::block_in)
        .def_readonly("block_out", &HwConfig::block_out)
        .def_readonly("input_kib", &HwConfig::input_kib)
        .def_readonly("weight_kib", &HwConfig::weight_kib)
        .def_readonly("acc_kib", &HwConfig::acc_kib)
        .def_readonly("axi_data_bits", &HwConfig::axi_data_bits)
        .def_readonly("dram_latency_cycles", &HwConfig::dram_latency_cycles)
        .def_readonly("dram_max_outstanding", &HwConfig::dram_max_outstanding)
        .def_readonly("clock_mhz", &HwConfig::clock_mhz)
        .def_property_readonly("pes", &HwConfig::pes)
        .def_property_readonly("bus_bytes_per_cycle", &HwConfig::bus_bytes_per_cycle)
        .def(py::self == py::self)
        .def("__repr__", [](const HwConfig& c) {
            return fmt::format("HwConfig(name='{}', batch={}, block_in={}, block_out={}, "
                               "input_kib={}, weight_kib={}, acc_kib={}, axi_data_bits={})",
                               c.name, c.batch, c.block_in, c.block_out, c.input_kib,
                               c.weight_kib, c.acc_kib, c.axi_data_bits);
        });
}

}  // namespace

HwParams hw_params_of(const py::object& hw) {
    if (py::isinstance<HwConfig>(hw)) return derive_params(hw.cast<HwConfig>());
    if (!py::isinstance<py::str>(hw)) {
        throw Error(fmt::format("hw: expected an HwConfig, a config name or a YAML path, got {}",
                                std::string(py::repr(hw))));
    }
    return derive_params(shipped_or_file(hw.cast<std::string>()));
}

template <typename Json>
py::object json_to_python(const Json& j) {
    switch (j.type()) {
        case nlohmann::json::value_t::null: return py::none();
        case nlohmann::json::value_t::boolean: return py::bool_(j.template get<bool>());
        case nlohmann::json::value_t::number_integer:
            return py::int_(j.template get<int64_t>());
        case nlohmann::json::value_t::number_unsigned:
            return py::int_(j.template get<uint64_t>());
        case nlohmann::json::value_t::number_float: return py::float_(j.template get<double>());
        case nlohmann::json::value_t::string: return py::str(j.template get<std::string>());
        case nlohmann::json::value_t::array: {
            py::list out;
            for (const auto& v : j) out.append(json_to_python(v));
            return out;
        }
        case nlohmann::json::value_t::object: {
            py::dict out;
            for (const auto& [k, v] : j.items()) out[py::str(k)] = json_to_python(v);
            return out;
        }
        default: return py::none();
    }
}

py::object to_python(const nlohmann::json& j) { return json_to_python(j); }
py::object to_python(const nlohmann::ordered_json& j) { return json_to_python(j); }

RunChoice run_choice(const py::dict& run) {
    RunChoice c;
    if (!run["device"].is_none()) {
        try {
            c.device = board_choice(run["device"].cast<std::string>());
        } catch (const Error& e) {
            throw Error(std::string("device ") + e.what());
        }
    } else {
        const std::string name = run["backend"].cast<std::string>();
        const std::optional<Backend> b = backend_named(name);
        if (!b || *b == Backend::Uart || *b == Backend::Zynq) {
            throw Error(fmt::format("backend '{}': expected 'verilator', 'fsim' or 'ref' (a "
                                    "board is device=)", name));
        }
        c.device.backend = *b;
    }
    const Backend backend = c.device.backend;
    c.check = run["check"].cast<bool>();
    if (c.check && !on_device(backend)) {
        throw Error("check: compares a device with the golden reference; the 'ref' backend "
                    "is the reference");
    }
    if (!run["trace"].is_none()) {
        if (backend != Backend::Verilator) {
            throw Error("trace: only the verilator backend writes waveforms");
        }
        c.device.options.trace_path = run["trace"].cast<std::string>();
    }
    if (!run["trace_window"].is_none()) {
        if (run["trace"].is_none()) throw Error("trace_window: limits a trace; give trace= too");
        const auto [from, to] = run["trace_window"].cast<std::pair<uint64_t, uint64_t>>();
        if (from >= to) {
            throw Error(fmt::format("trace_window: ({}, {}) is empty; FROM must be below TO",
                                    from, to));
        }
        c.device.options.trace_from = from;
        c.device.options.trace_to = to;
    }
    if (on_device(backend)) c.devices = device_factory(c.device);
    return c;
}

}  // namespace accel::python

PYBIND11_MODULE(_accel, m) {
    namespace py = pybind11;
    using namespace accel::python;
    m.doc() = "The int8 accelerator kit's runtime (see the accel package).";
    // The exception object lives in register_exception's own static.
    static const py::exception<accel::Error>* error =
        &py::register_exception<accel::Error>(m, "Error", PyExc_ValueError);
    // As the CLI: a failed allocation is too large an input, accel.Error, not MemoryError.
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const std::bad_alloc&) {
            PyErr_SetString(error->ptr(), accel::kOutOfMemory);
        }
    });
    py::register_exception<accel::DeviceError>(m, "DeviceError", PyExc_RuntimeError);
    m.attr("__version__") = accel::kVersion;
    m.attr("git_revision") = accel::kGitRevision;
    m.def("shipped_configs", &shipped_config_names,
          "The names of the hardware configs of configs/hw/ (hw= takes them).");
    m.def("verilator_configs", &accel::verilator_configs,
          "The hardware configs this build has Verilator models of.");
    bind_hw_config(m);
    bind_layer(m);
    bind_network(m);
    bind_explore(m);
}
