// The TFLite reader: models built here with the flatc-generated builder of our schema
// round-trip into the graph IR; every model the kit cannot run is rejected with one line
// naming the operator, its TFLite type and what is wrong; damaged files are caught by
// the flatbuffers verifier and never crash the reader.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "formats/tflite_reader.hpp"
#include "formats/tflite_schema_generated.h"
#include "graph/model.hpp"
#include "temp_dir.hpp"

namespace fb = accel::tflite;
using accel::graph::Activation;
using accel::graph::DType;
using accel::graph::OpKind;
using accel::graph::Padding;

namespace {

struct Quant {
    std::vector<float> scale{};
    std::vector<int64_t> zero_point{};
    int32_t axis = 0;
};

struct TensorSpec {
    std::vector<int32_t> shape{};
    fb::TensorType type = fb::TensorType_INT8;
    std::optional<Quant> quant = Quant{{0.5f}, {-3}};
    std::vector<uint8_t> data{};       // non-empty: a constant
    std::optional<uint32_t> buffer{};  // overrides the buffer index
    bool sparse = false;
    uint32_t external_buffer = 0;
    bool custom_quantization = false;
    std::string name = "t";
};

std::vector<uint8_t> pattern(size_t n, int seed = 1) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i * 37 + seed * 11);
    return v;
}

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
    std::vector<uint8_t> out(values.size() * sizeof(T));
    std::memcpy(out.data(), values.data(), out.size());
    return out;
}

// Lays out a TFLite model as the converter does: buffer 0 empty, one buffer per
// constant, operator codes deduplicated with the byte-sized legacy code filled in.
class ModelBuilder {
public:
    ModelBuilder() { buffers_.push_back(fb::CreateBuffer(fbb)); }

    flatbuffers::FlatBufferBuilder fbb;

    int tensor(const TensorSpec& s) {
        uint32_t buffer = 0;
        if (!s.data.empty()) {
            buffer = static_cast<uint32_t>(buffers_.size());
            buffers_.push_back(fb::CreateBufferDirect(fbb, &s.data));
        }
        flatbuffers::Offset<fb::QuantizationParameters> quant = 0;
        if (s.quant) {
            quant = fb::CreateQuantizationParametersDirect(
                fbb, nullptr, nullptr, &s.quant->scale, &s.quant->zero_point,
                s.custom_quantization ? fb::QuantizationDetails_CustomQuantization
                                      : fb::QuantizationDetails_NONE,
                s.custom_quantization ? fb::CreateCustomQuantization(fbb).Union() : 0,
                s.quant->axis);
        }
        const auto sparsity = s.sparse ? fb::CreateSparsityParameters(fbb) : 0;
        tensors_.push_back(fb::CreateTensorDirect(fbb, &s.shape, s.type, s.buffer.value_or(buffer),
                                                  s.name.c_str(), quant, false, sparsity,
                                                  nullptr, false, nullptr, s.external_buffer));
        return static_cast<int>(tensors_.size() - 1);
    }

    // An int8 activation (scale 0.5, zero point -3), or an unquantized tensor.
    int act(std::vector<int32_t> shape, fb::TensorType type = fb::TensorType_INT8) {
        TensorSpec s{.shape = std::move(shape), .type = type};
        if (type != fb::TensorType_INT8) s.quant.reset();
        return tensor(s);
    }

    // Symmetric int8 weights, per channel along `axis` when `scales` has several.
    int weights(std::vector<int32_t> shape, std::vector<float> scales, int32_t axis = 0) {
        size_t n = 1;
        for (const int32_t d : shape) n *= static_cast<size_t>(d);
        const std::vector<int64_t> zero_points(scales.size(), 0);
        return tensor({.shape = std::move(shape),
                       .quant = Quant{std::move(scales), zero_points, axis},
                       .data = pattern(n, 2)});
    }

    int bias(int32_t n) {
        std::vector<int32_t> values(static_cast<size_t>(n));
        for (int32_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = 1000 * i - 7;
        return tensor({.shape = {n},
                       .type = fb::TensorType_INT32,
                       .quant = std::nullopt,
                       .data = bytes_of(values)});
    }

    int ints(const std::vector<int32_t>& values, std::vector<int32_t> shape = {}) {
        if (shape.empty()) shape = {static_cast<int32_t>(values.size())};
        return tensor({.shape = std::move(shape),
                       .type = fb::TensorType_INT32,
                       .quant = std::nullopt,
                       .data = bytes_of(values)});
    }

    // The operator code for `code` (deduplicated); `deprecated` overrides the byte field.
    uint32_t opcode(int32_t code, const std::string& custom = "",
                    std::optional<int8_t> deprecated = std::nullopt) {
        const auto key = std::make_pair(code, custom + std::to_string(deprecated.value_or(-1)));
        if (const auto it = opcodes_.find(key); it != opcodes_.end()) return it->second;
        const auto legacy = deprecated.value_or(static_cast<int8_t>(std::min(code, 127)));
        codes_.push_back(fb::CreateOperatorCodeDirect(
            fbb, legacy, custom.empty() ? nullptr : custom.c_str(), 1,
            static_cast<fb::BuiltinOperator>(code)));
        const auto index = static_cast<uint32_t>(codes_.size() - 1);
        opcodes_.emplace(key, index);
        return index;
    }

    void op_at(uint32_t opcode_index, const std::vector<int32_t>& in,
               const std::vector<int32_t>& out,
               fb::BuiltinOptions type = fb::BuiltinOptions_NONE,
               flatbuffers::Offset<void> options = 0) {
        ops_.push_back(fb::CreateOperatorDirect(fbb, opcode_index, &in, &out, type, options));
    }

    void op(int32_t code, const std::vector<int32_t>& in, const std::vector<int32_t>& out,
            fb::BuiltinOptions type = fb::BuiltinOptions_NONE,
            flatbuffers::Offset<void> options = 0) {
        op_at(opcode(code), in, out, type, options);
    }

    // A buffer kept outside the flatbuffer, as models over 2 GiB have.
    void external_buffer() { buffers_.push_back(fb::CreateBuffer(fbb, 0, 4096, 16)); }

    std::vector<uint8_t> finish(const std::vector<int32_t>& inputs,
                                const std::vector<int32_t>& outputs, int subgraphs = 1) {
        const auto sg = fb::CreateSubGraphDirect(fbb, &tensors_, &inputs, &outputs, &ops_, "main");
        const std::vector<flatbuffers::Offset<fb::SubGraph>> sgs(static_cast<size_t>(subgraphs),
                                                                  sg);
        const auto model = fb::CreateModelDirect(fbb, 3, &codes_, &sgs, "test", &buffers_);
        fb::FinishModelBuffer(fbb, model);
        return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
    }

private:
    std::vector<flatbuffers::Offset<fb::Buffer>> buffers_;
    std::vector<flatbuffers::Offset<fb::Tensor>> tensors_;
    std::vector<flatbuffers::Offset<fb::OperatorCode>> codes_;
    std::vector<flatbuffers::Offset<fb::Operator>> ops_;
    std::map<std::pair<int32_t, std::string>, uint32_t> opcodes_;
};

// One operator (its opcode added by `opcode`) from a [1,4] activation to another, that
// tensor listed `outputs` times as the operator's outputs: a model for the checks that
// need no particular operands.
std::vector<uint8_t> lone_operator(const std::function<uint32_t(ModelBuilder&)>& opcode,
                                   size_t outputs = 1) {
    ModelBuilder b;
    const int in = b.act({1, 4});
    const int out = b.act({1, 4});
    b.op_at(opcode(b), {in}, std::vector<int32_t>(outputs, out));
    return b.finish({in}, {out});
}

std::vector<uint8_t> lone_operator(int32_t code, size_t outputs = 1) {
    return lone_operator([code](ModelBuilder& b) { return b.opcode(code); }, outputs);
}

flatbuffers::Offset<void> conv_options(
    ModelBuilder& b, fb::ActivationFunctionType act = fb::ActivationFunctionType_NONE,
    fb::Padding padding = fb::Padding_SAME) {
    return fb::CreateConv2DOptions(b.fbb, padding, 1, 1, act).Union();
}

// input [1,4,4,2] -> CONV_2D 3x3 (3 channels, bias) -> output [1,4,4,3].
std::vector<uint8_t> single_conv(fb::ActivationFunctionType act = fb::ActivationFunctionType_NONE) {
    ModelBuilder b;
    const int in = b.act({1, 4, 4, 2});
    const int w = b.weights({3, 3, 3, 2}, {0.1f, 0.2f, 0.3f});
    const int bias = b.bias(3);
    const int out = b.act({1, 4, 4, 3});
    b.op(fb::BuiltinOperator_CONV_2D, {in, w, bias}, {out}, fb::BuiltinOptions_Conv2DOptions,
         conv_options(b, act));
    return b.finish({in}, {out});
}

// The conv + add + softmax network of the round-trip test.
std::vector<uint8_t> conv_add_softmax() {
    ModelBuilder b;
    const int in = b.tensor({.shape = {1, 4, 4, 2}, .quant = Quant{{0.5f}, {-1}}, .name = "input"});
    const int w = b.weights({3, 3, 3, 2}, {0.1f, 0.2f, 0.3f});
    const int bias = b.bias(3);
    const int conv =
        b.tensor({.shape = {1, 4, 2, 3}, .quant = Quant{{0.25f}, {3}}, .name = "conv"});
    const int skip = b.act({1, 4, 2, 3});
    const int sum = b.act({1, 4, 2, 3});
    const int shape = b.ints({8, 3});
    const int flat = b.act({8, 3});
    const int probs = b.tensor(
        {.shape = {8, 3}, .quant = Quant{{1.0f / 256}, {-128}}, .name = "probs"});
    b.op(fb::BuiltinOperator_CONV_2D, {in, w, bias}, {conv}, fb::BuiltinOptions_Conv2DOptions,
         fb::CreateConv2DOptions(b.fbb, fb::Padding_SAME, 2, 1,
                                 fb::ActivationFunctionType_RELU6, 1, 1)
             .Union());
    b.op(fb::BuiltinOperator_ADD, {conv, skip}, {sum}, fb::BuiltinOptions_AddOptions,
         fb::CreateAddOptions(b.fbb, fb::ActivationFunctionType_RELU).Union());
    b.op(fb::BuiltinOperator_RESHAPE, {sum, shape}, {flat});
    b.op(fb::BuiltinOperator_SOFTMAX, {flat}, {probs}, fb::BuiltinOptions_SoftmaxOptions,
         fb::CreateSoftmaxOptions(b.fbb, 1.0f).Union());
    return b.finish({in, skip}, {probs});
}

std::string error_of(const std::vector<uint8_t>& bytes) {
    try {
        accel::parse_tflite(bytes);
    } catch (const accel::Error& e) {
        return e.what();
    }
    return "<no accel::Error thrown>";
}

testing::AssertionResult rejected_with(const std::vector<uint8_t>& bytes,
                                       const std::string& phrase) {
    const std::string msg = error_of(bytes);
    if (msg.find(phrase) != std::string::npos && msg.find('\n') == std::string::npos) {
        return testing::AssertionSuccess();
    }
    return testing::AssertionFailure() << "message \"" << msg << "\" lacks \"" << phrase << "\"";
}

using accel::testing_support::TempDir;

void write_raw(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
}

// ---- what a valid model reads as --------------------------------------------------------

// The options every sliding-window operator (conv, depthwise conv, pooling) reads.
void expect_window(const accel::graph::Operator& op, Padding padding, int stride_h,
                   int stride_w, Activation activation) {
    EXPECT_EQ(op.padding, padding);
    EXPECT_EQ(op.stride_h, stride_h);
    EXPECT_EQ(op.stride_w, stride_w);
    EXPECT_EQ(op.activation, activation);
}

TEST(TfliteReader, ConvAddSoftmaxRoundTrips) {
    const accel::graph::Model m = accel::parse_tflite(conv_add_softmax());
    ASSERT_EQ(m.tensors.size(), 9u);
    EXPECT_EQ(m.inputs, (std::vector<int>{0, 4}));
    EXPECT_EQ(m.outputs, (std::vector<int>{8}));

    const auto& in = m.tensor(0);
    EXPECT_EQ(in.name, "input");
    EXPECT_EQ(in.type, DType::Int8);
    EXPECT_EQ(in.shape, (std::vector<int64_t>{1, 4, 4, 2}));
    EXPECT_EQ(in.quant.scale, (std::vector<float>{0.5f}));
    EXPECT_EQ(in.quant.zero_point, (std::vector<int64_t>{-1}));
    EXPECT_FALSE(in.quant.per_channel());
    EXPECT_FALSE(in.is_constant());

    const auto& w = m.tensor(1);
    EXPECT_EQ(w.shape, (std::vector<int64_t>{3, 3, 3, 2}));
    EXPECT_TRUE(w.quant.per_channel());
    EXPECT_EQ(w.quant.scale, (std::vector<float>{0.1f, 0.2f, 0.3f}));
    EXPECT_EQ(w.quant.zero_point, (std::vector<int64_t>{0, 0, 0}));
    EXPECT_EQ(w.quant.axis, 0);
    EXPECT_EQ(w.data, pattern(54, 2));
    EXPECT_EQ(w.element_count(), 54);

    const auto& bias = m.tensor(2);
    EXPECT_EQ(bias.type, DType::Int32);
    EXPECT_TRUE(bias.quant.empty());
    EXPECT_EQ(bias.data, bytes_of(std::vector<int32_t>{-7, 993, 1993}));
    EXPECT_EQ(m.tensor(6).data, bytes_of(std::vector<int32_t>{8, 3}));
    EXPECT_EQ(m.tensor(8).quant.zero_point, (std::vector<int64_t>{-128}));
    EXPECT_FLOAT_EQ(m.tensor(8).quant.scale.at(0), 1.0f / 256);

    ASSERT_EQ(m.operators.size(), 4u);
    const auto& conv = m.operators[0];
    EXPECT_EQ(conv.index, 0);
    EXPECT_EQ(conv.kind, OpKind::Conv2d);
    EXPECT_EQ(conv.inputs, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(conv.outputs, (std::vector<int>{3}));
    expect_window(conv, Padding::Same, 1, 2, Activation::Relu6);
    EXPECT_EQ(conv.dilation_h, 1);
    EXPECT_EQ(conv.dilation_w, 1);

    EXPECT_EQ(m.operators[1].kind, OpKind::Add);
    EXPECT_EQ(m.operators[1].activation, Activation::Relu);
    EXPECT_EQ(m.operators[1].inputs, (std::vector<int>{3, 4}));
    EXPECT_EQ(m.operators[2].kind, OpKind::Reshape);
    EXPECT_EQ(m.operators[3].kind, OpKind::Softmax);
    EXPECT_EQ(m.operators[3].index, 3);
    EXPECT_FLOAT_EQ(m.operators[3].beta, 1.0f);

    EXPECT_STREQ(accel::graph::dtype_name(bias.type), "int32");
    EXPECT_STREQ(accel::graph::op_kind_name(conv.kind), "CONV_2D");
    EXPECT_STREQ(accel::graph::activation_name(conv.activation), "RELU6");
    EXPECT_THROW(m.tensor(9), accel::Error);
    EXPECT_THROW(m.tensor(-1), accel::Error);
}

TEST(TfliteReader, ReadsTheOptionsOfEveryOperatorKind) {
    ModelBuilder b;
    const int in = b.act({1, 8, 8, 4});
    const int dw_w = b.weights({1, 3, 3, 8}, std::vector<float>(8, 0.01f), 3);
    const int dw = b.act({1, 4, 4, 8});
    const int padded = b.act({1, 6, 6, 8});
    const int max = b.act({1, 3, 3, 8});
    const int avg = b.act({1, 2, 2, 8});
    const int cat = b.act({1, 2, 2, 16});
    const int mean = b.act({1, 16});
    const int fc_w = b.weights({10, 16}, {0.02f});
    const int fc = b.act({1, 10});
    const int deq = b.act({1, 10}, fb::TensorType_FLOAT32);
    const int fin = b.act({1, 10}, fb::TensorType_FLOAT32);
    const int req = b.act({1, 10});
    b.op(fb::BuiltinOperator_DEPTHWISE_CONV_2D, {in, dw_w, -1}, {dw},
         fb::BuiltinOptions_DepthwiseConv2DOptions,
         fb::CreateDepthwiseConv2DOptions(b.fbb, fb::Padding_VALID, 2, 2, 2,
                                          fb::ActivationFunctionType_RELU_N1_TO_1, 1, 1)
             .Union());
    b.op(fb::BuiltinOperator_PAD, {dw, b.ints({0, 0, 1, 1, 1, 1, 0, 0}, {4, 2})}, {padded},
         fb::BuiltinOptions_PadOptions, fb::CreatePadOptions(b.fbb).Union());
    b.op(fb::BuiltinOperator_MAX_POOL_2D, {padded}, {max}, fb::BuiltinOptions_Pool2DOptions,
         fb::CreatePool2DOptions(b.fbb, fb::Padding_VALID, 2, 2, 2, 2).Union());
    b.op(fb::BuiltinOperator_AVERAGE_POOL_2D, {max}, {avg}, fb::BuiltinOptions_Pool2DOptions,
         fb::CreatePool2DOptions(b.fbb, fb::Padding_SAME, 1, 2, 3, 2,
                                 fb::ActivationFunctionType_RELU)
             .Union());
    b.op(fb::BuiltinOperator_CONCATENATION, {avg, avg}, {cat},
         fb::BuiltinOptions_ConcatenationOptions,
         fb::CreateConcatenationOptions(b.fbb, -1).Union());
    b.op(fb::BuiltinOperator_MEAN, {cat, b.ints({1, 2})}, {mean},
         fb::BuiltinOptions_ReducerOptions, fb::CreateReducerOptions(b.fbb, false).Union());
    b.op(fb::BuiltinOperator_FULLY_CONNECTED, {mean, fc_w, b.bias(10)}, {fc},
         fb::BuiltinOptions_FullyConnectedOptions,
         fb::CreateFullyConnectedOptions(b.fbb, fb::ActivationFunctionType_RELU,
                                         fb::FullyConnectedOptionsWeightsFormat_DEFAULT, true)
             .Union());
    b.op(fb::BuiltinOperator_DEQUANTIZE, {fc}, {deq});
    b.op(fb::BuiltinOperator_QUANTIZE, {deq}, {req});  // float32 -> int8
    b.op(fb::BuiltinOperator_DEQUANTIZE, {req}, {fin});
    const accel::graph::Model m = accel::parse_tflite(b.finish({in}, {fin}));

    ASSERT_EQ(m.operators.size(), 10u);
    const auto& d = m.operators[0];
    EXPECT_EQ(d.kind, OpKind::DepthwiseConv2d);
    EXPECT_EQ(d.inputs, (std::vector<int>{in, dw_w, -1}));  // no bias
    expect_window(d, Padding::Valid, 2, 2, Activation::ReluN1To1);
    EXPECT_EQ(d.depth_multiplier, 2);
    EXPECT_EQ(m.tensor(dw_w).quant.axis, 3);
    EXPECT_EQ(m.operators[1].kind, OpKind::Pad);
    const auto& mp = m.operators[2];
    EXPECT_EQ(mp.kind, OpKind::MaxPool2d);
    expect_window(mp, Padding::Valid, 2, 2, Activation::None);
    EXPECT_EQ(mp.filter_h, 2);
    EXPECT_EQ(mp.filter_w, 2);
    const auto& ap = m.operators[3];
    EXPECT_EQ(ap.kind, OpKind::AveragePool2d);
    expect_window(ap, Padding::Same, 2, 1, Activation::Relu);
    EXPECT_EQ(ap.filter_w, 3);
    EXPECT_EQ(ap.filter_h, 2);
    EXPECT_EQ(m.operators[4].kind, OpKind::Concatenation);
    EXPECT_EQ(m.operators[4].axis, -1);
    EXPECT_EQ(m.operators[5].kind, OpKind::Mean);
    EXPECT_FALSE(m.operators[5].keep_dims);
    EXPECT_EQ(m.operators[6].kind, OpKind::FullyConnected);
    EXPECT_TRUE(m.operators[6].keep_num_dims);
    EXPECT_EQ(m.operators[6].activation, Activation::Relu);
    EXPECT_EQ(m.operators[7].kind, OpKind::Dequantize);
    EXPECT_EQ(m.operators[8].kind, OpKind::Quantize);
    EXPECT_EQ(m.tensor(fin).type, DType::Float32);
}

TEST(TfliteReader, ReadsReshapeOptionsAndRefusesActivatedConcatenations) {
    ModelBuilder b;
    const int in = b.act({2, 4});
    const int flat = b.act({8});
    const int cat = b.act({16});
    const std::vector<int32_t> new_shape{-1};
    b.op(fb::BuiltinOperator_RESHAPE, {in}, {flat}, fb::BuiltinOptions_ReshapeOptions,
         fb::CreateReshapeOptionsDirect(b.fbb, &new_shape).Union());
    b.op(fb::BuiltinOperator_CONCATENATION, {flat, flat}, {cat},
         fb::BuiltinOptions_ConcatenationOptions,
         fb::CreateConcatenationOptions(b.fbb, 0, fb::ActivationFunctionType_RELU).Union());
    EXPECT_TRUE(rejected_with(b.finish({in}, {cat}), "operator 1 (CONCATENATION): fused "
                                                     "activation RELU is not supported"));
    ModelBuilder r;
    const int in2 = r.act({2, 4});
    const int flat2 = r.act({8});
    r.op(fb::BuiltinOperator_RESHAPE, {in2}, {flat2}, fb::BuiltinOptions_ReshapeOptions,
         fb::CreateReshapeOptionsDirect(r.fbb, &new_shape).Union());
    const auto m = accel::parse_tflite(r.finish({in2}, {flat2}));
    EXPECT_EQ(m.operators.at(0).new_shape, std::vector<int64_t>{-1});
}

TEST(TfliteReader, TheLargerOfTheTwoOperatorCodesCounts) {
    // Models written before builtin_code existed carry only the byte-sized code.
    ModelBuilder b;
    const int in = b.act({1, 4});
    const int out = b.act({1, 4});
    const auto legacy = static_cast<int8_t>(fb::BuiltinOperator_SOFTMAX);
    b.op_at(b.opcode(fb::BuiltinOperator_ADD, "", legacy), {in}, {out},
            fb::BuiltinOptions_SoftmaxOptions, fb::CreateSoftmaxOptions(b.fbb, 0.5f).Union());
    const auto m = accel::parse_tflite(b.finish({in}, {out}));
    EXPECT_EQ(m.operators.at(0).kind, OpKind::Softmax);
    EXPECT_FLOAT_EQ(m.operators[0].beta, 0.5f);
}

// ---- operators the kit does not run --------------------------------------------------

TEST(TfliteReader, RejectsUnsupportedOperators) {
    {
        ModelBuilder b;
        const int in = b.act({1, 4});
        const int mid = b.act({1, 4});
        const int out = b.act({1, 4});
        b.op(fb::BuiltinOperator_SOFTMAX, {in}, {mid}, fb::BuiltinOptions_SoftmaxOptions,
             fb::CreateSoftmaxOptions(b.fbb, 1.0f).Union());
        b.op(fb::BuiltinOperator_ELU, {mid}, {out});
        EXPECT_TRUE(rejected_with(b.finish({in}, {out}), "operator 1 (ELU): not supported"));
    }
    // Codes past 127 live only in builtin_code (the byte holds the placeholder 127).
    EXPECT_TRUE(rejected_with(lone_operator(fb::BuiltinOperator_GELU),
                              "operator 0 (GELU): not supported"));
    EXPECT_TRUE(rejected_with(
        lone_operator([](ModelBuilder& b) { return b.opcode(fb::BuiltinOperator_CUSTOM, "MyOp"); }),
        "operator 0 (CUSTOM): custom operator 'MyOp' is not supported"));
    EXPECT_TRUE(rejected_with(lone_operator(100000),  // a code from the future
                              "operator 0 (BUILTIN_100000): not supported"));
}

TEST(TfliteReader, RejectsUnsupportedFusedActivations) {
    EXPECT_TRUE(rejected_with(single_conv(fb::ActivationFunctionType_TANH),
                              "operator 0 (CONV_2D): fused activation TANH is not supported"));
    EXPECT_TRUE(rejected_with(single_conv(fb::ActivationFunctionType_SIGN_BIT),
                              "operator 0 (CONV_2D): fused activation SIGN_BIT is not supported"));
    EXPECT_TRUE(rejected_with(single_conv(static_cast<fb::ActivationFunctionType>(42)),
                              "operator 0 (CONV_2D): fused activation 42 is not supported"));
    ModelBuilder b;
    const int x = b.act({1, 4});
    const int out = b.act({1, 4});
    b.op(fb::BuiltinOperator_ADD, {x, x}, {out}, fb::BuiltinOptions_AddOptions,
         fb::CreateAddOptions(b.fbb, fb::ActivationFunctionType_TANH).Union());
    EXPECT_TRUE(rejected_with(b.finish({x}, {out}),
                              "operator 0 (ADD): fused activation TANH is not supported"));
}

// An ADD whose inputs are `a` and `b` (tensor indices, possibly invalid) and whose
// output is `out`; tensors 0..2 exist.
std::vector<uint8_t> add_with(int a, int b_index, int out) {
    ModelBuilder b;
    const int x = b.act({1, 4});
    b.act({1, 4});
    b.act({1, 4});
    b.op(fb::BuiltinOperator_ADD, {a, b_index}, {out});
    return b.finish({x}, {2});
}

TEST(TfliteReader, RejectsTensorIndicesOutOfRange) {
    EXPECT_NO_THROW(accel::parse_tflite(add_with(0, 1, 2)));
    EXPECT_TRUE(rejected_with(add_with(0, 3, 2),
                              "operator 0 (ADD): input 1 refers to tensor 3, which does not "
                              "exist (the model has 3 tensors)"));
    EXPECT_TRUE(rejected_with(add_with(-1, 1, 2), "operator 0 (ADD): input 0 refers to tensor -1"));
    EXPECT_TRUE(rejected_with(add_with(0, -7, 2), "operator 0 (ADD): input 1 refers to tensor -7"));
    EXPECT_TRUE(rejected_with(add_with(0, 1, 3), "operator 0 (ADD): output refers to tensor 3"));
    EXPECT_TRUE(rejected_with(add_with(0, 1, -1), "operator 0 (ADD): output refers to tensor -1"));

    ModelBuilder b;  // only the bias may be omitted
    const int in = b.act({1, 4, 4, 2});
    const int out = b.act({1, 4, 4, 3});
    b.op(fb::BuiltinOperator_CONV_2D, {in, -1, -1}, {out}, fb::BuiltinOptions_Conv2DOptions,
         conv_options(b));
    EXPECT_TRUE(rejected_with(b.finish({in}, {out}),
                              "operator 0 (CONV_2D): input 1 refers to tensor -1"));
    ModelBuilder g;
    g.act({1, 4});
    EXPECT_TRUE(rejected_with(g.finish({0}, {1}), "graph output tensor 1 does not exist"));
    ModelBuilder h;
    h.act({1, 4});
    EXPECT_TRUE(rejected_with(h.finish({-1}, {0}), "graph input tensor -1 does not exist"));
    ModelBuilder none;  // a run gives back its outputs: without one it has nothing to give
    none.act({1, 4});
    EXPECT_TRUE(rejected_with(none.finish({0}, {}), "the model has no outputs"));
}

TEST(TfliteReader, RejectsActivationsThatAreNotInt8) {
    {
        ModelBuilder b;
        const int in = b.act({1, 4, 4, 2}, fb::TensorType_FLOAT32);
        const int w = b.weights({3, 3, 3, 2}, {0.1f});
        const int out = b.act({1, 4, 4, 3});
        b.op(fb::BuiltinOperator_CONV_2D, {in, w}, {out}, fb::BuiltinOptions_Conv2DOptions,
             conv_options(b));
        EXPECT_TRUE(rejected_with(b.finish({in}, {out}),
                                  "operator 0 (CONV_2D): input tensor 0 is float32; only int8 "
                                  "activations are supported"));
    }
    const auto unary = [](int32_t code, fb::TensorType in_type, fb::TensorType out_type) {
        ModelBuilder b;
        const int in = b.act({1, 4}, in_type);
        const int out = b.act({1, 4}, out_type);
        b.op(code, {in}, {out});
        return b.finish({in}, {out});
    };
    using fb::TensorType_FLOAT16, fb::TensorType_FLOAT32, fb::TensorType_INT16,
        fb::TensorType_INT8, fb::TensorType_UINT8;
    const int32_t quantize = fb::BuiltinOperator_QUANTIZE;
    const int32_t dequantize = fb::BuiltinOperator_DEQUANTIZE;
    // The error of each operator, input and output type; none where the model is read.
    const std::vector<std::tuple<int32_t, fb::TensorType, fb::TensorType, std::string>> cases = {
        {quantize, TensorType_UINT8, TensorType_INT8,
         "operator 0 (QUANTIZE): input tensor 0 is uint8"},
        {quantize, TensorType_FLOAT32, TensorType_INT16,
         "operator 0 (QUANTIZE): output tensor 1 is int16; only int8 activations are supported"},
        {dequantize, TensorType_FLOAT16, TensorType_FLOAT32,
         "operator 0 (DEQUANTIZE): input tensor 0 is float16"},
        {dequantize, TensorType_INT8, TensorType_INT8,
         "operator 0 (DEQUANTIZE): output tensor 1 is int8; DEQUANTIZE must write float32"},
        {quantize, TensorType_FLOAT32, TensorType_INT8, ""},
        {quantize, TensorType_INT8, TensorType_INT8, ""},
        {dequantize, TensorType_INT8, TensorType_FLOAT32, ""},
    };
    for (const auto& [code, in_type, out_type, error] : cases) {
        const std::vector<uint8_t> model = unary(code, in_type, out_type);
        if (error.empty()) {
            EXPECT_NO_THROW(accel::parse_tflite(model));
        } else {
            EXPECT_TRUE(rejected_with(model, error));
        }
    }

    ModelBuilder b;
    const int x = b.act({1, 4});
    const int y = b.act({1, 4}, fb::TensorType_INT16);
    const int out = b.act({1, 4});
    b.op(fb::BuiltinOperator_CONCATENATION, {x, y}, {out});
    EXPECT_TRUE(rejected_with(b.finish({x, y}, {out}),
                              "operator 0 (CONCATENATION): input tensor 1 is int16"));
}

TEST(TfliteReader, RejectsInt8TensorsWithoutQuantization) {
    ModelBuilder b;
    const int in = b.tensor({.shape = {1, 4}, .quant = std::nullopt});
    const int out = b.act({1, 4});
    b.op(fb::BuiltinOperator_SOFTMAX, {in}, {out}, fb::BuiltinOptions_SoftmaxOptions,
         fb::CreateSoftmaxOptions(b.fbb, 1.0f).Union());
    EXPECT_TRUE(rejected_with(b.finish({in}, {out}),
                              "operator 0 (SOFTMAX): input tensor 0 is int8 without "
                              "quantization parameters"));

    ModelBuilder e;  // an empty QuantizationParameters table is no quantization either
    const int in2 = e.act({1, 4});
    const int out2 = e.tensor({.shape = {1, 4}, .quant = Quant{}});
    e.op(fb::BuiltinOperator_RESHAPE, {in2}, {out2});
    EXPECT_TRUE(rejected_with(e.finish({in2}, {out2}),
                              "operator 0 (RESHAPE): output tensor 1 is int8 without "
                              "quantization parameters"));

    ModelBuilder p;  // activations are quantized per tensor
    const int in3 = p.tensor({.shape = {1, 2}, .quant = Quant{{0.5f, 0.25f}, {0, 0}, 1}});
    const int out3 = p.act({1, 2});
    p.op(fb::BuiltinOperator_RESHAPE, {in3}, {out3});
    EXPECT_TRUE(rejected_with(p.finish({in3}, {out3}),
                              "operator 0 (RESHAPE): input tensor 0 is quantized per channel"));
}

// input -> CONV_2D with the given weights tensor -> output.
std::vector<uint8_t> conv_with_weights(const TensorSpec& weights) {
    ModelBuilder b;
    const int in = b.act({1, 4, 4, 2});
    const int w = b.tensor(weights);
    const int out = b.act({1, 4, 4, 3});
    b.op(fb::BuiltinOperator_CONV_2D, {in, w}, {out}, fb::BuiltinOptions_Conv2DOptions,
         conv_options(b));
    return b.finish({in}, {out});
}

// One change to a tensor, and the error it must draw.
struct TensorEdit {
    std::function<void(TensorSpec&)> edit;
    std::string error;
};

// model(good) is read; model(good with each edit) is rejected with that edit's error.
template <typename Model>
void expect_edits_rejected(const TensorSpec& good, Model model,
                           const std::vector<TensorEdit>& edits) {
    EXPECT_NO_THROW(accel::parse_tflite(model(good)));
    for (const TensorEdit& e : edits) {
        TensorSpec s = good;
        e.edit(s);
        EXPECT_TRUE(rejected_with(model(s), e.error));
    }
}

TEST(TfliteReader, RejectsWeightsThatAreNotSymmetricInt8Constants) {
    const TensorSpec good{.shape = {3, 1, 1, 2}, .quant = Quant{{0.1f}, {0}}, .data = pattern(6)};
    expect_edits_rejected(good, conv_with_weights, {
        {[](TensorSpec& s) { s.quant = Quant{{0.1f, 0.1f, 0.1f}, {0, 3, 0}, 0}; },
         "operator 0 (CONV_2D): weights tensor 1 has zero point 3; only symmetric (zero point 0) "
         "weights are supported"},
        {[](TensorSpec& s) { s.type = fb::TensorType_UINT8; },
         "operator 0 (CONV_2D): weights tensor 1 is uint8; only int8 weights are supported"},
        {[](TensorSpec& s) { s.data.clear(); },
         "operator 0 (CONV_2D): weights tensor 1 is not a constant"},
        {[](TensorSpec& s) { s.quant.reset(); },
         "operator 0 (CONV_2D): weights tensor 1 is int8 without quantization parameters"},
        {[](TensorSpec& s) { s.quant = Quant{{0.1f, 0.2f}, {0, 0}, 3}; },
         "operator 0 (CONV_2D): weights tensor 1 is quantized along dimension 3; expected 0"},
    });

    ModelBuilder b;  // fully connected weights
    const int in = b.act({1, 4});
    const int w = b.tensor({.shape = {2, 4}, .quant = Quant{{0.1f}, {-5}}, .data = pattern(8)});
    const int out = b.act({1, 2});
    b.op(fb::BuiltinOperator_FULLY_CONNECTED, {in, w, -1}, {out});
    EXPECT_TRUE(rejected_with(b.finish({in}, {out}),
                              "operator 0 (FULLY_CONNECTED): weights tensor 1 has zero point -5"));
}

TEST(TfliteReader, RejectsBiasesShapesPaddingsAndAxesOfTheWrongKind) {
    const auto conv_with_bias = [](const TensorSpec& bias) {
        ModelBuilder b;
        const int in = b.act({1, 4, 4, 2});
        const int w = b.weights({3, 1, 1, 2}, {0.1f});
        const int bi = b.tensor(bias);
        const int out = b.act({1, 4, 4, 3});
        b.op(fb::BuiltinOperator_CONV_2D, {in, w, bi}, {out}, fb::BuiltinOptions_Conv2DOptions,
             conv_options(b));
        return b.finish({in}, {out});
    };
    const TensorSpec good{.shape = {3}, .type = fb::TensorType_INT32, .quant = std::nullopt,
                          .data = pattern(12)};
    expect_edits_rejected(good, conv_with_bias, {
        {[](TensorSpec& s) { s.type = fb::TensorType_INT64, s.data = pattern(24); },
         "operator 0 (CONV_2D): bias tensor 2 is int64; only int32 biases are supported"},
        {[](TensorSpec& s) { s.data.clear(); },
         "operator 0 (CONV_2D): bias tensor 2 is not a constant"},
        {[](TensorSpec& s) { s.shape = {2}, s.data = pattern(8); },
         "operator 0 (CONV_2D): bias tensor 2 has 2 values for 3 output channels"},
    });

    const auto with_second = [](int32_t code, const TensorSpec& second) {
        ModelBuilder b;
        const int in = b.act({1, 2, 2, 4});
        const int sec = b.tensor(second);
        const int out = b.act({1, 4});
        b.op(code, {in, sec}, {out});
        return b.finish({in}, {out});
    };
    const TensorSpec ints{.shape = {2}, .type = fb::TensorType_INT32, .quant = std::nullopt,
                          .data = pattern(8)};
    TensorSpec computed = ints;
    computed.data.clear();
    TensorSpec floats = ints;
    floats.type = fb::TensorType_FLOAT32;
    TensorSpec longs = ints;
    longs.type = fb::TensorType_INT64;
    longs.data = pattern(16);
    EXPECT_NO_THROW(accel::parse_tflite(with_second(fb::BuiltinOperator_RESHAPE, ints)));
    EXPECT_NO_THROW(accel::parse_tflite(with_second(fb::BuiltinOperator_MEAN, longs)));
    // A computed int32 shape is read: the model check folds it or refuses it
    // (reference/constant_folding.hpp); a computed int64 one is refused here.
    EXPECT_NO_THROW(accel::parse_tflite(with_second(fb::BuiltinOperator_RESHAPE, computed)));
    TensorSpec computed_longs = longs;
    computed_longs.data.clear();
    EXPECT_TRUE(rejected_with(with_second(fb::BuiltinOperator_RESHAPE, computed_longs),
                              "operator 0 (RESHAPE): shape tensor 1 must be an int32 or int64 "
                              "constant (it is a computed int64)"));
    EXPECT_TRUE(rejected_with(with_second(fb::BuiltinOperator_PAD, floats),
                              "operator 0 (PAD): paddings tensor 1 must be an int32 or int64 "
                              "constant (it is float32)"));
    EXPECT_TRUE(rejected_with(with_second(fb::BuiltinOperator_MEAN, computed),
                              "operator 0 (MEAN): axis tensor 1 must be an int32 or int64"));
}

TEST(TfliteReader, RejectsShuffledFullyConnectedWeights) {
    ModelBuilder b;
    const int in = b.act({1, 4});
    const int w = b.weights({2, 4}, {0.1f});
    const int out = b.act({1, 2});
    b.op(fb::BuiltinOperator_FULLY_CONNECTED, {in, w}, {out},
         fb::BuiltinOptions_FullyConnectedOptions,
         fb::CreateFullyConnectedOptions(b.fbb, fb::ActivationFunctionType_NONE,
                                         fb::FullyConnectedOptionsWeightsFormat_SHUFFLED4x16INT8)
             .Union());
    EXPECT_TRUE(rejected_with(b.finish({in}, {out}),
                              "operator 0 (FULLY_CONNECTED): weights format SHUFFLED4x16INT8 is "
                              "not supported"));
}

TEST(TfliteReader, RejectsUnknownPaddingAndZeroStrides) {
    ModelBuilder b;
    const int in = b.act({1, 4, 4, 2});
    const int out = b.act({1, 2, 2, 2});
    b.op(fb::BuiltinOperator_MAX_POOL_2D, {in}, {out}, fb::BuiltinOptions_Pool2DOptions,
         fb::CreatePool2DOptions(b.fbb, static_cast<fb::Padding>(2), 2, 2, 2, 2).Union());
    EXPECT_TRUE(rejected_with(b.finish({in}, {out}),
                              "operator 0 (MAX_POOL_2D): padding 2 is not supported"));

    ModelBuilder z;
    const int in2 = z.act({1, 4, 4, 2});
    const int w = z.weights({3, 1, 1, 2}, {0.1f});
    const int out2 = z.act({1, 4, 4, 3});
    z.op(fb::BuiltinOperator_CONV_2D, {in2, w}, {out2}, fb::BuiltinOptions_Conv2DOptions,
         fb::CreateConv2DOptions(z.fbb, fb::Padding_SAME, 1, 0).Union());
    EXPECT_TRUE(rejected_with(z.finish({in2}, {out2}),
                              "operator 0 (CONV_2D): stride_h 0 must be at least 1"));
}

TEST(TfliteReader, RejectsMissingOrMismatchedOptions) {
    ModelBuilder b;
    const int in = b.act({1, 4, 4, 2});
    const int w = b.weights({3, 1, 1, 2}, {0.1f});
    const int out = b.act({1, 4, 4, 3});
    b.op(fb::BuiltinOperator_CONV_2D, {in, w}, {out});
    EXPECT_TRUE(rejected_with(b.finish({in}, {out}),
                              "operator 0 (CONV_2D): missing Conv2DOptions"));

    ModelBuilder p;
    const int in2 = p.act({1, 4, 4, 2});
    const int out2 = p.act({1, 4, 4, 2});
    p.op(fb::BuiltinOperator_AVERAGE_POOL_2D, {in2}, {out2}, fb::BuiltinOptions_Conv2DOptions,
         conv_options(p));
    EXPECT_TRUE(rejected_with(p.finish({in2}, {out2}),
                              "operator 0 (AVERAGE_POOL_2D): has Conv2DOptions; expected "
                              "Pool2DOptions"));

    // Wrong operand counts.
    EXPECT_TRUE(rejected_with(lone_operator(fb::BuiltinOperator_ADD),
                              "operator 0 (ADD): has 1 inputs; expected 2"));
    EXPECT_TRUE(rejected_with(lone_operator(fb::BuiltinOperator_RESHAPE, 2),
                              "operator 0 (RESHAPE): has 2 outputs; expected 1"));
}

TEST(TfliteReader, RejectsModelStructuresItCannotRun) {
    const auto one_reshape = [](const TensorSpec& in_spec, int subgraphs = 1,
                                bool external = false) {
        ModelBuilder b;
        const int in = b.tensor(in_spec);
        const int out = b.act({1, 4});
        b.op(fb::BuiltinOperator_RESHAPE, {in}, {out});
        if (external) b.external_buffer();
        return b.finish({in}, {out}, subgraphs);
    };
    const TensorSpec good{.shape = {1, 4}};
    EXPECT_NO_THROW(accel::parse_tflite(one_reshape(good)));
    EXPECT_TRUE(rejected_with(one_reshape(good, 2),
                              "the model has 2 subgraphs; only single-subgraph models are "
                              "supported"));
    EXPECT_TRUE(rejected_with(one_reshape(good, 0), "the model has no subgraph"));
    EXPECT_TRUE(rejected_with(one_reshape(good, 1, true),
                              "buffer 1 is stored outside the flatbuffer (a model over 2 GiB); "
                              "not supported"));

    TensorSpec s = good;
    s.external_buffer = 1;
    EXPECT_TRUE(rejected_with(one_reshape(s), "tensor 0 (t): external buffers are not supported"));
    s = good;
    s.sparse = true;
    EXPECT_TRUE(rejected_with(one_reshape(s), "tensor 0 (t): sparse tensors are not supported"));
    s = good;
    s.custom_quantization = true;
    EXPECT_TRUE(rejected_with(one_reshape(s), "tensor 0 (t): quantization other than scale and "
                                              "zero point is not supported"));
    s = good;
    s.buffer = 5;
    EXPECT_TRUE(rejected_with(one_reshape(s),
                              "tensor 0 (t): buffer 5 is out of range (the model has 1 buffers)"));
    s = good;
    s.data = pattern(3);
    EXPECT_TRUE(rejected_with(one_reshape(s),
                              "tensor 0 (t): buffer 1 holds 3 bytes; its int8 shape [1,4] "
                              "needs 4"));
    s = good;
    s.shape = {1, -1};
    EXPECT_TRUE(rejected_with(one_reshape(s), "tensor 0 (t): shape [1,-1] has an unknown "
                                              "dimension; only static shapes are supported"));
    s = good;
    s.shape = {1 << 20, 1 << 20, 1 << 20, 0};  // no elements, but the product overflows
    EXPECT_TRUE(rejected_with(one_reshape(s), "tensor 0 (t): shape [1048576,1048576,1048576,0] "
                                              "is too large"));
    s = good;
    s.quant = Quant{{0.5f, 0.5f}, {0}, 1};
    EXPECT_TRUE(rejected_with(one_reshape(s),
                              "tensor 0 (t): quantization has 2 scales and 1 zero points"));
    s = good;
    s.quant = Quant{{0.5f, 0.5f, 0.5f}, {0, 0, 0}, 1};
    EXPECT_TRUE(rejected_with(one_reshape(s),
                              "tensor 0 (t): 3 scales for 4 channels along dimension 1"));
    s = good;
    s.quant = Quant{{0.5f}, {0}, 3};  // per tensor, and still checked as TFLite does
    EXPECT_TRUE(rejected_with(one_reshape(s),
                              "tensor 0 (t): quantized dimension 3 is out of range for rank 2"));
    s = good;
    s.quant = Quant{{0.5f}, {200}};
    EXPECT_TRUE(rejected_with(one_reshape(s),
                              "tensor 0 (t): zero point 200 is out of the int8 range"));
    s = good;
    s.quant = Quant{{0.0f}, {0}};
    EXPECT_TRUE(rejected_with(one_reshape(s),
                              "tensor 0 (t): quantization scale 0 is not positive"));
    s = good;
    s.name = "bad\nname";
    s.quant = Quant{{-1.0f}, {0}};
    EXPECT_TRUE(rejected_with(one_reshape(s), "tensor 0 (bad\\x0aname): quantization scale -1"));

    ModelBuilder b;
    const int in = b.act({1, 4});
    const int out = b.act({1, 4});
    b.op_at(7, {in}, {out});
    EXPECT_TRUE(rejected_with(b.finish({in}, {out}), "operator 0: operator code 7 does not exist"));
}

// ---- damaged files ------------------------------------------------------------------

TEST(TfliteReader, VerifierRejectsGarbage) {
    EXPECT_TRUE(rejected_with({}, "not a valid TFLite flatbuffer (0 bytes is too short)"));
    EXPECT_TRUE(rejected_with({1, 2, 3}, "not a valid TFLite flatbuffer (3 bytes is too short)"));
    std::vector<uint8_t> garbage(4096);
    std::mt19937 rng(7);
    for (auto& byte : garbage) byte = static_cast<uint8_t>(rng());
    garbage[4] = 'T', garbage[5] = 'F', garbage[6] = 'L', garbage[7] = '3';
    EXPECT_TRUE(rejected_with(garbage, "not a valid TFLite flatbuffer (the flatbuffer verifier "
                                       "rejects it)"));
    std::vector<uint8_t> model = single_conv();
    model[5] = 'X';
    model[6] = 0;
    EXPECT_TRUE(rejected_with(model, "not a valid TFLite flatbuffer (file identifier "
                                     "'TX\\x003', expected 'TFL3')"));
}

TEST(TfliteReader, EveryTruncationIsRejectedByTheVerifier) {
    const std::vector<uint8_t> model = conv_add_softmax();
    ASSERT_NO_THROW(accel::parse_tflite(model));
    for (size_t n = 0; n < model.size(); ++n) {
        const std::vector<uint8_t> cut(model.begin(), model.begin() + static_cast<long>(n));
        ASSERT_TRUE(rejected_with(cut, "not a valid TFLite flatbuffer")) << n << " bytes";
    }
}

TEST(TfliteReader, RandomByteFlipsNeverCrash) {
    // Any outcome but a crash, a hang or an exception other than accel::Error is fine: a
    // flip in constant data or a name reads as a valid model.
    const std::vector<uint8_t> model = conv_add_softmax();
    std::mt19937 rng(2024);
    int rejected = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        std::vector<uint8_t> bytes = model;
        const int flips = 1 + trial % 3;
        for (int f = 0; f < flips; ++f) {
            bytes[rng() % bytes.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
        }
        try {
            accel::parse_tflite(bytes);
        } catch (const accel::Error&) {
            ++rejected;
        }
    }
    EXPECT_GT(rejected, 1000);  // the damage is mostly noticed
}

TEST(TfliteReader, ReadsBytesAtAnyAlignment) {
    const std::vector<uint8_t> model = conv_add_softmax();
    std::vector<uint8_t> shifted(model.size() + 1);
    std::copy(model.begin(), model.end(), shifted.begin() + 1);
    const auto m = accel::parse_tflite(std::span<const uint8_t>(shifted).subspan(1));
    EXPECT_EQ(m.operators.size(), 4u);
    EXPECT_EQ(m.tensor(1).data, pattern(54, 2));
}

TEST(TfliteReader, ReadsFilesAndNamesThemInErrors) {
    TempDir dir;
    const std::string good = dir.file("good.tflite");
    write_raw(good, conv_add_softmax());
    EXPECT_EQ(accel::read_tflite(good).operators.size(), 4u);

    const std::string missing = dir.file("missing.tflite");
    try {
        accel::read_tflite(missing);
        ADD_FAILURE() << "no error for a missing file";
    } catch (const accel::Error& e) {
        EXPECT_EQ(std::string(e.what()).rfind(missing + ": cannot open: ", 0), 0u) << e.what();
    }

    const std::string junk = dir.file("junk.tflite");
    write_raw(junk, std::vector<uint8_t>(100, 0x41));
    try {
        accel::read_tflite(junk);
        ADD_FAILURE() << "no error for a junk file";
    } catch (const accel::Error& e) {
        EXPECT_EQ(std::string(e.what()).rfind(junk + ": not a valid TFLite flatbuffer (", 0), 0u)
            << e.what();
    }

    const std::string tanh = dir.file("tanh.tflite");
    write_raw(tanh, single_conv(fb::ActivationFunctionType_TANH));
    try {
        accel::read_tflite(tanh);
        ADD_FAILURE() << "no error for a TANH activation";
    } catch (const accel::Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  tanh + ": operator 0 (CONV_2D): fused activation TANH is not supported");
    }
}

}  // namespace
