// TFLite flatbuffer -> graph IR, with the checks listed in tflite_reader.hpp.
//
// The accessors come from tflite_schema.fbs, compiled by flatc at build time. Nothing is
// read before VerifyModelBuffer has succeeded, so every offset, string and vector is in
// bounds; what is left to check here is meaning: indices into the model's tables,
// types, quantization and options.
#include "formats/tflite_reader.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "formats/tflite_schema_generated.h"

namespace accel {
namespace {

namespace fb = accel::tflite;
using graph::Activation;
using graph::DType;
using graph::OpKind;
using graph::Padding;

// A flatbuffer addresses at most 2 GiB; bigger TFLite models keep their buffers
// outside it, which we do not support.
constexpr size_t kMaxModelBytes = FLATBUFFERS_MAX_BUFFER_SIZE;

[[noreturn]] void fail(const std::string& message) { throw Error(message); }

// Makes untrusted bytes safe to quote in a one-line message.
std::string printable(std::span<const uint8_t> bytes) {
    std::string out;
    for (const uint8_t c : bytes) {
        if (c >= 0x20 && c < 0x7f && c != '\'') {
            out += static_cast<char>(c);
        } else {
            out += fmt::format("\\x{:02x}", c);
        }
    }
    return out;
}

std::string printable(const flatbuffers::String* s) {
    return s ? printable({s->Data(), s->size()}) : std::string{};
}

// TFLite's name of a tensor type, lower case as NumPy spells dtypes ("float16").
std::string type_name(fb::TensorType t) {
    std::string name = fb::EnumNameTensorType(t);
    if (name.empty()) return fmt::format("type {}", static_cast<int>(t));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return name;
}

DType dtype(fb::TensorType t) {
    switch (t) {
        case fb::TensorType_INT8: return DType::Int8;
        case fb::TensorType_UINT8: return DType::UInt8;
        case fb::TensorType_INT16: return DType::Int16;
        case fb::TensorType_INT32: return DType::Int32;
        case fb::TensorType_INT64: return DType::Int64;
        case fb::TensorType_FLOAT32: return DType::Float32;
        case fb::TensorType_BOOL: return DType::Bool;
        default: return DType::Other;
    }
}

std::string operator_name(int32_t code) {
    const char* name = fb::EnumNameBuiltinOperator(static_cast<fb::BuiltinOperator>(code));
    return *name != '\0' ? name : fmt::format("BUILTIN_{}", code);
}

std::optional<OpKind> op_kind(int32_t code) {
    switch (code) {
        case fb::BuiltinOperator_CONV_2D: return OpKind::Conv2d;
        case fb::BuiltinOperator_DEPTHWISE_CONV_2D: return OpKind::DepthwiseConv2d;
        case fb::BuiltinOperator_FULLY_CONNECTED: return OpKind::FullyConnected;
        case fb::BuiltinOperator_ADD: return OpKind::Add;
        case fb::BuiltinOperator_MAX_POOL_2D: return OpKind::MaxPool2d;
        case fb::BuiltinOperator_AVERAGE_POOL_2D: return OpKind::AveragePool2d;
        case fb::BuiltinOperator_MEAN: return OpKind::Mean;
        case fb::BuiltinOperator_PAD: return OpKind::Pad;
        case fb::BuiltinOperator_RESHAPE: return OpKind::Reshape;
        case fb::BuiltinOperator_SOFTMAX: return OpKind::Softmax;
        case fb::BuiltinOperator_QUANTIZE: return OpKind::Quantize;
        case fb::BuiltinOperator_DEQUANTIZE: return OpKind::Dequantize;
        case fb::BuiltinOperator_CONCATENATION: return OpKind::Concatenation;
        case fb::BuiltinOperator_SHAPE: return OpKind::Shape;
        case fb::BuiltinOperator_STRIDED_SLICE: return OpKind::StridedSlice;
        case fb::BuiltinOperator_PACK: return OpKind::Pack;
        case fb::BuiltinOperator_LOGISTIC: return OpKind::Logistic;
        case fb::BuiltinOperator_TANH: return OpKind::Tanh;
        case fb::BuiltinOperator_HARD_SWISH: return OpKind::HardSwish;
        case fb::BuiltinOperator_LEAKY_RELU: return OpKind::LeakyRelu;
        case fb::BuiltinOperator_MUL: return OpKind::Mul;
        case fb::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR: return OpKind::ResizeNearestNeighbor;
        case fb::BuiltinOperator_SUB: return OpKind::Sub;
        case fb::BuiltinOperator_MAXIMUM: return OpKind::Maximum;
        case fb::BuiltinOperator_MINIMUM: return OpKind::Minimum;
        case fb::BuiltinOperator_SQUARED_DIFFERENCE: return OpKind::SquaredDifference;
        case fb::BuiltinOperator_PRELU: return OpKind::Prelu;
        case fb::BuiltinOperator_ABS: return OpKind::Abs;
        case fb::BuiltinOperator_RELU: return OpKind::Relu;
        case fb::BuiltinOperator_RELU6: return OpKind::Relu6;
        case fb::BuiltinOperator_RELU_N1_TO_1: return OpKind::ReluN1To1;
        case fb::BuiltinOperator_EXP: return OpKind::Exp;
        case fb::BuiltinOperator_RSQRT: return OpKind::Rsqrt;
        case fb::BuiltinOperator_SQUEEZE: return OpKind::Squeeze;
        case fb::BuiltinOperator_EXPAND_DIMS: return OpKind::ExpandDims;
        case fb::BuiltinOperator_TRANSPOSE: return OpKind::Transpose;
        case fb::BuiltinOperator_SLICE: return OpKind::Slice;
        case fb::BuiltinOperator_SPLIT: return OpKind::Split;
        case fb::BuiltinOperator_SPLIT_V: return OpKind::SplitV;
        case fb::BuiltinOperator_UNPACK: return OpKind::Unpack;
        default: return std::nullopt;
    }
}

std::string options_name(fb::BuiltinOptions type) {
    const char* name = fb::EnumNameBuiltinOptions(type);
    return *name != '\0' ? name : fmt::format("options type {}", static_cast<int>(type));
}

// Copies a vector of scalars. By memcpy: the verifier checks the alignment of a vector's
// length, not of its elements, so a damaged file may hold misaligned int64s.
template <typename T>
std::vector<T> to_vector(const flatbuffers::Vector<T>* v) {
    static_assert(std::endian::native == std::endian::little, "flatbuffers are little-endian");
    std::vector<T> out(v ? v->size() : 0);
    if (!out.empty()) std::memcpy(out.data(), v->Data(), out.size() * sizeof(T));
    return out;
}

// The tensors of the subgraph, each checked on its own.
class TensorReader {
public:
    TensorReader(const fb::Model& model, const std::string& where)
        : buffers_(model.buffers()), where_(where) {}

    graph::TensorDesc read(const fb::Tensor& t) {
        graph::TensorDesc out;
        out.name = t.name() ? t.name()->str() : "";
        out.type = dtype(t.type());
        read_shape(t, out);
        read_quantization(t, out);
        if (t.sparsity()) fail_here("sparse tensors are not supported");
        if (t.external_buffer() != 0) fail_here("external buffers are not supported");
        read_data(t, out);
        return out;
    }

private:
    [[noreturn]] void fail_here(const std::string& what) const {
        fail(fmt::format("{}: {}", where_, what));
    }

    void read_shape(const fb::Tensor& t, graph::TensorDesc& out) const {
        for (const int32_t d : to_vector(t.shape())) out.shape.push_back(d);
        int64_t count = 1;
        for (const int64_t d : out.shape) {
            if (d < 0) fail_here(fmt::format("shape [{}] has an unknown dimension; "
                                             "only static shapes are supported",
                                             fmt::join(out.shape, ",")));
            // The product of the non-zero dimensions, saturating past the limit: then no
            // product of dimensions, in any order, overflows.
            constexpr int64_t limit = graph::kMaxTensorElements;
            if (d > 0) count = count > limit / d ? limit + 1 : count * d;
        }
        if (count > graph::kMaxTensorElements) {
            fail_here(fmt::format("shape [{}] is too large", fmt::join(out.shape, ",")));
        }
    }

    void read_quantization(const fb::Tensor& t, graph::TensorDesc& out) const {
        const fb::QuantizationParameters* q = t.quantization();
        if (!q) return;
        if (q->details_type() != fb::QuantizationDetails_NONE) {
            fail_here("quantization other than scale and zero point is not supported");
        }
        graph::Quantization& quant = out.quant;
        quant.scale = to_vector(q->scale());
        quant.zero_point = to_vector(q->zero_point());
        quant.axis = q->quantized_dimension();
        if (quant.scale.size() != quant.zero_point.size()) {
            fail_here(fmt::format("quantization has {} scales and {} zero points",
                                  quant.scale.size(), quant.zero_point.size()));
        }
        // TFLite checks the quantized dimension of every tensor with scales, per tensor too
        // (a scalar's only when per channel).
        const auto rank = static_cast<int32_t>(out.shape.size());
        if (!quant.empty() && (rank > 0 || quant.per_channel()) &&
            (quant.axis < 0 || quant.axis >= rank)) {
            fail_here(fmt::format("quantized dimension {} is out of range for rank {}",
                                  quant.axis, rank));
        }
        if (quant.per_channel()) {
            const int64_t channels = out.shape[static_cast<size_t>(quant.axis)];
            if (static_cast<int64_t>(quant.scale.size()) != channels) {
                fail_here(fmt::format("{} scales for {} channels along dimension {}",
                                      quant.scale.size(), channels, quant.axis));
            }
        }
        if (out.type != DType::Int8) return;
        for (const float s : quant.scale) {
            if (!std::isfinite(s) || s <= 0.0f) {
                fail_here(fmt::format("quantization scale {} is not positive", s));
            }
        }
        for (const int64_t zp : quant.zero_point) {
            if (zp < -128 || zp > 127) {
                fail_here(fmt::format("zero point {} is out of the int8 range", zp));
            }
        }
    }

    void read_data(const fb::Tensor& t, graph::TensorDesc& out) const {
        const uint32_t index = t.buffer();
        const uint32_t count = buffers_ ? buffers_->size() : 0;
        if (index == 0 && count == 0) return;  // no buffer table: nothing is constant
        if (index >= count) {
            fail_here(fmt::format("buffer {} is out of range (the model has {} buffers)",
                                  index, count));
        }
        const fb::Buffer* buffer = buffers_->Get(index);
        out.data = to_vector(buffer->data());
        const size_t element_size = graph::dtype_size(out.type);
        const auto expected = static_cast<size_t>(out.element_count()) * element_size;
        if (out.is_constant() && element_size != 0 && out.data.size() != expected) {
            fail_here(fmt::format("buffer {} holds {} bytes; its {} shape [{}] needs {}", index,
                                  out.data.size(), graph::dtype_name(out.type),
                                  fmt::join(out.shape, ","), expected));
        }
    }

    const flatbuffers::Vector<flatbuffers::Offset<fb::Buffer>>* buffers_;
    std::string where_;
};

// One operator: its kind, operands and options, checked against what the kit runs.
class OperatorReader {
public:
    OperatorReader(const fb::Operator& op, int index, OpKind kind, std::string where,
                   const graph::Model& model, const std::vector<std::string>& type_names)
        : op_(op), where_(std::move(where)), model_(model), type_names_(type_names) {
        out_.index = index;
        out_.kind = kind;
        out_.inputs = to_vector(op.inputs());
        out_.outputs = to_vector(op.outputs());
    }

    graph::Operator read() {
        check_indices();
        switch (out_.kind) {
            case OpKind::Conv2d: read_conv(); break;
            case OpKind::DepthwiseConv2d: read_depthwise(); break;
            case OpKind::FullyConnected: read_fully_connected(); break;
            case OpKind::Add: read_add(); break;
            case OpKind::MaxPool2d:
            case OpKind::AveragePool2d: read_pool(); break;
            case OpKind::Mean: read_mean(); break;
            case OpKind::Pad:
                expect_inputs(2, 2);
                activation_input(0);
                int_constant(1, "paddings");
                break;
            case OpKind::Reshape:
                // The new shape: a shape vector, else ReshapeOptions (reference/model_check.hpp).
                expect_inputs(1, 2);
                data_input(0);
                if (out_.inputs.size() == 2) shape_input(1, "shape");
                read_reshape_options();
                break;
            case OpKind::Softmax: read_softmax(); break;
            case OpKind::Quantize:
                expect_inputs(1, 1);
                activation_input(0, /*float_allowed=*/true);
                break;
            case OpKind::Dequantize:
                expect_inputs(1, 1);
                activation_input(0);
                break;
            case OpKind::Concatenation: read_concatenation(); break;
            case OpKind::Shape:
                expect_inputs(1, 1);  // any tensor: only its shape is read
                options<fb::ShapeOptions>(false);
                break;
            case OpKind::StridedSlice: read_strided_slice(); break;
            case OpKind::Pack: read_pack(); break;
            case OpKind::Logistic:
            case OpKind::Tanh:
            case OpKind::HardSwish:
                expect_inputs(1, 1);
                activation_input(0);
                if (out_.kind == OpKind::HardSwish) options<fb::HardSwishOptions>(false);
                break;
            case OpKind::LeakyRelu:
                expect_inputs(1, 1);
                activation_input(0);
                out_.alpha = options<fb::LeakyReluOptions>(true)->alpha();
                break;
            case OpKind::Mul:
                expect_inputs(2, 2);
                activation_input(0);
                activation_input(1);
                if (const auto* o = options<fb::MulOptions>(false)) {
                    out_.activation = activation(o->fused_activation_function());
                }
                break;
            case OpKind::ResizeNearestNeighbor:
                expect_inputs(2, 2);
                activation_input(0);
                expect_rank("input", out_.inputs[0], 4);
                int_constant(1, "size");
                if (const auto* o = options<fb::ResizeNearestNeighborOptions>(false)) {
                    out_.align_corners = o->align_corners();
                    out_.half_pixel_centers = o->half_pixel_centers();
                }
                break;
            case OpKind::Sub:
                binary_inputs();
                if (const auto* o = options<fb::SubOptions>(false)) {
                    out_.activation = activation(o->fused_activation_function());
                }
                break;
            case OpKind::Maximum:
            case OpKind::Minimum:
                binary_inputs();
                options<fb::MaximumMinimumOptions>(false);
                break;
            case OpKind::SquaredDifference:
                binary_inputs();
                options<fb::SquaredDifferenceOptions>(false);
                break;
            case OpKind::Prelu: binary_inputs(); break;  // the input, then alpha
            case OpKind::Abs:
            case OpKind::Relu:
            case OpKind::Relu6:
            case OpKind::ReluN1To1:
            case OpKind::Exp:
            case OpKind::Rsqrt:
                expect_inputs(1, 1);
                activation_input(0);
                if (out_.kind == OpKind::Abs) options<fb::AbsOptions>(false);
                if (out_.kind == OpKind::Exp) options<fb::ExpOptions>(false);
                break;
            case OpKind::Squeeze:
                expect_inputs(1, 1);
                activation_input(0);
                if (const auto* o = options<fb::SqueezeOptions>(false)) {
                    out_.squeeze_dims = to_vector(o->squeeze_dims());
                }
                break;
            case OpKind::ExpandDims:
            case OpKind::Transpose:
                expect_inputs(2, 2);
                activation_input(0);
                if (out_.kind == OpKind::Transpose) {
                    int_constant(1, "perm");
                    options<fb::TransposeOptions>(false);
                } else {
                    int_constant(1, "axis");
                    options<fb::ExpandDimsOptions>(false);
                }
                break;
            case OpKind::Slice:
                expect_inputs(3, 3);
                activation_input(0);
                int_constant(1, "begin");
                int_constant(2, "size");
                options<fb::SliceOptions>(false);
                break;
            case OpKind::Split:  // TFLite's order: the axis first
                expect_inputs(2, 2);
                int_constant(0, "axis");
                activation_input(1);
                out_.num = options<fb::SplitOptions>(true)->num_splits();
                break;
            case OpKind::SplitV:
                expect_inputs(3, 3);
                activation_input(0);
                int_constant(1, "size_splits");
                int_constant(2, "axis");
                out_.num = options<fb::SplitVOptions>(true)->num_splits();
                break;
            case OpKind::Unpack: {
                expect_inputs(1, 1);
                activation_input(0);
                const auto* o = options<fb::UnpackOptions>(true);
                out_.num = o->num();
                out_.axis = o->axis();
                break;
            }
        }
        expect_outputs();
        output(output_type());
        return out_;
    }

private:
    [[noreturn]] void fail_here(const std::string& what) const {
        fail(fmt::format("{}: {}", where_, what));
    }

    // Only the bias (input 2 of a conv, depthwise or fully connected) may be omitted.
    bool bias_slot(size_t slot) const {
        return slot == 2 && (out_.kind == OpKind::Conv2d ||
                             out_.kind == OpKind::DepthwiseConv2d ||
                             out_.kind == OpKind::FullyConnected);
    }

    void check_indices() const {
        const auto n = static_cast<int>(model_.tensors.size());
        for (size_t i = 0; i < out_.inputs.size(); ++i) {
            const int t = out_.inputs[i];
            if (t == -1 && bias_slot(i)) continue;
            if (t < 0 || t >= n) {
                fail_here(fmt::format("input {} refers to tensor {}, which does not exist "
                                      "(the model has {} tensors)", i, t, n));
            }
        }
        if (!several_outputs() && out_.outputs.size() != 1) {
            fail_here(fmt::format("has {} outputs; expected 1", out_.outputs.size()));
        }
        for (const int t : out_.outputs) {
            if (t < 0 || t >= n) {
                fail_here(fmt::format("output refers to tensor {}, which does not exist "
                                      "(the model has {} tensors)", t, n));
            }
        }
    }

    bool several_outputs() const {
        return out_.kind == OpKind::Split || out_.kind == OpKind::SplitV ||
               out_.kind == OpKind::Unpack;
    }

    // SPLIT, SPLIT_V and UNPACK: as many outputs as their options say.
    void expect_outputs() const {
        if (!several_outputs()) return;
        if (out_.num < 1) fail_here(fmt::format("num {} must be at least 1", out_.num));
        if (out_.outputs.size() != static_cast<size_t>(out_.num)) {
            fail_here(fmt::format("has {} outputs; its options say {}", out_.outputs.size(),
                                  out_.num));
        }
    }

    // Two int8 operands (the binary element-wise operators).
    void binary_inputs() const {
        expect_inputs(2, 2);
        activation_input(0);
        activation_input(1);
    }

    void expect_inputs(size_t lo, size_t hi) const {
        const size_t n = out_.inputs.size();
        if (n >= lo && n <= hi) return;
        const std::string expected = lo == hi ? fmt::format("{}", lo)
                                     : hi == SIZE_MAX ? fmt::format("at least {}", lo)
                                                      : fmt::format("{} or {}", lo, hi);
        fail_here(fmt::format("has {} inputs; expected {}", n, expected));
    }

    const graph::TensorDesc& tensor(int index) const {
        return model_.tensors[static_cast<size_t>(index)];
    }
    const std::string& type_of(int index) const {
        return type_names_[static_cast<size_t>(index)];
    }

    void int8_quantized(const char* role, int index) const {
        const graph::Quantization& q = tensor(index).quant;
        if (q.empty()) {
            fail_here(fmt::format("{} tensor {} is int8 without quantization parameters",
                                  role, index));
        }
    }

    void activation_input(size_t slot, bool float_allowed = false) const {
        const int index = out_.inputs[slot];
        const graph::TensorDesc& t = tensor(index);
        if (float_allowed && t.type == DType::Float32) return;
        if (t.type != DType::Int8) {
            fail_here(fmt::format("input tensor {} is {}; only int8 activations are supported",
                                  index, type_of(index)));
        }
        int8_quantized("input", index);
        per_tensor("input", index);
    }

    // Shapes are int32 tensors computed at compile time (reference/constant_folding.hpp):
    // SHAPE writes one, and the operators that move data may move int32 shapes too.
    bool int32_shape(int index) const { return tensor(index).type == DType::Int32; }

    // The data an operator moves: an int8 activation, or an int32 shape.
    void data_input(size_t slot) const {
        if (!int32_shape(out_.inputs[slot])) activation_input(slot);
    }

    // A shape vector, begin, end or strides: an int32 constant, or an int32 tensor
    // computed from shapes and constants (folded before the model runs).
    void shape_input(size_t slot, const char* role) const {
        const int index = out_.inputs[slot];
        if (tensor(index).is_constant() || !int32_shape(index)) {
            int_constant(slot, role);
        }
    }

    DType output_type() const {
        switch (out_.kind) {
            case OpKind::Dequantize: return DType::Float32;
            case OpKind::Shape: return DType::Int32;
            case OpKind::Reshape:
            case OpKind::StridedSlice:
            case OpKind::Pack:
            case OpKind::Concatenation:
                return int32_shape(out_.inputs[0]) ? DType::Int32 : DType::Int8;
            default: return DType::Int8;
        }
    }

    void per_tensor(const char* role, int index) const {
        if (tensor(index).quant.per_channel()) {
            fail_here(fmt::format("{} tensor {} is quantized per channel; only weights may be",
                                  role, index));
        }
    }

    void output(DType expected) const {
        for (const int index : out_.outputs) output(index, expected);
    }

    void output(int index, DType expected) const {
        const graph::TensorDesc& t = tensor(index);
        if (t.type != expected) {
            fail_here(fmt::format("output tensor {} is {}; {}", index, type_of(index),
                                  expected == DType::Int8    ? "only int8 activations are supported"
                                  : expected == DType::Int32 ? "expected int32, as its input"
                                                             : "DEQUANTIZE must write float32"));
        }
        if (t.is_constant()) fail_here(fmt::format("output tensor {} is a constant", index));
        if (expected == DType::Int8) {
            int8_quantized("output", index);
            per_tensor("output", index);
        }
    }

    // Tensor `index`, checked to be a constant of `type`; `role` names it in messages and
    // `supported` says what is ("int8 weights").
    const graph::TensorDesc& typed_constant(int index, const char* role, DType type,
                                            const char* supported) const {
        const graph::TensorDesc& t = tensor(index);
        if (t.type != type) {
            fail_here(fmt::format("{} tensor {} is {}; only {} are supported", role, index,
                                  type_of(index), supported));
        }
        if (!t.is_constant()) fail_here(fmt::format("{} tensor {} is not a constant", role, index));
        return t;
    }

    // Conv, depthwise and fully connected weights: symmetric int8 constants, per
    // channel along the output channels (`channel_axis`) or per tensor.
    void weights(size_t slot, size_t rank, int32_t channel_axis) const {
        const int index = out_.inputs[slot];
        const graph::TensorDesc& t = typed_constant(index, "weights", DType::Int8, "int8 weights");
        if (t.shape.size() != rank) {
            fail_here(fmt::format("weights tensor {} has rank {}; expected {}", index,
                                  t.shape.size(), rank));
        }
        int8_quantized("weights", index);
        for (const int64_t zp : t.quant.zero_point) {
            if (zp != 0) {
                fail_here(fmt::format("weights tensor {} has zero point {}; only symmetric "
                                      "(zero point 0) weights are supported", index, zp));
            }
        }
        if (t.quant.per_channel() && t.quant.axis != channel_axis) {
            fail_here(fmt::format("weights tensor {} is quantized along dimension {}; "
                                  "expected {} (output channels)",
                                  index, t.quant.axis, channel_axis));
        }
    }

    // An optional int32 constant with one value per output channel.
    void bias(size_t slot, int64_t channels) const {
        if (out_.inputs.size() <= slot || out_.inputs[slot] == -1) return;
        const int index = out_.inputs[slot];
        const graph::TensorDesc& t = typed_constant(index, "bias", DType::Int32, "int32 biases");
        if (t.element_count() != channels) {
            fail_here(fmt::format("bias tensor {} has {} values for {} output channels", index,
                                  t.element_count(), channels));
        }
    }

    // Shapes, paddings and axes: int32 or int64 constants. An empty one has no buffer
    // and is constant all the same.
    void int_constant(size_t slot, const char* role) const {
        const int index = out_.inputs[slot];
        const graph::TensorDesc& t = tensor(index);
        const bool integer = t.type == DType::Int32 || t.type == DType::Int64;
        if (!integer || !(t.is_constant() || t.element_count() == 0)) {
            fail_here(fmt::format("{} tensor {} must be an int32 or int64 constant (it is {}{})",
                                  role, index, t.is_constant() ? "" : "a computed ",
                                  type_of(index)));
        }
    }

    void expect_rank(const char* role, int index, size_t rank) const {
        if (tensor(index).shape.size() != rank) {
            fail_here(fmt::format("{} tensor {} has rank {}; expected {}", role, index,
                                  tensor(index).shape.size(), rank));
        }
    }

    // The options table of this operator's kind; nullptr when absent and not required.
    // Required where TFLite's defaults do not describe a working operator (stride 0).
    template <typename Options>
    const Options* options(bool required) const {
        const fb::BuiltinOptions expected = fb::BuiltinOptionsTraits<Options>::enum_value;
        const fb::BuiltinOptions type = op_.builtin_options_type();
        if (type != fb::BuiltinOptions_NONE && type != expected) {
            fail_here(fmt::format("has {}; expected {}", options_name(type),
                                  options_name(expected)));
        }
        const auto* options = type == expected
                                  ? static_cast<const Options*>(op_.builtin_options())
                                  : nullptr;
        if (!options && required) fail_here(fmt::format("missing {}", options_name(expected)));
        return options;
    }

    Activation activation(fb::ActivationFunctionType f) const {
        switch (f) {
            case fb::ActivationFunctionType_NONE: return Activation::None;
            case fb::ActivationFunctionType_RELU: return Activation::Relu;
            case fb::ActivationFunctionType_RELU6: return Activation::Relu6;
            case fb::ActivationFunctionType_RELU_N1_TO_1: return Activation::ReluN1To1;
            default: break;
        }
        const std::string name = fb::EnumNameActivationFunctionType(f);
        fail_here(fmt::format("fused activation {} is not supported",
                              name.empty() ? fmt::format("{}", static_cast<int>(f)) : name));
    }

    Padding padding(fb::Padding p) const {
        if (p == fb::Padding_SAME) return Padding::Same;
        if (p == fb::Padding_VALID) return Padding::Valid;
        fail_here(fmt::format("padding {} is not supported", static_cast<int>(p)));
    }

    int positive(int value, const char* what) const {
        if (value < 1) fail_here(fmt::format("{} {} must be at least 1", what, value));
        return value;
    }

    // Conv and depthwise share their operands: NHWC input, 4-D weights, optional bias.
    void conv_operands(int32_t channel_axis) {
        expect_inputs(2, 3);
        activation_input(0);
        expect_rank("input", out_.inputs[0], 4);
        expect_rank("output", out_.outputs[0], 4);
        weights(1, 4, channel_axis);
        bias(2, tensor(out_.outputs[0]).shape[3]);
    }

    // The required options of a sliding-window operator (Conv2D, DepthwiseConv2D, Pool2D),
    // with its padding and strides read; the caller reads the rest.
    template <typename WindowOptions>
    const WindowOptions* window_options() {
        const auto* o = options<WindowOptions>(true);
        out_.padding = padding(o->padding());
        out_.stride_h = positive(o->stride_h(), "stride_h");
        out_.stride_w = positive(o->stride_w(), "stride_w");
        return o;
    }

    // The padding, strides and dilations of a convolution's options.
    template <typename ConvOptions>
    const ConvOptions* conv_options() {
        const auto* o = window_options<ConvOptions>();
        out_.dilation_h = positive(o->dilation_h_factor(), "dilation_h");
        out_.dilation_w = positive(o->dilation_w_factor(), "dilation_w");
        return o;
    }

    void read_conv() {
        conv_operands(0);  // OHWI weights
        const auto* o = conv_options<fb::Conv2DOptions>();
        out_.activation = activation(o->fused_activation_function());
    }

    void read_depthwise() {
        conv_operands(3);  // 1HWO weights
        const auto* o = conv_options<fb::DepthwiseConv2DOptions>();
        out_.depth_multiplier = o->depth_multiplier();
        out_.activation = activation(o->fused_activation_function());
    }

    void read_fully_connected() {
        expect_inputs(2, 3);
        activation_input(0);
        weights(1, 2, 0);  // [outputs, inputs]
        bias(2, tensor(out_.inputs[1]).shape[0]);
        if (const auto* o = options<fb::FullyConnectedOptions>(false)) {
            if (o->weights_format() != fb::FullyConnectedOptionsWeightsFormat_DEFAULT) {
                const std::string name =
                    fb::EnumNameFullyConnectedOptionsWeightsFormat(o->weights_format());
                fail_here(fmt::format("weights format {} is not supported",
                                      name.empty() ? fmt::format("{}", static_cast<int>(
                                                                           o->weights_format()))
                                                   : name));
            }
            out_.activation = activation(o->fused_activation_function());
            out_.keep_num_dims = o->keep_num_dims();
        }
    }

    void read_add() {
        expect_inputs(2, 2);
        activation_input(0);
        activation_input(1);
        if (const auto* o = options<fb::AddOptions>(false)) {
            out_.activation = activation(o->fused_activation_function());
        }
    }

    void read_pool() {
        expect_inputs(1, 1);
        activation_input(0);
        expect_rank("input", out_.inputs[0], 4);
        const auto* o = window_options<fb::Pool2DOptions>();
        out_.filter_h = positive(o->filter_height(), "filter_height");
        out_.filter_w = positive(o->filter_width(), "filter_width");
        out_.activation = activation(o->fused_activation_function());
    }

    void read_mean() {
        expect_inputs(2, 2);
        activation_input(0);
        int_constant(1, "axis");
        if (const auto* o = options<fb::ReducerOptions>(false)) out_.keep_dims = o->keep_dims();
    }

    void read_softmax() {
        expect_inputs(1, 1);
        activation_input(0);
        out_.beta = options<fb::SoftmaxOptions>(true)->beta();
    }

    void read_reshape_options() {
        const auto* o = options<fb::ReshapeOptions>(false);
        if (o && o->new_shape()) {
            const std::vector<int32_t> s = to_vector(o->new_shape());
            out_.new_shape = std::vector<int64_t>(s.begin(), s.end());
        }
    }

    void read_strided_slice() {
        expect_inputs(4, 4);
        data_input(0);
        shape_input(1, "begin");
        shape_input(2, "end");
        shape_input(3, "strides");
        if (const auto* o = options<fb::StridedSliceOptions>(false)) {
            out_.begin_mask = o->begin_mask();
            out_.end_mask = o->end_mask();
            out_.ellipsis_mask = o->ellipsis_mask();
            out_.new_axis_mask = o->new_axis_mask();
            out_.shrink_axis_mask = o->shrink_axis_mask();
            out_.slice_offset = o->offset();
        }
    }

    // Inputs all of the first one's type (int8 or int32).
    void same_type_inputs() const {
        for (size_t i = 0; i < out_.inputs.size(); ++i) {
            data_input(i);
            if (int32_shape(out_.inputs[i]) != int32_shape(out_.inputs[0])) {
                fail_here(fmt::format("input tensor {} is {}; input tensor {} is {}",
                                      out_.inputs[i], type_of(out_.inputs[i]), out_.inputs[0],
                                      type_of(out_.inputs[0])));
            }
        }
    }

    void read_pack() {
        expect_inputs(1, SIZE_MAX);
        same_type_inputs();
        const auto* o = options<fb::PackOptions>(true);
        if (o->values_count() != static_cast<int>(out_.inputs.size())) {
            fail_here(fmt::format("values_count {} differs from its {} inputs", o->values_count(),
                                  out_.inputs.size()));
        }
        out_.axis = o->axis();
    }

    void read_concatenation() {
        expect_inputs(1, SIZE_MAX);
        same_type_inputs();
        if (const auto* o = options<fb::ConcatenationOptions>(false)) {
            out_.axis = o->axis();
            // TFLite's Prepare takes no fused activation here.
            if (activation(o->fused_activation_function()) != Activation::None) {
                fail_here(fmt::format("fused activation {} is not supported",
                                      fb::EnumNameActivationFunctionType(
                                          o->fused_activation_function())));
            }
        }
    }

    const fb::Operator& op_;
    std::string where_;
    const graph::Model& model_;
    const std::vector<std::string>& type_names_;
    graph::Operator out_;
};

[[noreturn]] void invalid(const std::string& why) {
    fail(fmt::format("not a valid TFLite flatbuffer ({})", why));
}

void verify(std::span<const uint8_t> bytes) {
    if (bytes.size() > kMaxModelBytes) invalid("larger than 2 GiB");
    if (bytes.size() < 8) invalid(fmt::format("{} bytes is too short", bytes.size()));
    if (!fb::ModelBufferHasIdentifier(bytes.data())) {
        invalid(fmt::format("file identifier '{}', expected '{}'",
                            printable(bytes.subspan(4, 4)), fb::ModelIdentifier()));
    }
    flatbuffers::Verifier verifier(bytes.data(), bytes.size());
    if (!fb::VerifyModelBuffer(verifier)) invalid("the flatbuffer verifier rejects it");
}

std::vector<int> graph_tensors(const flatbuffers::Vector<int32_t>* indices, const char* role,
                               size_t tensor_count) {
    std::vector<int> out = to_vector(indices);
    for (const int t : out) {
        if (t < 0 || static_cast<size_t>(t) >= tensor_count) {
            fail(fmt::format("graph {} tensor {} does not exist (the model has {} tensors)",
                             role, t, tensor_count));
        }
    }
    return out;
}

graph::Model read_model(const fb::Model& fbm) {
    const auto* subgraphs = fbm.subgraphs();
    if (!subgraphs || subgraphs->size() == 0) fail("the model has no subgraph");
    if (subgraphs->size() != 1) {
        fail(fmt::format("the model has {} subgraphs; only single-subgraph models are "
                         "supported (no control flow or multiple signatures)",
                         subgraphs->size()));
    }
    if (const auto* buffers = fbm.buffers()) {
        for (uint32_t i = 0; i < buffers->size(); ++i) {
            if (buffers->Get(i)->offset() > 1) {
                fail(fmt::format("buffer {} is stored outside the flatbuffer (a model over "
                                 "2 GiB); not supported", i));
            }
        }
    }
    const fb::SubGraph& sg = *subgraphs->Get(0);

    graph::Model model;
    std::vector<std::string> type_names;
    if (const auto* tensors = sg.tensors()) {
        for (uint32_t i = 0; i < tensors->size(); ++i) {
            const fb::Tensor& t = *tensors->Get(i);
            TensorReader reader(fbm, fmt::format("tensor {} ({})", i, printable(t.name())));
            model.tensors.push_back(reader.read(t));
            type_names.push_back(type_name(t.type()));
        }
    }
    model.inputs = graph_tensors(sg.inputs(), "input", model.tensors.size());
    model.outputs = graph_tensors(sg.outputs(), "output", model.tensors.size());
    // A run's result is its outputs: a model without one has nothing to give back.
    if (model.outputs.empty()) fail("the model has no outputs (subgraph 0 lists none)");

    const auto* codes = fbm.operator_codes();
    if (const auto* ops = sg.operators()) {
        for (uint32_t i = 0; i < ops->size(); ++i) {
            const fb::Operator& op = *ops->Get(i);
            const uint32_t opcode = op.opcode_index();
            if (!codes || opcode >= codes->size()) {
                fail(fmt::format("operator {}: operator code {} does not exist", i, opcode));
            }
            // TFLite keeps codes < 127 in the old byte field too; the larger one counts.
            const fb::OperatorCode& code = *codes->Get(opcode);
            const int32_t builtin = std::max<int32_t>(code.builtin_code(),
                                                      code.deprecated_builtin_code());
            const std::string where = fmt::format("operator {} ({})", i, operator_name(builtin));
            if (builtin == fb::BuiltinOperator_CUSTOM) {
                fail(fmt::format("{}: custom operator '{}' is not supported", where,
                                 printable(code.custom_code())));
            }
            const std::optional<OpKind> kind = op_kind(builtin);
            if (!kind) fail(where + ": not supported");
            OperatorReader reader(op, static_cast<int>(i), *kind, where, model, type_names);
            model.operators.push_back(reader.read());
        }
    }
    return model;
}

}  // namespace

graph::Model parse_tflite(std::span<const uint8_t> bytes) {
    // Flatbuffer accessors load scalars in place: give them an aligned copy if needed.
    std::vector<uint8_t> aligned;
    if (reinterpret_cast<uintptr_t>(bytes.data()) % alignof(std::max_align_t) != 0) {
        aligned.assign(bytes.begin(), bytes.end());
        bytes = aligned;
    }
    verify(bytes);
    return read_model(*fb::GetModel(bytes.data()));
}

graph::Model read_tflite(const std::string& path) {
    // Refuse before reading a file no flatbuffer can be.
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxModelBytes) {
        fail(fmt::format("{}: not a valid TFLite flatbuffer (larger than 2 GiB)", path));
    }
    const std::string bytes = read_file(path);
    try {
        return parse_tflite({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}", path, e.what()));
    }
}

}  // namespace accel
