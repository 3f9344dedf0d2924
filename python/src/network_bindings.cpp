// accel.run_tflite: a whole int8 TFLite model through the same steps as `accel run`
// (sw/cli/run_command.hpp), with numpy arrays for the model's inputs and outputs.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "network/value.hpp"
#include "bindings.hpp"
#include "numpy_tensors.hpp"
#include "run_command.hpp"

namespace accel::python {

namespace {

using network::Value;

// The arrays of inputs=, each of the dtype its model input takes (int8, or float32 for a
// model that quantizes its own input); run_command checks the count and the shapes.
std::vector<Value> given_inputs(const std::optional<py::list>& arrays, const graph::Model& m) {
    std::vector<Value> given;
    if (!arrays) return given;
    for (size_t i = 0; i < arrays->size(); ++i) {
        const py::array a = py::array::ensure((*arrays)[i]);
        const std::string name = fmt::format("inputs[{}]", i);
        const bool is_float = i < m.inputs.size() &&
                              m.tensor(m.inputs[i]).type == graph::DType::Float32;
        given.push_back(is_float ? Value::of(tensor_from_numpy<float>(a, name, "float32"))
                                 : Value::of(tensor_from_numpy<int8_t>(a, name, "int8")));
    }
    return given;
}

py::object numpy_from_value(const Value& v) {
    return v.type == graph::DType::Float32 ? py::object(numpy_from_tensor(v.as_f32()))
                                           : py::object(numpy_from_tensor(v.as_i8()));
}

// Returns (the model's outputs, the report JSON text of `accel run --report`).
py::tuple run_tflite(const std::string& path, const std::optional<py::list>& inputs,
                     const py::dict& options, const py::object& hw_arg, bool check) {
    cli::RunArgs a;
    a.model = path;
    if (const std::string backend = option_text(options, "backend"); !backend.empty()) {
        a.backend = backend;
    }
    if (const std::string seed = option_text(options, "seed"); !seed.empty()) a.seed = seed;
    a.trace = option_text(options, "trace");
    a.trace_window = option_text(options, "trace_window");
    a.check = check;
    cli::check_args(a);
    const auto start = std::chrono::steady_clock::now();
    const HwParams hw = hw_params_of(hw_arg);
    const graph::Model model = cli::read_model(a.model);
    const std::vector<Value> model_inputs = cli::model_inputs(a, model, given_inputs(inputs, model));
    RunOptions run_options;
    run_options.check = a.check;
    std::optional<NetworkRun> run;
    {
        py::gil_scoped_release simulating;
        run = cli::run_model(a, model, hw, model_inputs, run_options);
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    py::list outputs;
    for (const Value& v : run->outputs) outputs.append(numpy_from_value(v));
    return py::make_tuple(outputs, cli::network_report(a, hw, *run, wall).dump());
}

}  // namespace

void bind_network(py::module_& m) {
    m.def("run_tflite", &run_tflite, py::arg("path"), py::arg("inputs"), py::arg("options"),
          py::arg("hw"), py::arg("check"));
}

}  // namespace accel::python
