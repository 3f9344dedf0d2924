// Hand-checked cases of the host operators of the models users bring (TFLite reference
// semantics): the element-wise LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU and MUL, the data
// movers STRIDED_SLICE, PACK and RESIZE_NEAREST_NEIGHBOR, and the shapes folded at
// compile time. Whole models with them are compared with LiteRT by tests/models.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "int8_tensors.hpp"
#include "graph_builder.hpp"
#include "ops/hard_swish.hpp"
#include "ops/leaky_relu.hpp"
#include "ops/logistic.hpp"
#include "ops/mul.hpp"
#include "ops/pack.hpp"
#include "ops/relu.hpp"
#include "ops/resize_nearest_neighbor.hpp"
#include "ops/rsqrt.hpp"
#include "ops/split.hpp"
#include "ops/transpose.hpp"
#include "ops/strided_slice.hpp"
#include "ops/tanh.hpp"
#include "reference/constant_folding.hpp"
#include "reference/model_check.hpp"

namespace accel {
namespace {

using test::as_ints;
using test::tensor;

TEST(Logistic, TabulatesTheSigmoidOnTheOutputScaleOf256ths) {
    const Int8Table t = prepare_logistic({0.1f, 0}, {1.0f / 256, -128});
    EXPECT_EQ(t(0), 0);      // 0.5 * 256 - 128
    EXPECT_EQ(t(127), 127);  // 256 clamps
    EXPECT_EQ(t(-128), -128);
    EXPECT_EQ(t(10), 59);    // sigmoid(1) * 256 = 187.15 -> 187 - 128
    EXPECT_EQ(apply_table(t, tensor({2}, {0, 10})).data, (std::vector<int8_t>{0, 59}));
}

TEST(Logistic, RefusesAnOutputScaleOtherThan1Over256) {
    EXPECT_THROW(prepare_logistic({0.1f, 0}, {1.0f / 255, -128}), Error);
}

TEST(Tanh, TabulatesTheHyperbolicTangent) {
    const Int8Table t = prepare_tanh({0.05f, 0}, {1.0f / 128, 0});
    EXPECT_EQ(t(0), 0);
    EXPECT_EQ(t(20), 97);     // tanh(1) * 128 = 97.48
    EXPECT_EQ(t(-20), -97);
    EXPECT_EQ(t(127), 127);   // 127.99 rounds to 128 and clamps
}

TEST(Rsqrt, RefusesAValueBelowTheZeroPointAsTfliteEvalDoes) {
    const RsqrtParams p = prepare_rsqrt({0.01f, -10}, {0.1f, 0});
    EXPECT_EQ(rsqrt(p, -10), 127);  // 0: the largest output
    EXPECT_EQ(rsqrt(p, tensor({2}, {-10, 90})).data[1], 10);  // 1 / sqrt(1.0) / 0.1
    EXPECT_THROW(rsqrt(p, tensor({2}, {-11, 0})), Error);
}

TEST(Relu, ClampsToTheQuantizedBoundsOfEachKind) {
    const QuantParams q{0.05f, -10};
    EXPECT_EQ(relu(prepare_relu(ReluKind::Relu, q, q), -100), -10);
    EXPECT_EQ(relu(prepare_relu(ReluKind::Relu, q, q), 127), 127);
    EXPECT_EQ(relu(prepare_relu(ReluKind::ReluN1To1, q, q), 127), 10);   // 1 / 0.05 - 10
    EXPECT_EQ(relu(prepare_relu(ReluKind::ReluN1To1, q, q), -128), -30);
    EXPECT_EQ(relu(prepare_relu(ReluKind::Relu6, {0.1f, 0}, {0.1f, 0}), 100), 60);
}

TEST(Split, RefusesPiecesThatDoNotFitTheDimension) {
    EXPECT_THROW(prepare_split({1, 4, 6}, 2, 4), Error);      // 6 / 4 is not even
    EXPECT_THROW(prepare_split_v({1, 4, 6}, {1, 2}, 2, 2), Error);  // 3 of 6
    EXPECT_THROW(prepare_split_v({1, 4, 6}, {-1, -1}, 2, 2), Error);
    EXPECT_THROW(prepare_unpack({1, 4, 6}, 1, 3), Error);
    const SplitParams p = prepare_split_v({2, 3}, {-1, 1}, -1, 2);
    const std::vector<TensorI8> y = split(p, tensor({2, 3}, {1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(y.at(0).data, (std::vector<int8_t>{1, 2, 4, 5}));
    EXPECT_EQ(y.at(1).data, (std::vector<int8_t>{3, 6}));
}

TEST(Transpose, PermutesAndRefusesWhatIsNoPermutation) {
    const TransposeParams p = prepare_transpose({2, 3}, {1, 0});
    EXPECT_EQ(transpose(p, tensor({2, 3}, {1, 2, 3, 4, 5, 6})).data,
              (std::vector<int8_t>{1, 4, 2, 5, 3, 6}));
    EXPECT_THROW(prepare_transpose({2, 3}, {0, 0}), Error);
    EXPECT_THROW(prepare_transpose({2, 3}, {0, 2}), Error);
}

TEST(Tabulate, RunsTheOperatorOnEveryInt8Value) {
    const LeakyReluParams p = prepare_leaky_relu({0.1f, 0}, {0.1f, 0}, 0.25f);
    const Int8Table t = tabulate([&](int8_t q) { return leaky_relu(p, q); });
    for (int q = -128; q <= 127; ++q) EXPECT_EQ(t(static_cast<int8_t>(q)), leaky_relu(p, static_cast<int8_t>(q)));
}

TEST(LeakyRelu, RescalesEachSideWithItsOwnMultiplier) {
    const LeakyReluParams p = prepare_leaky_relu({0.1f, 0}, {0.1f, 0}, 0.25f);
    EXPECT_EQ(as_ints(leaky_relu(p, tensor({4}, {12, 0, -8, -12}))), (std::vector<int>{12, 0, -2, -3}));
    // Zero points: x = q - 5; y = x (or x / 4) + 3.
    const LeakyReluParams z = prepare_leaky_relu({0.1f, 5}, {0.1f, 3}, 0.25f);
    EXPECT_EQ(as_ints(leaky_relu(z, tensor({2}, {9, -3}))), (std::vector<int>{7, 1}));
}

TEST(HardSwish, FollowsXTimesRelu6OfXPlus3Over6) {
    // Input scale 6/128: q = 64 is 3.0; output scale 6/128 too.
    const HardSwishParams p = prepare_hard_swish({6.0f / 128, 0}, {6.0f / 128, 0});
    EXPECT_EQ(hard_swish(p, int8_t{0}), 0);
    EXPECT_EQ(hard_swish(p, int8_t{-127}), 0);   // x <= -3: 0
    EXPECT_EQ(hard_swish(p, int8_t{127}), 127);  // x >= 3: x
    // In between within one step of the real function (the 16-bit arithmetic rounds).
    for (int q = -128; q <= 127; ++q) {
        const double x = q * 6.0 / 128;
        const double want = x * std::min(6.0, std::max(0.0, x + 3)) / 6 / (6.0 / 128);
        EXPECT_NEAR(hard_swish(p, static_cast<int8_t>(q)), std::clamp(want, -128.0, 127.0), 1.0) << q;
    }
}

TEST(HardSwish, RefusesAnOutputRescalingOfOneOrMore) {
    EXPECT_THROW(prepare_hard_swish({1.0f, 0}, {1.0f / 256, 0}), Error);
}

TEST(Mul, MultipliesAndRescalesWithOneMultiplier) {
    // 0.5 * 0.5 / 0.25 = 1: y = a * b.
    const MulParams p = prepare_mul({0.5f, 0}, {0.5f, 0}, {0.25f, 0}, FusedActivation::None);
    EXPECT_EQ(as_ints(mul(p, tensor({3}, {3, -4, 20}), tensor({3}, {4, 5, 7}))),
              (std::vector<int>{12, -20, 127}));
    const MulParams r = prepare_mul({0.5f, 0}, {0.5f, 0}, {0.25f, 0}, FusedActivation::Relu);
    EXPECT_EQ(as_ints(mul(r, tensor({1}, {-3}), tensor({1}, {4}))), (std::vector<int>{0}));
}

TEST(Mul, BroadcastsTheSqueezeExciteScale) {
    const MulParams p = prepare_mul({1.0f, 0}, {1.0f, 0}, {1.0f, 0}, FusedActivation::None);
    const TensorI8 se = tensor({1, 1, 1, 2}, {2, -1});
    const TensorI8 x = tensor({1, 2, 1, 2}, {1, 2, 3, 4});
    const TensorI8 y = mul(p, se, x);
    EXPECT_EQ(y.shape, (std::vector<int64_t>{1, 2, 1, 2}));
    EXPECT_EQ(as_ints(y), (std::vector<int>{2, -2, 6, -4}));
}

TEST(ResizeNearest, MapsOutputPixelsAsTfliteDoes) {
    const std::vector<int64_t> x{1, 2, 2, 1};
    EXPECT_EQ(prepare_resize_nearest(x, 4, 4, false, false).rows, (std::vector<int64_t>{0, 0, 1, 1}));
    EXPECT_EQ(prepare_resize_nearest(x, 4, 4, false, true).rows, (std::vector<int64_t>{0, 0, 1, 1}));
    EXPECT_EQ(prepare_resize_nearest(x, 4, 4, true, false).rows, (std::vector<int64_t>{0, 0, 1, 1}));
    EXPECT_EQ(prepare_resize_nearest(x, 3, 3, false, false).rows, (std::vector<int64_t>{0, 0, 1}));
    EXPECT_EQ(prepare_resize_nearest(x, 3, 3, true, false).rows, (std::vector<int64_t>{0, 1, 1}));
    const TensorI8 y = resize_nearest(prepare_resize_nearest(x, 4, 4, false, false),
                                      tensor(x, {1, 2, 3, 4}));
    EXPECT_EQ(as_ints(y), (std::vector<int>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
    EXPECT_THROW(prepare_resize_nearest(x, 0, 4, false, false), Error);
}

Tensor<int32_t> ints(std::vector<int64_t> shape, std::vector<int32_t> values) {
    Tensor<int32_t> t(std::move(shape));
    t.data = std::move(values);
    return t;
}

TEST(StridedSlice, ShrinksTheBatchOfAShapeToAScalar) {
    // Keras' Flatten: shape[0:1] with the axis shrunk.
    const StridedSliceParams p = prepare_strided_slice({4}, {.begin = {0}, .end = {1}, .strides = {1},
                                                             .shrink_axis_mask = 1});
    EXPECT_TRUE(p.output_shape.empty());
    EXPECT_EQ(strided_slice(p, ints({4}, {1, 8, 8, 16})).data, (std::vector<int32_t>{1}));
}

TEST(StridedSlice, CountsNegativeIndicesFromTheEndAndStepsBackwards) {
    const Tensor<int32_t> x = ints({6}, {0, 1, 2, 3, 4, 5});
    auto slice = [&](StridedSliceOptions o) { return strided_slice(prepare_strided_slice({6}, o), x).data; };
    EXPECT_EQ(slice({.begin = {-1}, .end = {0}, .strides = {-2}}), (std::vector<int32_t>{5, 3, 1}));
    EXPECT_EQ(slice({.begin = {1}, .end = {-1}, .strides = {2}}), (std::vector<int32_t>{1, 3}));
    EXPECT_EQ(slice({.begin = {3}, .end = {0}, .strides = {-1}, .end_mask = 1}),
              (std::vector<int32_t>{3, 2, 1, 0}));
    EXPECT_EQ(slice({.begin = {9}, .end = {2}, .strides = {1}, .begin_mask = 1}),
              (std::vector<int32_t>{0, 1}));
    EXPECT_THROW(prepare_strided_slice({6}, {.begin = {0}, .end = {1}, .strides = {0}}), Error);
    EXPECT_THROW(prepare_strided_slice({6}, {.begin = {6}, .end = {7}, .strides = {1},
                                             .shrink_axis_mask = 1}), Error);
}

TEST(StridedSlice, SlicesEachDimensionOfAnActivation) {
    const TensorI8 x = tensor({2, 3}, {1, 2, 3, 4, 5, 6});
    const StridedSliceParams p = prepare_strided_slice({2, 3}, {.begin = {1, 0}, .end = {2, 3},
                                                                .strides = {1, 2}});
    EXPECT_EQ(p.output_shape, (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(as_ints(strided_slice(p, x)), (std::vector<int>{4, 6}));
}

TEST(Pack, StacksAlongANewAxis) {
    const Tensor<int32_t> a = ints({2}, {1, 2}), b = ints({2}, {3, 4});
    const PackParams first = prepare_pack({{2}, {2}}, 0);
    EXPECT_EQ(first.output_shape, (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(pack(first, std::vector<const Tensor<int32_t>*>{&a, &b}).data, (std::vector<int32_t>{1, 2, 3, 4}));
    const PackParams last = prepare_pack({{2}, {2}}, -1);
    EXPECT_EQ(pack(last, std::vector<const Tensor<int32_t>*>{&a, &b}).data, (std::vector<int32_t>{1, 3, 2, 4}));
    EXPECT_THROW(prepare_pack({{2}, {3}}, 0), Error);
    EXPECT_THROW(prepare_pack({{2}, {2}}, 2), Error);
}

// Keras' Flatten with a dynamic batch: SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE.
struct FlattenGraph : test::GraphBuilder {
    int x, shape, flat;
    FlattenGraph() {
        x = activation({1, 2, 2, 3}, 0.5f, 0);
        shape = add_int32({4});
        const int batch = add_int32({});
        const int packed = add_int32({2});
        flat = activation({1, 12}, 0.5f, 0);
        m.inputs = {x};
        m.outputs = {flat};
        op(graph::OpKind::Shape, {x}, shape);
        graph::Operator& s = op(graph::OpKind::StridedSlice,
                                {shape, ints({0}, {1}), ints({1}, {1}), ints({1}, {1})}, batch);
        s.shrink_axis_mask = 1;
        op(graph::OpKind::Pack, {batch, ints({-1}, {})}, packed).axis = 0;
        op(graph::OpKind::Reshape, {x, packed}, flat);
    }
    int add_int32(std::vector<int64_t> shape) {
        graph::TensorDesc t;
        t.name = "s" + std::to_string(m.tensors.size());
        t.type = graph::DType::Int32;
        t.shape = std::move(shape);
        return add(std::move(t));
    }
};

TEST(ConstantFolding, ComputesTheFlattenShapeBeforeTheModelRuns) {
    FlattenGraph g;
    EXPECT_THROW(reference::check_model(g.m), Error);  // not folded: refused
    reference::fold_shape_computations(g.m);
    const graph::TensorDesc& packed = g.m.tensor(g.m.operators[3].inputs[1]);
    ASSERT_TRUE(packed.is_constant());
    std::vector<int32_t> v(2);
    std::memcpy(v.data(), packed.data.data(), 8);
    EXPECT_EQ(v, (std::vector<int32_t>{1, -1}));
    EXPECT_NO_THROW(reference::check_model(g.m));
    EXPECT_TRUE(reference::computes_shape(g.m, g.m.operators[0]));
    EXPECT_FALSE(reference::computes_shape(g.m, g.m.operators[3]));
}

TEST(ConstantFolding, RefusesAnInt32TensorKnownOnlyAtRunTime) {
    FlattenGraph g;
    const int runtime = g.add_int32({1});
    g.m.inputs.push_back(runtime);
    g.m.operators[2].inputs[1] = runtime;  // PACK reads a graph input
    try {
        reference::fold_shape_computations(g.m);
        FAIL() << "folded a run-time tensor";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("operator 2 (PACK): input tensor"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace accel
