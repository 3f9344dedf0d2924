// The parts of the extension module accel._accel (python/accel/__init__.py is its
// front): each binds its functions into the module.
#pragma once
#include <string>

#include <pybind11/pybind11.h>

#include "hw/hw_params.hpp"

namespace accel::python {

namespace py = pybind11;

// hw= of every function: an HwConfig, the name of a shipped config (configs/hw/), or the
// path of a config YAML (as the CLI's --hw).
HwParams hw_params_of(const py::object& hw);

// The option `key` of a dict of option texts ("" when absent), as the CLI would get it.
std::string option_text(const py::dict& options, const char* key);

void bind_layer(py::module_& m);    // conv2d, plan
void bind_network(py::module_& m);  // run_tflite

}  // namespace accel::python
