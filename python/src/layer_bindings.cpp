// accel.conv2d and accel.plan: one layer through the runtime (runtime/layer_run.hpp,
// compiler/planner.hpp), with numpy arrays for the tensors. python/accel/__init__.py
// has checked the Python arguments and turned them into the dicts these take.
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "base/error.hpp"
#include "compiler/planner.hpp"
#include "ops/quant.hpp"
#include "runtime/layer_run.hpp"
#include "runtime/report.hpp"
#include "bindings.hpp"
#include "numpy_tensors.hpp"

namespace accel::python {

namespace {

template <typename T>
T item(const py::dict& d, const char* key) {
    return d[key].cast<T>();
}

// stride, pad and dilation of the dict `g`.
void set_geometry(const py::dict& g, Conv2dParams& p) {
    std::tie(p.stride_h, p.stride_w) = item<std::pair<int, int>>(g, "stride");
    std::tie(p.pad_top, p.pad_bottom, p.pad_left, p.pad_right) =
        item<std::tuple<int, int, int, int>>(g, "pad");
    std::tie(p.dilation_h, p.dilation_w) = item<std::pair<int, int>>(g, "dilation");
}

TensorI8 rank4(const py::array& a, const char* name, const char* what, const char* layout) {
    TensorI8 t = tensor_from_numpy<int8_t>(a, name, "int8");
    check_conv2d_tensor(t.shape, name, what, layout);
    return t;
}

std::vector<int32_t> per_channel(const py::array& a, const char* name, int64_t k) {
    const TensorI32 t = tensor_from_numpy<int32_t>(a, name, "int32");
    check_per_channel(t.shape, k, name);
    return t.data;
}

// An int32 for all K channels, or an array of K.
std::vector<int32_t> per_channel(const py::object& o, const char* name, int64_t k) {
    if (py::isinstance<py::int_>(o)) {
        return std::vector<int32_t>(static_cast<size_t>(k), o.cast<int32_t>());
    }
    return per_channel(o.cast<py::array>(), name, k);
}

// The requantization of the dict: a scale, or per-channel multipliers and shifts.
void set_requantization(const py::dict& o, int64_t k, Conv2dParams& p) {
    if (!o["scale"].is_none()) {
        const QuantizedMultiplier q = quantize_multiplier(item<double>(o, "scale"));
        p.multiplier.assign(static_cast<size_t>(k), q.multiplier);
        p.shift.assign(static_cast<size_t>(k), q.shift);
        return;
    }
    p.multiplier = per_channel(item<py::object>(o, "multiplier"), "multiplier", k);
    p.shift = per_channel(item<py::object>(o, "shift"), "shift", k);
}

// What check=True found wrong, for accel.CheckError; None when nothing was.
py::object check_failure(const std::optional<LayerCheck>& check) {
    if (!check || check->bit_exact()) return py::none();
    std::string first;
    for (const LayerCheck::Difference& d : check->first) first += "; " + describe(d);
    return py::str(fmt::format("check: {} of {} outputs differ from the golden reference{}",
                               check->differing, check->outputs, first));
}

// Returns (y, report, the check's failure or None).
py::tuple conv2d(const py::array& x_array, const py::array& w_array,
                 const std::optional<py::array>& bias_array, const py::dict& layer_options,
                 const py::dict& run_options, const py::object& hw_arg) {
    const TensorI8 x = rank4(x_array, "x", "input", "[N,H,W,C]");
    const TensorI8 w = rank4(w_array, "w", "weights", "[R,S,C,K]");
    Conv2dLayer layer;
    layer.shape = conv2d_shape_of(x.shape, w.shape, "x", "w");
    const int64_t k = layer.shape.k;
    const std::vector<int32_t> bias = bias_array ? per_channel(*bias_array, "bias", k)
                                                 : std::vector<int32_t>(static_cast<size_t>(k), 0);
    Conv2dParams& p = layer.params;
    set_geometry(layer_options, p);
    p.input_zero_point = item<int>(layer_options, "input_zero_point");
    p.output_zero_point = item<int>(layer_options, "output_zero_point");
    p.act_min = item<int>(layer_options, "act_min");
    p.act_max = item<int>(layer_options, "act_max");
    set_requantization(layer_options, k, p);
    validate(layer);
    const HwParams hw = hw_params_of(hw_arg);
    const RunChoice run = run_choice(run_options);
    LayerRunOptions options;
    options.check = run.check;
    const LayerResult result = without_gil(
        [&] { return run_layer(layer, x, w, bias, hw, run.device.backend, run.devices, options); });
    return py::make_tuple(numpy_from_tensor(result.y), to_python(conv2d_report(layer, hw, result)),
                          check_failure(result.check));
}

// The plan of a layer of the dict's shape and geometry, as `accel plan --json` writes it.
py::object plan(const py::dict& o, const py::object& hw_arg) {
    const auto [n, h, w, c] = item<std::tuple<int64_t, int64_t, int64_t, int64_t>>(o, "shape");
    const auto [r, s] = item<std::pair<int64_t, int64_t>>(o, "kernel");
    Conv2dLayer layer;
    layer.shape = {n, h, w, c, item<int64_t>(o, "out_channels"), r, s};
    set_geometry(o, layer.params);
    // The requantization does not change the plan; any valid one will do. A K out of
    // range gets none: validate() names the K, and nothing huge is allocated first.
    const int64_t k = layer.shape.k;
    layer.params.multiplier.assign(k >= 1 && k <= kMaxConv2dDim ? static_cast<size_t>(k) : 0,
                                   1 << 30);
    layer.params.shift.assign(layer.params.multiplier.size(), 0);
    validate(layer);
    const HwParams hw = hw_params_of(hw_arg);
    return to_python(plan_report(layer, hw, plan_conv2d(layer, hw)));
}

}  // namespace

void bind_layer(py::module_& m) {
    m.def("conv2d", &conv2d, py::arg("x"), py::arg("w"), py::arg("bias"), py::arg("layer"),
          py::arg("run"), py::arg("hw"));
    m.def("plan", &plan, py::arg("options"), py::arg("hw"));
}

}  // namespace accel::python
