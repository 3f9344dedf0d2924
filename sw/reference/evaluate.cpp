#include "reference/evaluate.hpp"

#include <array>
#include <stdexcept>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/abs.hpp"
#include "ops/add.hpp"
#include "ops/concatenation.hpp"
#include "ops/depthwise_conv2d.hpp"
#include "ops/exp.hpp"
#include "ops/fully_connected.hpp"
#include "ops/hard_swish.hpp"
#include "ops/leaky_relu.hpp"
#include "ops/logistic.hpp"
#include "ops/maximum_minimum.hpp"
#include "ops/mean.hpp"
#include "ops/mul.hpp"
#include "ops/pack.hpp"
#include "ops/pad.hpp"
#include "ops/pool.hpp"
#include "ops/prelu.hpp"
#include "ops/quantize.hpp"
#include "ops/reference.hpp"
#include "ops/relu.hpp"
#include "ops/resize_nearest_neighbor.hpp"
#include "ops/rsqrt.hpp"
#include "ops/slice.hpp"
#include "ops/softmax.hpp"
#include "ops/split.hpp"
#include "ops/squared_difference.hpp"
#include "ops/strided_slice.hpp"
#include "ops/tanh.hpp"
#include "ops/transpose.hpp"
#include "reference/operator_params.hpp"

namespace accel::reference {
namespace {

using graph::Model;
using graph::OpKind;
using graph::Operator;

// One operator's Prepare (its parameters, from the model), then, unless `prepare_only`,
// its kernel on the input values.
class Evaluation {
public:
    Evaluation(const Model& m, const Operator& op, const std::vector<const Value*>& inputs,
               bool prepare_only, Match match)
        : m_(m), op_(op), inputs_(inputs), prepare_only_(prepare_only), match_(match) {}

    // One value per output.
    std::vector<Value> run() const;

private:
    Value run_one() const;  // an operator of one output
    std::vector<Value> split() const;
    Value binary() const;
    const graph::TensorDesc& in(size_t i) const { return m_.tensor(op_.inputs.at(i)); }
    const graph::TensorDesc& out() const { return m_.tensor(op_.outputs.at(0)); }

    // An input as the kernels index it. check_model made every declared shape the one
    // TFLite infers; a value of another shape or size is a bug of the kit, not the model.
    TensorI8 i8(size_t i) const {
        TensorI8 t = i < inputs_.size() && inputs_[i] != nullptr ? inputs_[i]->as_i8()
                                                                 : constant_i8(in(i));
        if (t.shape != in(i).shape || t.data.size() != TensorI8::element_count(t.shape)) {
            throw std::logic_error(fmt::format("operator {}: input {} holds {} values of shape "
                                               "{}, not the checked {}", op_.index, i,
                                               t.data.size(), shape_repr(t.shape),
                                               shape_repr(in(i).shape)));
        }
        return t;
    }
    std::vector<TensorI8> all_i8() const {
        std::vector<TensorI8> all;
        for (size_t i = 0; i < op_.inputs.size(); ++i) all.push_back(i8(i));
        return all;
    }
    // What every sliding-window operator reads from the model alike.
    WindowOptions window_options() const {
        return {.padding = padding_kind(op_.padding), .stride_h = op_.stride_h,
                .stride_w = op_.stride_w, .activation = fused_activation(op_.activation)};
    }
    Value conv() const;
    Value fully_connected() const;
    Value depthwise() const;
    Value pool() const;
    Value concatenation() const;
    Value elementwise() const;
    Value pack() const;
    Value data_mover() const;

    const Model& m_;
    const Operator& op_;
    const std::vector<const Value*>& inputs_;
    const bool prepare_only_;
    const Match match_;
};

Value Evaluation::conv() const {
    const Conv2dOperator c = conv2d_operator(m_, op_, match_);
    if (prepare_only_) return {};
    TensorI8 y = conv2d_reference(c.layer, i8(0), c.weights, c.bias);
    y.shape = out().shape;
    return Value::of(std::move(y));
}

// TFLite's reference kernel requantizes FULLY_CONNECTED in double (ops/fully_connected.hpp),
// as the device's double-scale DRAIN does; its optimized kernel with the fixed-point
// multiplier and shift.
Value Evaluation::fully_connected() const {
    FullyConnectedParams p = prepare_fully_connected(
        in(1).shape, fused_activation(op_.activation), quant_params(in(0)), in(1).quant.scale,
        in(1).quant.zero_point.at(0), quant_params(out()));
    if (fully_connected_fixed_point(match_)) {
        p.requantization = FullyConnectedRequantization::FixedPoint;
        p.round_up = final_shift_rounds_up(match_, op_.kind);
    }
    const std::vector<int32_t> bias = conv_bias(m_, op_, in(1).shape.at(0));
    if (prepare_only_) return {};
    TensorI8 y = accel::fully_connected(p, i8(0), i8(1), bias);
    y.shape = out().shape;
    return Value::of(std::move(y));
}

Value Evaluation::depthwise() const {
    const DepthwiseConv2dOptions o{.window = window_options(), .dilation_h = op_.dilation_h,
                                   .dilation_w = op_.dilation_w};
    DepthwiseConv2dParams p = prepare_depthwise_conv2d(
        in(0).shape, in(1).shape, o, quant_params(in(0)), in(1).quant.scale, quant_params(out()));
    p.round_up = final_shift_rounds_up(match_, op_.kind);
    const std::vector<int32_t> bias = conv_bias(m_, op_, in(1).shape.at(3));
    if (prepare_only_) return {};
    return Value::of(depthwise_conv2d(p, i8(0), i8(1), bias));
}

Value Evaluation::pool() const {
    const Pool2dOptions o{.window = window_options(), .filter_h = op_.filter_h,
                          .filter_w = op_.filter_w};
    const Pool2dParams p = prepare_pool2d(in(0).shape, o, quant_params(in(0)), quant_params(out()));
    if (prepare_only_) return {};
    return Value::of(op_.kind == OpKind::MaxPool2d ? max_pool2d(p, i8(0)) : average_pool2d(p, i8(0)));
}

Value Evaluation::concatenation() const {
    std::vector<QuantParams> quants;
    for (size_t i = 0; i < op_.inputs.size(); ++i) quants.push_back(quant_params(in(i)));
    const ConcatenationParams p =
        prepare_concatenation(in(0).shape.size(), op_.axis, quants, quant_params(out()));
    if (prepare_only_) return {};
    return Value::of(accel::concatenation(p, pointers_to(all_i8())));
}

// The element-wise operators of one int8 input: Prepare's parameters, then (unless
// only preparing) the kernel on the input.
Value Evaluation::elementwise() const {
    const QuantParams x = quant_params(in(0)), y = quant_params(out());
    const auto run = [&](const auto& params, const auto& kernel) {
        return prepare_only_ ? Value{} : Value::of(kernel(params, i8(0)));
    };
    switch (op_.kind) {
        case OpKind::Logistic:
        case OpKind::Tanh:
        case OpKind::Exp:  // tables filled from float math
            return run(op_.kind == OpKind::Logistic ? prepare_logistic(x, y)
                       : op_.kind == OpKind::Tanh   ? prepare_tanh(x, y)
                                                    : prepare_exp(x, y),
                       [](const Int8Table& t, const TensorI8& v) { return apply_table(t, v); });
        case OpKind::HardSwish:
            return run(prepare_hard_swish(x, y),
                       [](const HardSwishParams& p, const TensorI8& v) { return hard_swish(p, v); });
        case OpKind::LeakyRelu:
            return run(prepare_leaky_relu(x, y, op_.alpha),
                       [](const LeakyReluParams& p, const TensorI8& v) { return leaky_relu(p, v); });
        case OpKind::Abs:
            return run(prepare_abs(x, y),
                       [](const AbsParams& p, const TensorI8& v) { return abs(p, v); });
        case OpKind::Relu:
        case OpKind::Relu6:
        case OpKind::ReluN1To1: {
            const ReluKind kind = op_.kind == OpKind::Relu    ? ReluKind::Relu
                                  : op_.kind == OpKind::Relu6 ? ReluKind::Relu6
                                                              : ReluKind::ReluN1To1;
            return run(prepare_relu(kind, x, y),
                       [](const ReluParams& p, const TensorI8& v) { return relu(p, v); });
        }
        case OpKind::Rsqrt:
            return run(prepare_rsqrt(x, y),
                       [](const RsqrtParams& p, const TensorI8& v) { return rsqrt(p, v); });
        default: throw std::logic_error("not an element-wise operator");
    }
}

// TFLite's Prepare takes int8 inputs of the output's quantization only.
Value Evaluation::pack() const {
    const PackParams p = prepare_pack(input_shapes(m_, op_), op_.axis);
    const QuantParams y = quant_params(out());
    for (size_t i = 0; i < op_.inputs.size(); ++i) {
        const QuantParams x = quant_params(in(i));
        if (x.scale != y.scale || x.zero_point != y.zero_point) {
            throw Error(fmt::format("pack: input {} is quantized (scale {}, zero point {}) unlike "
                                    "the output (scale {}, zero point {})", i, x.scale,
                                    x.zero_point, y.scale, y.zero_point));
        }
    }
    if (prepare_only_) return {};
    return Value::of(accel::pack(p, pointers_to(all_i8())));
}

// The binary element-wise operators that ADD and MUL do not cover, broadcasting alike.
Value Evaluation::binary() const {
    const QuantParams a = quant_params(in(0)), b = quant_params(in(1)), y = quant_params(out());
    // TFLite's 4-D broadcasting kernels (BroadcastAdd4DSlow, ...) take at most 4 dimensions.
    const bool four_d = op_.kind != OpKind::Maximum && op_.kind != OpKind::Minimum;
    if (four_d && in(0).shape != in(1).shape && out().shape.size() > 4) {
        throw Error(fmt::format("broadcasting over {} dimensions; TFLite's kernel takes at most 4",
                                out().shape.size()));
    }
    switch (op_.kind) {
        case OpKind::Sub: {
            const AddParams p = prepare_sub(a, b, y, fused_activation(op_.activation));
            if (prepare_only_) return {};
            return Value::of(add(p, i8(0), i8(1)));
        }
        case OpKind::Maximum:
        case OpKind::Minimum:
            if (prepare_only_) return {};
            return Value::of(op_.kind == OpKind::Maximum ? maximum(i8(0), i8(1)) : minimum(i8(0), i8(1)));
        case OpKind::SquaredDifference: {
            const SquaredDifferenceParams p = prepare_squared_difference(a, b, y);
            if (prepare_only_) return {};
            return Value::of(squared_difference(p, i8(0), i8(1)));
        }
        case OpKind::Prelu: {
            const PreluParams p = prepare_prelu(a, b, y);
            if (prepare_only_) return {};
            return Value::of(prelu(p, i8(0), i8(1)));
        }
        default: throw std::logic_error("not a binary operator");
    }
}

// The operators that copy values into another shape: the quantization stays.
Value Evaluation::data_mover() const {
    const auto ints = [&](size_t i) { return constant_ints(in(i)); };
    switch (op_.kind) {
        case OpKind::Reshape:
        case OpKind::Squeeze:
        case OpKind::ExpandDims: {
            if (prepare_only_) return {};
            TensorI8 y = i8(0);
            y.shape = out().shape;
            return Value::of(std::move(y));
        }
        case OpKind::Transpose: {
            const TransposeParams p = prepare_transpose(in(0).shape, ints(1));
            if (prepare_only_) return {};
            return Value::of(transpose(p, i8(0)));
        }
        case OpKind::Slice: {
            const StridedSliceParams p = prepare_slice(in(0).shape, ints(1), ints(2));
            if (prepare_only_) return {};
            return Value::of(strided_slice(p, i8(0)));
        }
        default: throw std::logic_error("not a data mover");
    }
}

// SPLIT, SPLIT_V and UNPACK: one value per output.
std::vector<Value> Evaluation::split() const {
    const auto ints = [&](size_t i) { return constant_ints(in(i)); };
    const SplitParams p =
        op_.kind == OpKind::Split    ? prepare_split(in(1).shape, ints(0).at(0), op_.num)
        : op_.kind == OpKind::SplitV ? prepare_split_v(in(0).shape, ints(1), ints(2).at(0), op_.num)
                                     : prepare_unpack(in(0).shape, op_.axis, op_.num);
    if (prepare_only_) return {};
    std::vector<Value> values;
    for (TensorI8& t : accel::split(p, i8(op_.kind == OpKind::Split ? 1 : 0))) {
        values.push_back(Value::of(std::move(t)));
    }
    return values;
}

std::vector<Value> Evaluation::run() const {
    if (op_.kind == OpKind::Split || op_.kind == OpKind::SplitV || op_.kind == OpKind::Unpack) {
        return split();
    }
    return {run_one()};
}

Value Evaluation::run_one() const {
    // Shapes: folded into constants before the model runs (reference/constant_folding.hpp).
    if (out().type == graph::DType::Int32) {
        if (!prepare_only_) {
            throw std::logic_error(fmt::format("operator {}: a folded shape is not evaluated",
                                               op_.index));
        }
        return {};
    }
    switch (op_.kind) {
        case OpKind::Conv2d: return conv();
        case OpKind::FullyConnected: return fully_connected();
        case OpKind::DepthwiseConv2d: return depthwise();
        case OpKind::Add: {
            const AddParams p = add_params(m_, op_);
            if (prepare_only_) return {};
            return Value::of(add(p, i8(0), i8(1)));
        }
        case OpKind::MaxPool2d:
        case OpKind::AveragePool2d: return pool();
        case OpKind::Mean: {
            std::vector<int> axes;
            for (int64_t a : constant_ints(in(1))) axes.push_back(static_cast<int>(a));
            const MeanParams p = prepare_mean(in(0).shape.size(), axes, op_.keep_dims,
                                              quant_params(in(0)), quant_params(out()));
            if (prepare_only_) return {};
            TensorI8 y = mean(p, i8(0));
            y.shape = out().shape;
            return Value::of(std::move(y));
        }
        case OpKind::Pad: {
            const std::vector<int64_t> flat = pad_amounts(m_, op_);
            std::vector<std::array<int64_t, 2>> pairs;
            for (size_t i = 0; i + 1 < flat.size(); i += 2) pairs.push_back({flat[i], flat[i + 1]});
            const PadParams p = prepare_pad(pairs, quant_params(out()));
            if (prepare_only_) return {};
            return Value::of(pad(p, i8(0)));
        }
        case OpKind::Reshape:
        case OpKind::Squeeze:
        case OpKind::ExpandDims:
        case OpKind::Transpose:
        case OpKind::Slice: return data_mover();
        case OpKind::Softmax: {
            const SoftmaxParams p = prepare_softmax(op_.beta, quant_params(in(0)), quant_params(out()));
            if (prepare_only_) return {};
            return Value::of(softmax(p, i8(0)));
        }
        case OpKind::Quantize: {
            if (in(0).type == graph::DType::Float32) {
                const QuantParams q = quant_params(out());
                if (prepare_only_) return {};
                return Value::of(quantize(q, inputs_.at(0)->as_f32()));
            }
            const RequantizeParams p = prepare_requantize(quant_params(in(0)), quant_params(out()));
            if (prepare_only_) return {};
            return Value::of(requantize(p, i8(0)));
        }
        case OpKind::Dequantize: {
            const QuantParams q = quant_params(in(0));
            if (prepare_only_) return {};
            return Value::of(dequantize(q, i8(0)));
        }
        case OpKind::Concatenation: return concatenation();
        case OpKind::Shape: throw std::logic_error("SHAPE writes int32");
        case OpKind::StridedSlice: {
            const StridedSliceParams p =
                prepare_strided_slice(in(0).shape, strided_slice_options(m_, op_));
            if (prepare_only_) return {};
            return Value::of(strided_slice(p, i8(0)));
        }
        case OpKind::Pack: return pack();
        case OpKind::Logistic:
        case OpKind::Tanh:
        case OpKind::HardSwish:
        case OpKind::LeakyRelu: return elementwise();
        case OpKind::Mul: {
            const MulParams p = prepare_mul(quant_params(in(0)), quant_params(in(1)),
                                            quant_params(out()), fused_activation(op_.activation));
            if (prepare_only_) return {};
            return Value::of(mul(p, i8(0), i8(1)));
        }
        case OpKind::ResizeNearestNeighbor: {
            const std::vector<int64_t>& y = out().shape;
            const ResizeNearestParams p = prepare_resize_nearest(
                in(0).shape, y.at(1), y.at(2), op_.align_corners, op_.half_pixel_centers);
            if (prepare_only_) return {};
            return Value::of(resize_nearest(p, i8(0)));
        }
        case OpKind::Sub:
        case OpKind::Maximum:
        case OpKind::Minimum:
        case OpKind::SquaredDifference:
        case OpKind::Prelu: return binary();
        case OpKind::Abs:
        case OpKind::Relu:
        case OpKind::Relu6:
        case OpKind::ReluN1To1:
        case OpKind::Exp:
        case OpKind::Rsqrt: return elementwise();
        case OpKind::Split:
        case OpKind::SplitV:
        case OpKind::Unpack: throw std::logic_error("an operator of several outputs");
    }
    throw Error("unknown operator kind");
}

}  // namespace

namespace {

std::vector<Value> evaluate_or_prepare(const Model& model, const Operator& op,
                                       const std::vector<const Value*>& inputs, bool prepare_only,
                                       Match match) {
    try {
        return Evaluation(model, op, inputs, prepare_only, match).run();
    } catch (const Error& e) {
        throw Error(fmt::format("operator {} ({}): {}", op.index, graph::op_kind_name(op.kind),
                                e.what()));
    }
}

}  // namespace

std::vector<Value> evaluate(const Model& model, const Operator& op,
                            const std::vector<const Value*>& inputs, Match match) {
    return evaluate_or_prepare(model, op, inputs, false, match);
}

void prepare(const Model& model, const Operator& op) {
    evaluate_or_prepare(model, op, {}, true, Match::ref);
}

}  // namespace accel::reference
