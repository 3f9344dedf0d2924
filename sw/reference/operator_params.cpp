#include "reference/operator_params.hpp"

#include <cstring>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/text.hpp"
#include "ops/conv_quant.hpp"

namespace accel::reference {
namespace {

using graph::DType;
using graph::Model;
using graph::Operator;
using graph::TensorDesc;

template <typename T>
std::vector<T> constant_values(const TensorDesc& t, DType type) {
    if (t.type != type || !t.is_constant()) {
        throw Error(fmt::format("tensor '{}': expected a {} constant", printable(t.name),
                                graph::dtype_name(type)));
    }
    if (t.data.size() != static_cast<size_t>(t.element_count()) * sizeof(T)) {
        throw Error(fmt::format("tensor '{}': {} bytes of data for {} elements", printable(t.name),
                                t.data.size(), t.element_count()));
    }
    std::vector<T> v(t.data.size() / sizeof(T));
    std::memcpy(v.data(), t.data.data(), t.data.size());  // little-endian host
    return v;
}

}  // namespace

FusedActivation fused_activation(graph::Activation a) {
    switch (a) {
        case graph::Activation::None: return FusedActivation::None;
        case graph::Activation::Relu: return FusedActivation::Relu;
        case graph::Activation::Relu6: return FusedActivation::Relu6;
        case graph::Activation::ReluN1To1: return FusedActivation::ReluN1To1;
    }
    return FusedActivation::None;
}

Padding padding_kind(graph::Padding p) {
    return p == graph::Padding::Same ? Padding::Same : Padding::Valid;
}

QuantParams quant_params(const TensorDesc& t) {
    if (t.quant.empty()) throw Error(fmt::format("tensor '{}' has no quantization", printable(t.name)));
    return {t.quant.scale.at(0), t.quant.zero_point.at(0)};
}

TensorI8 constant_i8(const TensorDesc& t) {
    TensorI8 out;
    out.shape = t.shape;
    out.data = constant_values<int8_t>(t, DType::Int8);
    return out;
}

std::vector<int32_t> constant_i32(const TensorDesc& t) {
    return constant_values<int32_t>(t, DType::Int32);
}

std::vector<int64_t> constant_ints(const TensorDesc& t) {
    if (t.type == DType::Int64) return constant_values<int64_t>(t, DType::Int64);
    const std::vector<int32_t> v = constant_values<int32_t>(t, DType::Int32);
    return {v.begin(), v.end()};
}

StridedSliceOptions strided_slice_options(const Model& m, const Operator& op) {
    return {.begin = constant_ints(m.tensor(op.inputs.at(1))),
            .end = constant_ints(m.tensor(op.inputs.at(2))),
            .strides = constant_ints(m.tensor(op.inputs.at(3))),
            .begin_mask = op.begin_mask,
            .end_mask = op.end_mask,
            .ellipsis_mask = op.ellipsis_mask,
            .new_axis_mask = op.new_axis_mask,
            .shrink_axis_mask = op.shrink_axis_mask,
            .offset = op.slice_offset};
}

std::vector<std::vector<int64_t>> input_shapes(const Model& m, const Operator& op) {
    std::vector<std::vector<int64_t>> shapes;
    for (const int t : op.inputs) shapes.push_back(m.tensor(t).shape);
    return shapes;
}

std::vector<int64_t> pad_amounts(const Model& m, const Operator& pad) {
    return constant_ints(m.tensor(pad.inputs.at(1)));
}

ConvGeometry conv_geometry(const Model& m, const Operator& conv) {
    const TensorDesc& x = m.tensor(conv.inputs[0]);
    const TensorDesc& w = m.tensor(conv.inputs[1]);  // [K,R,S,C]
    const WindowPadding p = compute_padding(padding_kind(conv.padding), x.shape[1],
        x.shape[2], w.shape[1], w.shape[2], conv.stride_h, conv.stride_w, conv.dilation_h,
        conv.dilation_w);
    return {p.pad_top, p.pad_bottom, p.pad_left, p.pad_right};
}

TensorI8 weights_hwio(const TensorI8& w, int64_t r, int64_t s, int64_t c) {
    const int64_t k_n = w.shape[0], rsc = r * s * c;
    TensorI8 out({r, s, c, k_n});
    for (int64_t k = 0; k < k_n; ++k)
        for (int64_t i = 0; i < rsc; ++i) {
            out.data[static_cast<size_t>(i * k_n + k)] = w.data[static_cast<size_t>(k * rsc + i)];
        }
    return out;
}

TensorI8 conv_weights_hwio(const Model& m, const Operator& conv) {
    const TensorI8 w = constant_i8(m.tensor(conv.inputs[1]));  // [K,R,S,C]
    return weights_hwio(w, w.shape[1], w.shape[2], w.shape[3]);
}

Requant conv_requant(const Model& m, const Operator& op) {
    const TensorDesc& x = m.tensor(op.inputs[0]);
    const TensorDesc& w = m.tensor(op.inputs[1]);
    const TensorDesc& y = m.tensor(op.outputs[0]);  // [N,OH,OW,K]: K channels
    const ChannelRequantization q = prepare_conv_requantization(
        x.quant.scale.at(0), w.quant.scale, y.quant.scale.at(0), y.shape.back());
    const ActivationRange r =
        activation_range(fused_activation(op.activation), y.quant.scale.at(0),
                         static_cast<int32_t>(y.quant.zero_point.at(0)));
    return {q.multiplier, q.shift, r.min, r.max};
}

std::vector<int32_t> conv_bias(const Model& m, const Operator& op, int64_t k) {
    if (op.inputs.size() < 3 || op.inputs[2] < 0) {
        return std::vector<int32_t>(static_cast<size_t>(k), 0);
    }
    std::vector<int32_t> b = constant_i32(m.tensor(op.inputs[2]));
    if (static_cast<int64_t>(b.size()) != k) {
        throw Error(fmt::format("bias has {} values for {} output channels", b.size(), k));
    }
    return b;
}

AddParams add_params(const graph::Model& m, const graph::Operator& add) {
    return prepare_add(quant_params(m.tensor(add.inputs.at(0))),
                       quant_params(m.tensor(add.inputs.at(1))),
                       quant_params(m.tensor(add.outputs.at(0))), fused_activation(add.activation));
}

Conv2dLayer window_layer(const Model& m, const Operator& op, Match match) {
    const TensorDesc& x = m.tensor(op.inputs[0]);
    const TensorDesc& y = m.tensor(op.outputs[0]);
    const TensorDesc& w = m.tensor(op.inputs[1]);  // CONV_2D [K,R,S,C], depthwise [1,R,S,C*M]
    Conv2dLayer l;
    l.shape = {x.shape[0], x.shape[1], x.shape[2], 1, 1, w.shape[1], w.shape[2]};
    const ConvGeometry g = conv_geometry(m, op);
    l.params.stride_h = op.stride_h;
    l.params.stride_w = op.stride_w;
    l.params.dilation_h = op.dilation_h;
    l.params.dilation_w = op.dilation_w;
    l.params.pad_top = static_cast<int>(g.pad_top);
    l.params.pad_bottom = static_cast<int>(g.pad_bottom);
    l.params.pad_left = static_cast<int>(g.pad_left);
    l.params.pad_right = static_cast<int>(g.pad_right);
    const Requant q = conv_requant(m, op);
    l.params.input_zero_point = static_cast<int>(x.quant.zero_point.at(0));
    l.params.output_zero_point = static_cast<int>(y.quant.zero_point.at(0));
    l.params.multiplier = q.multiplier;
    l.params.shift = q.shift;
    l.params.act_min = q.act_min;
    l.params.act_max = q.act_max;
    l.params.round_up = final_shift_rounds_up(match, op.kind);
    return l;
}

bool final_shift_rounds_up(Match match, graph::OpKind kind) {
    if (match != Match::opt) return false;
    return kind == graph::OpKind::Conv2d || kind == graph::OpKind::FullyConnected ||
           kind == graph::OpKind::DepthwiseConv2d;
}

bool fully_connected_fixed_point(Match match) { return match == Match::opt; }

Conv2dOperator conv2d_operator(const Model& m, const Operator& conv, Match match) {
    Conv2dOperator c{window_layer(m, conv, match), conv_weights_hwio(m, conv), {}};
    c.layer.shape.c = m.tensor(conv.inputs[0]).shape[3];
    c.layer.shape.k = c.weights.shape[3];
    c.bias = conv_bias(m, conv, c.layer.shape.k);
    validate(c.layer);
    return c;
}

}  // namespace accel::reference
