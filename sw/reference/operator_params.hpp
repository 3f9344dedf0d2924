// A model's operators as the golden operators (ops/) take them: constants, enums and
// quantization, and how a CONV_2D reads as the kit's conv2d layer: weights from TFLite's
// [K,R,S,C] into [R,S,C,K], SAME/VALID into explicit padding, float scales into
// per-channel multipliers and shifts, fused activations into a clamp — each as TFLite's
// Prepare computes it.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"
#include "graph/model.hpp"
#include "ops/activation.hpp"
#include "ops/add.hpp"
#include "ops/conv2d.hpp"
#include "ops/match.hpp"
#include "ops/padding.hpp"
#include "ops/quant_params.hpp"
#include "ops/strided_slice.hpp"

namespace accel::reference {

// A constant tensor's values; accel::Error when it is not a constant of that type.
TensorI8 constant_i8(const graph::TensorDesc& t);
std::vector<int32_t> constant_i32(const graph::TensorDesc& t);
std::vector<int64_t> constant_ints(const graph::TensorDesc& t);  // int32 or int64

// The model's enums and quantization as ops/ takes them.
FusedActivation fused_activation(graph::Activation a);
Padding padding_kind(graph::Padding p);
QuantParams quant_params(const graph::TensorDesc& t);  // per-tensor: the first entry

// STRIDED_SLICE's begin, end and strides (constants by now) and masks.
StridedSliceOptions strided_slice_options(const graph::Model& m, const graph::Operator& op);

// The shapes of every input of `op` (PACK's).
std::vector<std::vector<int64_t>> input_shapes(const graph::Model& m, const graph::Operator& op);

// PAD's paddings, [before, after] per dimension, flattened.
std::vector<int64_t> pad_amounts(const graph::Model& m, const graph::Operator& pad);

struct ConvGeometry {
    int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
};
// The explicit padding of a CONV_2D's SAME or VALID.
ConvGeometry conv_geometry(const graph::Model& m, const graph::Operator& conv);

TensorI8 conv_weights_hwio(const graph::Model& m, const graph::Operator& conv);
// Weights [K, R*S*C...] (each row flattened in R, S, C order) as [R,S,C,K].
TensorI8 weights_hwio(const TensorI8& w, int64_t r, int64_t s, int64_t c);

struct Requant {
    std::vector<int32_t> multiplier, shift;  // per output channel
    int act_min = -128, act_max = 127;
};
// Per output channel (CONV_2D and DEPTHWISE_CONV_2D): input scale * filter scale /
// output scale as TFLite's QuantizeMultiplier; the fused activation as TFLite's quantized
// activation range.
Requant conv_requant(const graph::Model& m, const graph::Operator& op);

// An ADD's rescalings and activation range, as TFLite's Prepare computes them.
AddParams add_params(const graph::Model& m, const graph::Operator& add);

// The int32 bias of K output channels (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED);
// zeros when the operator has none. accel::Error when it is no int32 constant of K values.
std::vector<int32_t> conv_bias(const graph::Model& m, const graph::Operator& op, int64_t k);

// What a CONV_2D and a DEPTHWISE_CONV_2D share as conv2d layers reading their own input:
// the window, the zero points, the requantization and the activation. The caller sets
// the channels, weights and bias.
// `match` picks the final shift's rounding (final_shift_rounds_up).
Conv2dLayer window_layer(const graph::Model& m, const graph::Operator& op,
                         Match match = Match::ref);

// Whether, to match `match`, operator `kind`'s fixed-point requantization rounds its
// final shift's ties upward (ops/quant.hpp, mbqm_up): what LiteRT's optimized kernels do
// on x86-64 (ruy's GEMM: CONV_2D, FULLY_CONNECTED); the rest round as the reference
// kernels do (docs/semantics.md, "Matching a runtime").
bool final_shift_rounds_up(Match match, graph::OpKind kind);

// Whether, to match `match`, FULLY_CONNECTED requantizes with Prepare's fixed-point
// multiplier and shift (LiteRT's optimized kernel) rather than the reference kernel's
// double scale (ops/fully_connected.hpp).
bool fully_connected_fixed_point(Match match);

// A CONV_2D as the conv2d that ops/ computes, validated.
struct Conv2dOperator {
    Conv2dLayer layer;
    TensorI8 weights;           // [R,S,C,K]
    std::vector<int32_t> bias;  // K values (zeros when the model has none)
};
Conv2dOperator conv2d_operator(const graph::Model& m, const graph::Operator& conv,
                               Match match = Match::ref);

}  // namespace accel::reference
