// accel.run_tflite: a whole int8 TFLite model through the runtime (runtime/model_file.hpp,
// model_inputs.hpp, network_runner.hpp), with numpy arrays for the model's inputs and
// outputs.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "base/error.hpp"
#include "reference/value.hpp"
#include "ops/match.hpp"
#include "runtime/model_file.hpp"
#include "runtime/model_inputs.hpp"
#include "runtime/network_runner.hpp"
#include "runtime/report.hpp"
#include "bindings.hpp"
#include "numpy_tensors.hpp"

namespace accel::python {

namespace {

using reference::Value;

py::object numpy_from_value(const Value& v) {
    return v.type == graph::DType::Float32 ? py::object(numpy_from_tensor(v.as_f32()))
                                           : py::object(numpy_from_tensor(v.as_i8()));
}

// inputs=: one array per model input, each of the dtype it takes (int8, or float32 for a
// model that quantizes its own input); none: the random draw of `seed`.
std::vector<Value> given_inputs(const std::optional<py::list>& arrays, const graph::Model& m,
                                uint64_t seed) {
    if (!arrays) return model_inputs(m, seed);
    if (arrays->size() != m.inputs.size()) {
        throw Error(fmt::format("inputs: the model has {} inputs, {} given", m.inputs.size(),
                                arrays->size()));
    }
    const GivenInputs given{
        [&arrays](size_t i, const graph::TensorDesc& d) {
            const py::array a = py::array::ensure((*arrays)[i]);
            const std::string name = fmt::format("inputs[{}]", i);
            return d.type == graph::DType::Float32
                       ? Value::of(tensor_from_numpy<float>(a, name, "float32"))
                       : Value::of(tensor_from_numpy<int8_t>(a, name, "int8"));
        },
        [](size_t i) { return fmt::format("inputs[{}]", i); }};
    return model_inputs(m, seed, &given);
}

// Returns (the model's outputs, the report, the check's failure or None).
py::tuple run_tflite(const std::string& path, const std::optional<py::list>& arrays,
                     uint64_t seed, int64_t inferences, const std::string& match,
                     const py::dict& run_options, const py::object& hw_arg) {
    const Match matched = parse_match(match, "match");  // before anything is read
    const RunChoice run = run_choice(run_options);
    const auto start = std::chrono::steady_clock::now();
    const HwParams hw = hw_params_of(hw_arg);
    const graph::Model model = read_model(path);
    const std::vector<Value> inputs = given_inputs(arrays, model, seed);
    const Backend backend = run.device.backend;
    RunOptions options;
    options.inferences = inferences;
    options.check = run.check;
    options.match = matched;
    const NetworkRun result = without_gil(
        [&] { return run_model(model, hw, backend, run.devices, inputs, options); });
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    py::list outputs;
    for (const Value& v : result.outputs) outputs.append(numpy_from_value(v));
    py::object failure = py::none();
    if (result.mismatch) failure = py::str("check: " + describe(*result.mismatch, model));
    return py::make_tuple(outputs,
                          to_python(network_report(path, backend, hw, result, run.check, wall)),
                          failure);
}

}  // namespace

void bind_network(py::module_& m) {
    m.def("run_tflite", &run_tflite, py::arg("path"), py::arg("inputs"), py::arg("seed"),
          py::arg("inferences"), py::arg("match"), py::arg("run"), py::arg("hw"));
}

}  // namespace accel::python
