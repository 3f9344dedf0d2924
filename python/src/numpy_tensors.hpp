// numpy arrays in and out of the kit's tensors. An array must already have the dtype
// the kit takes (no silent casts: an int64 weight of 300 must not become 44); its
// layout may be anything: broadcast, zero or negative strides, misaligned.
#pragma once
#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "base/error.hpp"
#include "base/tensor.hpp"
#include "hw/dram_bus.hpp"

namespace accel::python {

namespace py = pybind11;

// The elements of `a` in C order into `out`, each read where the array's own strides
// put it: a broadcast array is expanded here, never by numpy (whose copy of a few bytes
// that describe terabytes fails to allocate).
template <typename T>
void copy_in_c_order(const py::array& a, T* out, size_t count) {
    const auto* base = static_cast<const char*>(a.data());
    const auto nd = static_cast<size_t>(a.ndim());
    if (nd == 0) {
        std::memcpy(out, base, sizeof(T));
        return;
    }
    const py::ssize_t inner = a.shape(nd - 1), step = a.strides(nd - 1);
    std::vector<py::ssize_t> index(nd - 1, 0);
    for (size_t row = 0; row < count / static_cast<size_t>(inner); ++row) {
        const char* p = base;
        for (size_t d = 0; d + 1 < nd; ++d) p += index[d] * a.strides(d);
        for (py::ssize_t j = 0; j < inner; ++j) std::memcpy(out++, p + j * step, sizeof(T));
        for (size_t d = nd - 1; d-- > 0;) {  // the next row's index, last dimension first
            if (++index[d] < a.shape(d)) break;
            index[d] = 0;
        }
    }
}

// `name` and `dtype` name the argument and what it must be in the error. The size is
// checked before anything is allocated: no tensor the kit takes is larger than the
// 4 GiB a device addresses.
template <typename T>
Tensor<T> tensor_from_numpy(const py::array& a, const std::string& name, const char* dtype) {
    if (!a.dtype().is(py::dtype::of<T>())) {
        throw Error(fmt::format("{}: dtype {}, expected {}", name,
                                std::string(py::str(a.dtype())), dtype));
    }
    Tensor<T> t;
    t.shape.assign(a.shape(), a.shape() + a.ndim());
    uint64_t bytes = sizeof(T);
    for (const int64_t d : t.shape) {
        if (d != 0 && bytes > dram_bus::kMaxDramBytes / static_cast<uint64_t>(d)) {
            throw Error(fmt::format("{}: shape {} is larger than the 4 GiB a device addresses",
                                    name, shape_repr(t.shape)));
        }
        bytes *= static_cast<uint64_t>(d);
    }
    const size_t count = bytes / sizeof(T);
    try {
        t.data.resize(count);
    } catch (const std::bad_alloc&) {
        throw Error(fmt::format("{}: {} bytes of shape {}: {}", name, bytes,
                                shape_repr(t.shape), kOutOfMemory));
    }
    if (count > 0) copy_in_c_order(a, t.data.data(), count);
    return t;
}

template <typename T>
py::array_t<T> numpy_from_tensor(const Tensor<T>& t) {
    py::array_t<T> a(t.shape);
    std::copy(t.data.begin(), t.data.end(), a.mutable_data());
    return a;
}

}  // namespace accel::python
