#include "runtime/model_inputs.hpp"

#include <utility>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/portable_random.hpp"
#include "base/tensor.hpp"
#include "base/text.hpp"

namespace accel {

using reference::Value;

namespace {

Value random_input(const graph::TensorDesc& d, PortableRandom& rng) {
    if (d.type == graph::DType::Float32) {
        Tensor<float> x(d.shape);
        for (float& v : x.data) {
            v = static_cast<float>(rng.uniform(-(1 << 23), (1 << 23) - 1)) / (1 << 23);
        }
        return Value::of(std::move(x));
    }
    TensorI8 x(d.shape);
    for (int8_t& v : x.data) v = static_cast<int8_t>(rng.uniform(-128, 127));
    return Value::of(std::move(x));
}

}  // namespace

std::vector<Value> model_inputs(const graph::Model& m, uint64_t seed, const GivenInputs* given) {
    PortableRandom rng(seed);
    std::vector<Value> out;
    for (size_t i = 0; i < m.inputs.size(); ++i) {
        const graph::TensorDesc& d = m.tensor(m.inputs[i]);
        if (d.type != graph::DType::Float32 && d.type != graph::DType::Int8) {
            throw Error(fmt::format("model input '{}' is {}; accel run feeds int8 or float32",
                                    printable(d.name), graph::dtype_name(d.type)));
        }
        if (given == nullptr) {
            out.push_back(random_input(d, rng));
            continue;
        }
        Value v = given->value(i, d);
        if (v.shape != d.shape) {
            throw Error(fmt::format("{}: shape {} but the model's input '{}' is {}",
                                    given->name(i), shape_repr(v.shape), printable(d.name),
                                    shape_repr(d.shape)));
        }
        out.push_back(std::move(v));
    }
    return out;
}

}  // namespace accel
