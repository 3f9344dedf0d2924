#include "reference/model_check.hpp"

#include <algorithm>
#include <set>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"
#include "base/text.hpp"
#include "ops/pack.hpp"
#include "ops/padding.hpp"
#include "ops/slice.hpp"
#include "ops/split.hpp"
#include "ops/strided_slice.hpp"
#include "ops/transpose.hpp"
#include "reference/evaluate.hpp"
#include "reference/operator_params.hpp"

namespace accel::reference {
namespace {

using graph::Model;
using graph::OpKind;
using graph::Operator;
using graph::TensorDesc;
using Shape = std::vector<int64_t>;

[[noreturn]] void fail(const std::string& message) { throw Error(message); }

std::string dims(const Shape& s) { return fmt::format("[{}]", fmt::join(s, ",")); }

// "tensor 3 ('conv1')": names come from the file, so they are quoted printable.
std::string tensor_name(const Model& m, int t) {
    return fmt::format("tensor {} ('{}')", t, printable(m.tensor(t).name));
}

// a + b, refused past the element limit (computed dimensions: PAD, CONCATENATION).
int64_t bounded_sum(int64_t a, int64_t b, const char* what) {
    if (a > graph::kMaxTensorElements - b) fail(fmt::format("{} is too large", what));
    return a + b;
}

void expect_rank(const Shape& s, size_t rank, const char* role) {
    if (s.size() != rank) fail(fmt::format("{} has shape {}; expected rank {}", role, dims(s), rank));
}

// Every dimension at least 1: TFLite's kernels divide by, or loop to, each of them.
void expect_nonempty(const Shape& s, const char* role) {
    for (const int64_t d : s) {
        if (d < 1) fail(fmt::format("{} has shape {}; every dimension must be at least 1", role, dims(s)));
    }
}

const Shape& shape_of(const Model& m, const Operator& op, size_t slot) {
    return m.tensor(op.inputs.at(slot)).shape;
}

// CONV_2D, DEPTHWISE_CONV_2D and the pools: [N, OH, OW, channels] by SAME or VALID.
Shape window_output(const Operator& op, const Shape& x, int64_t filter_h, int64_t filter_w,
                    int64_t channels) {
    const bool pool = op.kind == OpKind::MaxPool2d || op.kind == OpKind::AveragePool2d;
    const WindowPadding p = compute_padding(
        padding_kind(op.padding), x[1], x[2], filter_h, filter_w, op.stride_h, op.stride_w,
        pool ? 1 : op.dilation_h, pool ? 1 : op.dilation_w);
    return {x[0], p.out_h, p.out_w, channels};
}

Shape conv_output(const Model& m, const Operator& op) {
    const Shape& x = shape_of(m, op, 0);
    const Shape& w = shape_of(m, op, 1);  // [K,R,S,C]
    expect_rank(x, 4, "the input");
    expect_rank(w, 4, "the weights");
    expect_nonempty(x, "the input");
    expect_nonempty(w, "the weights");
    if (w[3] != x[3]) {
        fail(fmt::format("the weights {} read {} channels but the input {} has {}; grouped "
                         "convolutions are not supported", dims(w), w[3], dims(x), x[3]));
    }
    return window_output(op, x, w[1], w[2], w[0]);
}

Shape depthwise_output(const Model& m, const Operator& op) {
    const Shape& x = shape_of(m, op, 0);
    const Shape& w = shape_of(m, op, 1);  // [1,R,S,C*M]
    expect_rank(x, 4, "the input");
    expect_rank(w, 4, "the filter");
    expect_nonempty(x, "the input");
    expect_nonempty(w, "the filter");
    if (w[0] != 1 || w[3] % x[3] != 0) {
        fail(fmt::format("the filter {} must be [1,R,S,C*M] for the input's C = {}", dims(w), x[3]));
    }
    return window_output(op, x, w[1], w[2], w[3]);
}

Shape pool_output(const Model& m, const Operator& op) {
    const Shape& x = shape_of(m, op, 0);
    expect_rank(x, 4, "the input");
    expect_nonempty(x, "the input");
    return window_output(op, x, op.filter_h, op.filter_w, x[3]);
}

// TFLite reads the input as [batches, depth] rows of the weights' depth; keep_num_dims
// keeps the input's leading dimensions instead of the batch count.
Shape fully_connected_output(const Model& m, const Operator& op) {
    const TensorDesc& x = m.tensor(op.inputs.at(0));
    const Shape& w = shape_of(m, op, 1);  // [K, depth]
    expect_rank(w, 2, "the weights");
    expect_nonempty(w, "the weights");
    const int64_t units = w[0], depth = w[1];
    if (x.element_count() % depth != 0 || x.shape.empty()) {
        fail(fmt::format("the input {} is not a whole number of rows of the weights' depth {}",
                         dims(x.shape), depth));
    }
    if (!op.keep_num_dims) return {x.element_count() / depth, units};
    if (x.shape.back() != depth) {
        fail(fmt::format("with keep_num_dims the input {} must end in the weights' depth {}",
                         dims(x.shape), depth));
    }
    Shape y = x.shape;
    y.back() = units;
    return y;
}

// NumPy broadcasting, aligned at the last dimension (ADD, MUL).
Shape add_output(const Model& m, const Operator& op) {
    const Shape& a = shape_of(m, op, 0);
    const Shape& b = shape_of(m, op, 1);
    Shape y(std::max(a.size(), b.size()), 1);
    for (size_t i = 0; i < y.size(); ++i) {
        const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
        const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
        if (da != db && da != 1 && db != 1) {
            fail(fmt::format("the inputs {} and {} do not broadcast", dims(a), dims(b)));
        }
        y[y.size() - 1 - i] = da == 1 ? db : da;
    }
    return y;
}

Shape mean_output(const Model& m, const Operator& op) {
    const Shape& x = shape_of(m, op, 0);
    const auto rank = static_cast<int64_t>(x.size());
    std::set<int64_t> axes;
    const TensorDesc& axis = m.tensor(op.inputs.at(1));
    for (int64_t a : axis.element_count() > 0 ? constant_ints(axis) : Shape{}) {
        if (a < -rank || a >= rank) fail(fmt::format("axis {} is outside the input {}", a, dims(x)));
        axes.insert(a < 0 ? a + rank : a);
    }
    Shape y;
    for (int64_t d = 0; d < rank; ++d) {
        if (axes.count(d) == 0) {
            y.push_back(x[static_cast<size_t>(d)]);
        } else if (op.keep_dims) {
            y.push_back(1);
        }
    }
    return y;
}

Shape pad_output(const Model& m, const Operator& op) {
    const Shape& x = shape_of(m, op, 0);
    const TensorDesc& paddings = m.tensor(op.inputs.at(1));
    const Shape want{static_cast<int64_t>(x.size()), 2};
    if (paddings.shape != want) {
        fail(fmt::format("the paddings have shape {}; expected {} for the input {}",
                         dims(paddings.shape), dims(want), dims(x)));
    }
    const std::vector<int64_t> p = constant_ints(paddings);
    Shape y = x;
    for (size_t d = 0; d < x.size(); ++d) {
        const int64_t before = p[2 * d], after = p[2 * d + 1];
        if (before < 0 || after < 0) {
            fail(fmt::format("padding {{{}, {}}} of dimension {} is negative", before, after, d));
        }
        y[d] = bounded_sum(bounded_sum(x[d], before, "the padded output"), after,
                           "the padded output");
    }
    return y;
}

// TFLite's new shape: an int32 vector shape input, else ReshapeOptions.new_shape (whose
// legacy [0] means a scalar); one -1 stands for what the input's elements leave.
Shape reshape_output(const Model& m, const Operator& op) {
    const TensorDesc& x = m.tensor(op.inputs.at(0));
    Shape y;
    const TensorDesc* shape = op.inputs.size() == 2 ? &m.tensor(op.inputs[1]) : nullptr;
    if (shape && shape->type == graph::DType::Int32 && shape->shape.size() == 1) {
        if (shape->element_count() > 0) y = constant_ints(*shape);  // else a scalar
    } else if (op.new_shape) {
        y = *op.new_shape;
        if (y == Shape{0}) y.clear();
    } else {
        fail("the new shape is given neither by an int32 shape vector nor by ReshapeOptions");
    }
    int64_t known = 1;
    int stretch = -1;
    for (size_t i = 0; i < y.size(); ++i) {
        if (y[i] == -1 && stretch == -1) {
            stretch = static_cast<int>(i);
        } else if (y[i] < 0) {
            fail(fmt::format("the new shape {} has a dimension below 0 or more than one -1", dims(y)));
        } else if (y[i] > 0) {
            known = known > graph::kMaxTensorElements / y[i] ? graph::kMaxTensorElements + 1
                                                             : known * y[i];
        } else {
            known = 0;
        }
    }
    if (stretch >= 0 && known > 0) y[static_cast<size_t>(stretch)] = x.element_count() / known;
    const int64_t count = stretch >= 0 && known > 0 ? known * y[static_cast<size_t>(stretch)] : known;
    if (count != x.element_count()) {
        fail(fmt::format("the new shape {} does not hold the input {}'s {} elements", dims(y),
                         dims(x.shape), x.element_count()));
    }
    return y;
}

Shape concatenation_output(const Model& m, const Operator& op) {
    const Shape& first = shape_of(m, op, 0);
    const auto rank = static_cast<int>(first.size());
    if (op.axis < -rank || op.axis >= rank) {
        fail(fmt::format("axis {} is outside the rank-{} inputs", op.axis, rank));
    }
    const auto axis = static_cast<size_t>(op.axis < 0 ? op.axis + rank : op.axis);
    Shape y = first;
    for (size_t i = 1; i < op.inputs.size(); ++i) {
        const Shape& s = shape_of(m, op, i);
        bool same = s.size() == first.size();
        for (size_t d = 0; same && d < s.size(); ++d) same = d == axis || s[d] == first[d];
        if (!same) {
            fail(fmt::format("input {} {} differs from input 0 {} outside axis {}", i, dims(s),
                             dims(first), axis));
        }
        y[axis] = bounded_sum(y[axis], s[axis], "the concatenated output");
    }
    return y;
}

Shape resize_output(const Model& m, const Operator& op) {
    const Shape& x = shape_of(m, op, 0);
    expect_rank(x, 4, "the input");
    const TensorDesc& size = m.tensor(op.inputs.at(1));
    if (size.type != graph::DType::Int32 || size.shape != Shape{2}) {
        fail(fmt::format("the size has shape {}; expected an int32 [2]", dims(size.shape)));
    }
    const std::vector<int64_t> hw = constant_ints(size);
    return {x[0], hw[0], hw[1], x[3]};
}

// SQUEEZE: the dimensions of size 1 listed (negative ones count from the end), or all.
Shape squeeze_output(const Model& m, const Operator& op) {
    const Shape& x = shape_of(m, op, 0);
    const auto rank = static_cast<int>(x.size());
    if (rank > 8) fail(fmt::format("the input {} has more than 8 dimensions", dims(x)));
    std::vector<bool> drop(x.size(), op.squeeze_dims.empty());
    for (size_t d = 0; d < x.size() && op.squeeze_dims.empty(); ++d) drop[d] = x[d] == 1;
    for (const int d : op.squeeze_dims) {
        const int at = d < 0 ? d + rank : d;
        if (at < 0 || at >= rank || x[static_cast<size_t>(at)] != 1) {
            fail(fmt::format("squeeze_dims {} is no dimension of size 1 of the input {}", d, dims(x)));
        }
        drop[static_cast<size_t>(at)] = true;
    }
    Shape y;
    for (size_t d = 0; d < x.size(); ++d) {
        if (!drop[d]) y.push_back(x[d]);
    }
    return y;
}

// EXPAND_DIMS: a dimension of 1 inserted at the axis (negative: counted from the end of
// the output's rank).
Shape expand_dims_output(const Model& m, const Operator& op) {
    const Shape& x = shape_of(m, op, 0);
    const TensorDesc& axis = m.tensor(op.inputs.at(1));
    if (axis.element_count() != 1) fail(fmt::format("the axis has {} values; expected 1", axis.element_count()));
    const auto rank = static_cast<int64_t>(x.size());
    int64_t a = constant_ints(axis)[0];
    if (a < 0) a += rank + 1;
    if (a < 0 || a > rank) fail(fmt::format("axis {} is outside the rank-{} input", constant_ints(axis)[0], rank));
    Shape y = x;
    y.insert(y.begin() + a, 1);
    return y;
}

Shape same_as_input(const Model& m, const Operator& op) {
    const Shape& x = shape_of(m, op, 0);
    if (op.kind == OpKind::Softmax && x.empty()) fail("the input is a scalar; SOFTMAX needs rank 1 or more");
    return x;
}

// Each tensor is fed, constant or written once, by an earlier operator.
void check_data_flow(const Model& m) {
    std::vector<int> writer(m.tensors.size(), -2);  // -2 nothing, -1 a graph input
    for (const int t : m.inputs) {
        if (m.tensor(t).is_constant()) fail(fmt::format("graph input {} is a constant", tensor_name(m, t)));
        writer[static_cast<size_t>(t)] = -1;
    }
    for (const Operator& op : m.operators) {
        const std::string where = fmt::format("operator {} ({})", op.index, graph::op_kind_name(op.kind));
        for (const int t : op.inputs) {
            if (t < 0 || m.tensor(t).is_constant() || writer[static_cast<size_t>(t)] != -2) continue;
            const auto later = std::find_if(m.operators.begin(), m.operators.end(), [t](const Operator& o) {
                return std::find(o.outputs.begin(), o.outputs.end(), t) != o.outputs.end();
            });
            fail(later != m.operators.end()
                     ? fmt::format("{}: reads {} before operator {} writes it", where,
                                   tensor_name(m, t), later->index)
                     : fmt::format("{}: reads {}, which is no graph input, constant or operator's "
                                   "output", where, tensor_name(m, t)));
        }
        if (op.outputs.empty()) fail(fmt::format("{}: has no outputs", where));
        for (const int y : op.outputs) {
            m.tensor(y);  // throws for one out of range
            const int before = writer[static_cast<size_t>(y)];
            if (before == -1) fail(fmt::format("{}: writes {}, a graph input", where, tensor_name(m, y)));
            if (before >= 0) {
                // An operator that lists a tensor among its outputs twice writes it twice too.
                fail(fmt::format("{}: writes {}, which {} writes too", where, tensor_name(m, y),
                                 before == op.index ? "it" : fmt::format("operator {}", before)));
            }
            writer[static_cast<size_t>(y)] = op.index;
        }
    }
    for (const int t : m.outputs) {
        if (writer[static_cast<size_t>(t)] == -2) {
            fail(fmt::format("graph output {} is neither a graph input nor written by an operator",
                             tensor_name(m, t)));
        }
    }
}

// Every tensor's elements, and all tensors' bytes together, within the limit.
void check_sizes(const Model& m) {
    int64_t bytes = 0;
    for (size_t t = 0; t < m.tensors.size(); ++t) {
        const TensorDesc& d = m.tensors[t];
        int64_t count = 1;
        for (const int64_t n : d.shape) {
            if (n < 0 || (n > 0 && count > graph::kMaxTensorElements / n)) {
                fail(fmt::format("{} has shape {}, too large", tensor_name(m, static_cast<int>(t)),
                                 dims(d.shape)));
            }
            count *= n;
        }
        const auto size = count * static_cast<int64_t>(std::max<size_t>(graph::dtype_size(d.type), 1));
        if (size > graph::kMaxTensorElements - bytes) {
            fail(fmt::format("the model's tensors take more than {} bytes together",
                             graph::kMaxTensorElements));
        }
        bytes += size;
    }
}

}  // namespace

std::vector<Shape> infer_output_shapes(const Model& m, const Operator& op) {
    const auto axis = [&](size_t slot) { return constant_ints(m.tensor(op.inputs.at(slot))).at(0); };
    switch (op.kind) {
        case OpKind::Split:
            return prepare_split(shape_of(m, op, 1), axis(0), op.num).output_shapes;
        case OpKind::SplitV:
            return prepare_split_v(shape_of(m, op, 0), constant_ints(m.tensor(op.inputs.at(1))),
                                   axis(2), op.num).output_shapes;
        case OpKind::Unpack: return prepare_unpack(shape_of(m, op, 0), op.axis, op.num).output_shapes;
        default: return {infer_output_shape(m, op)};
    }
}

Shape infer_output_shape(const Model& m, const Operator& op) {
    switch (op.kind) {
        case OpKind::Conv2d: return conv_output(m, op);
        case OpKind::DepthwiseConv2d: return depthwise_output(m, op);
        case OpKind::FullyConnected: return fully_connected_output(m, op);
        case OpKind::Add: return add_output(m, op);
        case OpKind::MaxPool2d:
        case OpKind::AveragePool2d: return pool_output(m, op);
        case OpKind::Mean: return mean_output(m, op);
        case OpKind::Pad: return pad_output(m, op);
        case OpKind::Reshape: return reshape_output(m, op);
        case OpKind::Concatenation: return concatenation_output(m, op);
        case OpKind::Shape: return {static_cast<int64_t>(shape_of(m, op, 0).size())};
        case OpKind::StridedSlice:
            return prepare_strided_slice(shape_of(m, op, 0), strided_slice_options(m, op)).output_shape;
        case OpKind::Pack: return prepare_pack(input_shapes(m, op), op.axis).output_shape;
        case OpKind::Mul:
        case OpKind::Sub:
        case OpKind::Maximum:
        case OpKind::Minimum:
        case OpKind::SquaredDifference:
        case OpKind::Prelu: return add_output(m, op);
        case OpKind::Squeeze: return squeeze_output(m, op);
        case OpKind::ExpandDims: return expand_dims_output(m, op);
        case OpKind::Transpose:
            return prepare_transpose(shape_of(m, op, 0), constant_ints(m.tensor(op.inputs.at(1)))).output_shape;
        case OpKind::Slice:
            return prepare_slice(shape_of(m, op, 0), constant_ints(m.tensor(op.inputs.at(1))),
                                 constant_ints(m.tensor(op.inputs.at(2)))).output_shape;
        case OpKind::Split:
        case OpKind::SplitV:
        case OpKind::Unpack: fail("has several outputs");
        case OpKind::ResizeNearestNeighbor: return resize_output(m, op);
        case OpKind::Softmax:
        case OpKind::Quantize:
        case OpKind::Dequantize:
        case OpKind::Logistic:
        case OpKind::Tanh:
        case OpKind::HardSwish:
        case OpKind::LeakyRelu:
        case OpKind::Abs:
        case OpKind::Relu:
        case OpKind::Relu6:
        case OpKind::ReluN1To1:
        case OpKind::Exp:
        case OpKind::Rsqrt: return same_as_input(m, op);
    }
    fail("unknown operator kind");
}

void check_model(const Model& m) {
    if (m.outputs.empty()) fail("the model has no outputs");
    for (const std::vector<int>* list : {&m.inputs, &m.outputs}) {
        for (const int t : *list) m.tensor(t);  // throws for one out of range
    }
    check_sizes(m);
    check_data_flow(m);
    for (const int t : m.inputs) {
        try {
            expect_nonempty(m.tensor(t).shape, "it");
        } catch (const Error& e) {
            fail(fmt::format("graph input {}: {}", tensor_name(m, t), e.what()));
        }
    }
    for (const Operator& op : m.operators) {
        const std::string where = fmt::format("operator {} ({})", op.index, graph::op_kind_name(op.kind));
        std::vector<Shape> want;
        try {
            want = infer_output_shapes(m, op);
        } catch (const Error& e) {
            fail(fmt::format("{}: {}", where, e.what()));
        }
        if (want.size() != op.outputs.size()) {
            fail(fmt::format("{}: has {} outputs; the operator computes {}", where, op.outputs.size(),
                             want.size()));
        }
        for (size_t i = 0; i < op.outputs.size(); ++i) {
            const int y = op.outputs[i];
            const TensorDesc& out = m.tensor(y);
            if (out.type == graph::DType::Int32 && !out.is_constant() && out.element_count() > 0) {
                fail(fmt::format("{}: its int32 output {} is not computed at compile time", where,
                                 tensor_name(m, y)));
            }
            if (out.shape != want.at(i)) {
                fail(fmt::format("{}: output {} is declared {}; the operator computes {}", where,
                                 tensor_name(m, y), dims(out.shape), dims(want.at(i))));
            }
        }
        prepare(m, op);  // its quantization and options, as it will run
    }
}

}  // namespace accel::reference
