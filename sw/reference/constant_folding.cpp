#include "reference/constant_folding.hpp"

#include <cstring>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"
#include "base/tensor.hpp"
#include "ops/concatenation.hpp"
#include "ops/pack.hpp"
#include "ops/strided_slice.hpp"
#include "reference/model_check.hpp"
#include "reference/operator_params.hpp"

namespace accel::reference {
namespace {

using graph::DType;
using graph::Model;
using graph::OpKind;
using graph::Operator;

Tensor<int32_t> int32_value(const graph::TensorDesc& t) {
    Tensor<int32_t> v;
    v.shape = t.shape;
    v.data = constant_i32(t);
    return v;
}

Tensor<int32_t> shape_of(const graph::TensorDesc& x) {
    Tensor<int32_t> v({static_cast<int64_t>(x.shape.size())});
    for (size_t d = 0; d < x.shape.size(); ++d) {
        if (x.shape[d] > std::numeric_limits<int32_t>::max()) {
            throw Error(fmt::format("dimension {} of [{}] does not fit int32", d,
                                    fmt::join(x.shape, ",")));
        }
        v.data[d] = static_cast<int32_t>(x.shape[d]);
    }
    return v;
}

// The int32 value `op` computes; its inputs but SHAPE's are constants by now.
Tensor<int32_t> compute(const Model& m, const Operator& op) {
    const auto in = [&](size_t i) -> const graph::TensorDesc& { return m.tensor(op.inputs.at(i)); };
    const std::vector<int64_t> shape = infer_output_shape(m, op);  // Prepare's checks
    switch (op.kind) {
        case OpKind::Shape: return shape_of(in(0));
        case OpKind::StridedSlice:
            return strided_slice(prepare_strided_slice(in(0).shape, strided_slice_options(m, op)),
                                 int32_value(in(0)));
        case OpKind::Pack:
        case OpKind::Concatenation: {
            std::vector<Tensor<int32_t>> parts;
            for (size_t i = 0; i < op.inputs.size(); ++i) parts.push_back(int32_value(in(i)));
            const std::vector<const Tensor<int32_t>*> views = pointers_to(parts);
            if (op.kind == OpKind::Pack) return pack(prepare_pack(input_shapes(m, op), op.axis), views);
            const auto rank = static_cast<int>(in(0).shape.size());
            return concatenate(static_cast<size_t>(op.axis < 0 ? op.axis + rank : op.axis), views);
        }
        case OpKind::Reshape: {
            Tensor<int32_t> v = int32_value(in(0));
            v.shape = shape;
            return v;
        }
        default:
            throw Error("int32 tensors are supported only as shapes computed at compile time "
                        "(SHAPE, STRIDED_SLICE, PACK, CONCATENATION, RESHAPE)");
    }
}

}  // namespace

bool computes_shape(const Model& m, const Operator& op) {
    return m.tensor(op.outputs.at(0)).type == DType::Int32;
}

void fold_shape_computations(Model& m) {
    for (const Operator& op : m.operators) {
        if (!computes_shape(m, op)) continue;
        try {
            for (size_t i = 0; i < op.inputs.size() && op.kind != OpKind::Shape; ++i) {
                const graph::TensorDesc& t = m.tensor(op.inputs[i]);
                if (!t.is_constant() && t.element_count() > 0) {
                    throw Error(fmt::format("input tensor {} ('{}') is known only at run time; "
                                            "int32 tensors must be shapes computed at compile "
                                            "time", op.inputs[i], t.name));
                }
            }
            const Tensor<int32_t> v = compute(m, op);
            graph::TensorDesc& y = m.tensors.at(static_cast<size_t>(op.outputs.at(0)));
            if (v.shape != y.shape) {
                throw Error(fmt::format("output tensor {} is declared [{}]; the operator computes "
                                        "[{}]", op.outputs[0], fmt::join(y.shape, ","),
                                        fmt::join(v.shape, ",")));
            }
            // An empty result stays without data, as an empty constant in a file is.
            y.data.resize(v.data.size() * sizeof(int32_t));
            if (!y.data.empty()) std::memcpy(y.data.data(), v.data.data(), y.data.size());
        } catch (const Error& e) {
            throw Error(fmt::format("operator {} ({}): {}", op.index, graph::op_kind_name(op.kind),
                                    e.what()));
        }
    }
}

}  // namespace accel::reference
