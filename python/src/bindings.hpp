// The parts of the extension module accel._accel (python/accel/__init__.py is its
// front): each binds its functions into the module, calling the runtime's typed API
// (runtime/layer_run.hpp, runtime/network_runner.hpp) with numpy arrays in and arrays
// and dicts out.
#pragma once
#include <string>

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include "backends/device_factory.hpp"
#include "hw/hw_params.hpp"
#include "runtime/backend.hpp"

namespace accel::python {

namespace py = pybind11;

// hw= of every function: an HwConfig, the name of a shipped config (configs/hw/), or the
// path of a config YAML.
HwParams hw_params_of(const py::object& hw);

// A report as Python values: dicts, lists, numbers, strings, None.
py::object to_python(const nlohmann::json& j);
py::object to_python(const nlohmann::ordered_json& j);

// The run options every function takes: backend= ("verilator", "fsim", "ref"), or
// device= (a board, "uart:PATH[@BAUD]" or "zynq:UIO,UDMABUF"), check=, trace= and
// trace_window=, into a backend and the device it stands for; accel::Error naming the
// argument at fault.
struct RunChoice {
    DeviceChoice device;    // its backend: the enum the runtime takes
    DeviceFactory devices;  // device_factory(device); none for the reference
    bool check = false;
};
RunChoice run_choice(const py::dict& run);

// f() with the GIL released: a device run takes seconds, other Python threads go on.
template <typename F>
auto without_gil(F&& f) {
    py::gil_scoped_release running;
    return f();
}

void bind_layer(py::module_& m);    // conv2d, plan
void bind_network(py::module_& m);  // run_tflite
void bind_explore(py::module_& m);  // explore

}  // namespace accel::python
