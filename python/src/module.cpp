// accel._accel: the kit's runtime for Python. Errors the user can cause raise
// accel.Error (a ValueError), device failures accel.DeviceError (a RuntimeError), each
// with the CLI's message.
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

std::string option_text(const py::dict& options, const char* key) {
    if (!options.contains(key) || options[key].is_none()) return "";
    return py::str(options[key]);
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
}
