// accel.conv2d and accel.plan: one layer, through the same steps as `accel conv2d` and
// `accel plan` (sw/cli/conv2d_command.hpp, plan_command.hpp), with numpy arrays where
// the CLI reads .npy files. The option texts come from python/accel/__init__.py.
#include <optional>
#include <string>

#include <pybind11/stl.h>

#include "compiler/planner.hpp"
#include "runtime/report.hpp"
#include "bindings.hpp"
#include "cli_util.hpp"
#include "conv2d_command.hpp"
#include "numpy_tensors.hpp"
#include "plan_command.hpp"

namespace accel::python {

namespace {

// The names the arguments go by in errors, where the CLI names the files.
cli::Conv2dArgs conv2d_args(const py::dict& o, bool has_bias, bool check) {
    cli::Conv2dArgs a;
    a.input = "x";
    a.weights = "w";
    a.bias = has_bias ? "bias" : "";
    for (auto [key, field] : {std::pair{"stride", &a.stride}, {"pad", &a.pad},
                              {"dilation", &a.dilation}, {"input_zero_point", &a.input_zp},
                              {"output_zero_point", &a.output_zp}}) {
        if (const std::string t = option_text(o, key); !t.empty()) *field = t;
    }
    a.scale = option_text(o, "scale");
    a.multiplier = option_text(o, "multiplier");
    a.shift = option_text(o, "shift");
    a.act_min = option_text(o, "act_min");
    a.act_max = option_text(o, "act_max");
    a.backend = option_text(o, "backend");
    a.device = option_text(o, "device");
    a.trace = option_text(o, "trace");
    a.trace_window = option_text(o, "trace_window");
    a.relu = o.contains("relu") && o["relu"].cast<bool>();
    a.check = check;
    return a;
}

std::optional<TensorI32> per_channel(const std::optional<py::array>& a, const char* name) {
    if (!a) return std::nullopt;
    return tensor_from_numpy<int32_t>(*a, name, "int32");
}

// Returns (y, report JSON text): the CLI's output and its --report.
py::tuple conv2d(const py::array& x, const py::array& w, const std::optional<py::array>& bias,
                 const std::optional<py::array>& multiplier,
                 const std::optional<py::array>& shift, const py::dict& options,
                 const py::object& hw_arg, bool check) {
    cli::Conv2dArgs a = conv2d_args(options, bias.has_value(), check);
    cli::Conv2dTensors given;
    given.x = tensor_from_numpy<int8_t>(x, "x", "int8");
    given.w = tensor_from_numpy<int8_t>(w, "w", "int8");
    given.bias = per_channel(bias, "bias");
    given.multiplier = per_channel(multiplier, "multiplier");
    given.shift = per_channel(shift, "shift");
    cli::check_output_paths({{"--trace", a.trace}}, {});
    cli::check_backend(a);
    VerilatorOptions device_options;
    device_options.trace_path = a.trace;
    cli::set_trace_window(a.trace_window, a.trace, device_options);
    const HwParams hw = hw_params_of(hw_arg);
    const cli::LoadedLayer l = cli::load_layer(a, given);
    cli::LayerRun run;
    {
        py::gil_scoped_release simulating;
        cli::run_layer(a, hw, l, device_options, run);
    }
    return py::make_tuple(numpy_from_tensor(run.y),
                          conv2d_report(l.layer, hw, run.facts).dump());
}

// The plan's JSON text, as `accel plan --json` writes it.
std::string plan(const py::dict& o, const py::object& hw_arg) {
    cli::PlanArgs a;
    a.shape = option_text(o, "shape");
    a.kernel = option_text(o, "kernel");
    a.out_channels = option_text(o, "out_channels");
    for (auto [key, field] :
         {std::pair{"stride", &a.stride}, {"pad", &a.pad}, {"dilation", &a.dilation}}) {
        if (const std::string t = option_text(o, key); !t.empty()) *field = t;
    }
    const HwParams hw = hw_params_of(hw_arg);
    const Conv2dLayer layer = cli::plan_layer(a);
    return cli::plan_document(layer, hw, plan_conv2d(layer, hw)).dump();
}

}  // namespace

void bind_layer(py::module_& m) {
    m.def("conv2d", &conv2d, py::arg("x"), py::arg("w"), py::arg("bias"), py::arg("multiplier"),
          py::arg("shift"), py::arg("options"), py::arg("hw"), py::arg("check"));
    m.def("plan", &plan, py::arg("options"), py::arg("hw"));
}

}  // namespace accel::python
