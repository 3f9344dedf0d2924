// What every unit test that builds a graph::Model by hand does the same way: tensors
// appended by index, int8 activations, int32 constants, operators in program order. A
// test derives its own builder from it and adds the tensors its cases need (weights).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "graph/model.hpp"

namespace accel::test {

class GraphBuilder {
public:
    // An int8 tensor without data, quantized per tensor by `scale` and `zero_point`.
    int activation(std::vector<int64_t> shape, float scale, int64_t zero_point) {
        graph::TensorDesc t;
        t.name = "t" + std::to_string(m.tensors.size());
        t.type = graph::DType::Int8;
        t.shape = std::move(shape);
        t.quant.scale = {scale};
        t.quant.zero_point = {zero_point};
        return add(std::move(t));
    }
    // A constant of `type` (4 bytes an element) and `shape` holding `v`.
    int ints(const std::vector<int32_t>& v, std::vector<int64_t> shape,
             graph::DType type = graph::DType::Int32) {
        graph::TensorDesc t;
        t.name = "c" + std::to_string(m.tensors.size());
        t.type = type;
        t.shape = std::move(shape);
        t.data.resize(v.size() * 4);
        std::memcpy(t.data.data(), v.data(), t.data.size());
        return add(std::move(t));
    }
    // The next operator: `kind` reading `inputs`, writing `output`.
    graph::Operator& op(graph::OpKind kind, std::vector<int> inputs, int output) {
        graph::Operator o;
        o.index = static_cast<int>(m.operators.size());
        o.kind = kind;
        o.inputs = std::move(inputs);
        o.outputs = {output};
        m.operators.push_back(o);
        return m.operators.back();
    }
    // Appends `t`; returns its index.
    int add(graph::TensorDesc t) {
        m.tensors.push_back(std::move(t));
        return static_cast<int>(m.tensors.size()) - 1;
    }

    graph::Model m;
};

}  // namespace accel::test
