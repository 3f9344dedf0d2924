// numpy arrays in and out of the kit's tensors. An array must already have the dtype
// the kit takes (no silent casts: an int64 weight of 300 must not become 44); its
// layout may be anything, it is copied into C order.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "base/error.hpp"
#include "base/tensor.hpp"

namespace accel::python {

namespace py = pybind11;

// `name` and `dtype` name the argument and what it must be in the error.
template <typename T>
Tensor<T> tensor_from_numpy(const py::array& a, const std::string& name, const char* dtype) {
    if (!a.dtype().is(py::dtype::of<T>())) {
        throw Error(fmt::format("{}: dtype {}, expected {}", name,
                                std::string(py::str(a.dtype())), dtype));
    }
    const auto c_order = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(a);
    Tensor<T> t(std::vector<int64_t>(c_order.shape(), c_order.shape() + c_order.ndim()));
    std::copy_n(c_order.data(), t.size(), t.data.begin());
    return t;
}

template <typename T>
py::array_t<T> numpy_from_tensor(const Tensor<T>& t) {
    py::array_t<T> a(t.shape);
    std::copy(t.data.begin(), t.data.end(), a.mutable_data());
    return a;
}

}  // namespace accel::python
