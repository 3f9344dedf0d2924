// The model check (reference/model_check.hpp) on small models built in the IR: every
// operator's output shape as TFLite's Prepare infers it, each declared shape that
// disagrees refused with one line naming the operator and both shapes, and the data
// flow and size rules.
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "base/error.hpp"
#include "graph_builder.hpp"
#include "graph/model.hpp"
#include "hw/hw_config.hpp"
#include "network/network_plan.hpp"
#include "reference/model_check.hpp"

namespace accel {
namespace {

using graph::Model;
using graph::OpKind;
using graph::Operator;
using Shape = std::vector<int64_t>;

class Builder : public test::GraphBuilder {
public:
    int act(Shape shape) { return activation(std::move(shape), 0.5f, 0); }
    int weights(Shape shape) {
        const int t = act(std::move(shape));
        m.tensors[static_cast<size_t>(t)].data.assign(
            static_cast<size_t>(m.tensors[static_cast<size_t>(t)].element_count()), 1);
        return t;
    }
    // The model with graph input `in` and output `out`.
    Model& io(std::vector<int> in, std::vector<int> out) {
        m.inputs = std::move(in);
        m.outputs = std::move(out);
        return m;
    }
};

std::string error_of(const Model& m) {
    try {
        reference::check_model(m);
    } catch (const Error& e) {
        return e.what();
    }
    return "<accepted>";
}

testing::AssertionResult refused_with(const Model& m, const std::string& phrase) {
    const std::string msg = error_of(m);
    if (msg.find(phrase) != std::string::npos && msg.find('\n') == std::string::npos) {
        return testing::AssertionSuccess();
    }
    return testing::AssertionFailure() << "message \"" << msg << "\" lacks \"" << phrase << "\"";
}

// One operator of `kind` from a [1,8,8,4] input, configured by `set`, declaring `out`.
template <typename Set>
Model one_window_op(OpKind kind, Shape weights, Shape out, Set set) {
    Builder b;
    const int x = b.act({1, 8, 8, 4});
    std::vector<int> inputs{x};
    if (!weights.empty()) inputs.push_back(b.weights(weights));
    const int y = b.act(out);
    set(b.op(kind, inputs, y));
    return b.io({x}, {y});
}

TEST(ModelCheck, ConvolutionsAndPoolsComputeTheirWindows) {
    const auto none = [](Operator&) {};
    const auto stride_w_127 = [](Operator& o) { o.stride_w = 127, o.padding = graph::Padding::Same; };
    EXPECT_EQ(error_of(one_window_op(OpKind::Conv2d, {6, 3, 3, 4}, {1, 6, 6, 6}, none)), "<accepted>");
    // A stride the declared output does not follow: LiteRT's output is [1,8,1,6].
    EXPECT_TRUE(refused_with(one_window_op(OpKind::Conv2d, {6, 3, 3, 4}, {1, 8, 8, 6}, stride_w_127),
                             "operator 0 (CONV_2D): output tensor 2 ('t2') is declared "
                             "[1,8,8,6]; the operator computes [1,8,1,6]"));
    EXPECT_TRUE(refused_with(one_window_op(OpKind::Conv2d, {6, 3, 3, 2}, {1, 6, 6, 6}, none),
                             "operator 0 (CONV_2D): the weights [6,3,3,2] read 2 channels but "
                             "the input [1,8,8,4] has 4; grouped convolutions are not supported"));
    EXPECT_TRUE(refused_with(one_window_op(OpKind::Conv2d, {6, 9, 3, 4}, {1, 1, 6, 6}, none),
                             "operator 0 (CONV_2D): padding along H: filter 9 (dilated 9) does "
                             "not fit the input 8 with VALID padding"));
    const auto dilated = [](Operator& o) { o.dilation_h = 2; };
    EXPECT_EQ(error_of(one_window_op(OpKind::Conv2d, {6, 3, 3, 4}, {1, 4, 6, 6}, dilated)), "<accepted>");

    const auto same_2 = [](Operator& o) { o.padding = graph::Padding::Same, o.stride_h = o.stride_w = 2; };
    EXPECT_EQ(error_of(one_window_op(OpKind::DepthwiseConv2d, {1, 3, 3, 8}, {1, 4, 4, 8}, same_2)),
              "<accepted>");
    EXPECT_TRUE(refused_with(one_window_op(OpKind::DepthwiseConv2d, {1, 3, 3, 6}, {1, 4, 4, 6}, same_2),
                             "operator 0 (DEPTHWISE_CONV_2D): the filter [1,3,3,6] must be "
                             "[1,R,S,C*M] for the input's C = 4"));
    EXPECT_TRUE(refused_with(one_window_op(OpKind::DepthwiseConv2d, {1, 3, 3, 8}, {1, 4, 4, 4}, same_2),
                             "is declared [1,4,4,4]; the operator computes [1,4,4,8]"));

    const auto pool_3 = [](Operator& o) { o.filter_h = o.filter_w = 3, o.stride_h = o.stride_w = 2; };
    EXPECT_EQ(error_of(one_window_op(OpKind::MaxPool2d, {}, {1, 3, 3, 4}, pool_3)), "<accepted>");
    EXPECT_TRUE(refused_with(one_window_op(OpKind::AveragePool2d, {}, {1, 4, 4, 4}, pool_3),
                             "operator 0 (AVERAGE_POOL_2D): output tensor 1 ('t1') is declared "
                             "[1,4,4,4]; the operator computes [1,3,3,4]"));
}

// input [2,3,4] -> FULLY_CONNECTED with weights [10,12] or [10,4] (keep_num_dims) -> out.
Model fully_connected(Shape weights, Shape out, bool keep_num_dims = false) {
    Builder b;
    const int x = b.act({2, 3, 4});
    const int y = b.act(out);
    b.op(OpKind::FullyConnected, {x, b.weights(weights), -1}, y).keep_num_dims = keep_num_dims;
    return b.io({x}, {y});
}

TEST(ModelCheck, FullyConnectedWritesBatchesOfUnits) {
    EXPECT_EQ(error_of(fully_connected({10, 12}, {2, 10})), "<accepted>");
    EXPECT_EQ(error_of(fully_connected({10, 4}, {6, 10})), "<accepted>");
    EXPECT_EQ(error_of(fully_connected({10, 4}, {2, 3, 10}, true)), "<accepted>");
    // Issue 30's R2: declared shapes other than [batches, units].
    for (const Shape& declared : {Shape{1, 1}, Shape{8, 2, 1, 1, 8, 2}, Shape{1, 1000000000}}) {
        EXPECT_TRUE(refused_with(fully_connected({10, 12}, declared),
                                 "operator 0 (FULLY_CONNECTED): output tensor 1 ('t1') is "
                                 "declared [" + fmt::format("{}", fmt::join(declared, ",")) +
                                 "]; the operator computes [2,10]"));
    }
    EXPECT_TRUE(refused_with(fully_connected({10, 5}, {2, 10}),
                             "the input [2,3,4] is not a whole number of rows of the weights' "
                             "depth 5"));
    EXPECT_TRUE(refused_with(fully_connected({10, 12}, {2, 10}, true),
                             "with keep_num_dims the input [2,3,4] must end in the weights' depth 12"));
}

TEST(ModelCheck, AddBroadcastsAsNumPyDoes) {
    const auto add = [](Shape a, Shape c, Shape out) {
        Builder b;
        const int x = b.act(a), y = b.act(c), z = b.act(out);
        b.op(OpKind::Add, {x, y}, z);
        return b.io({x, y}, {z});
    };
    EXPECT_EQ(error_of(add({1, 4, 4, 3}, {3}, {1, 4, 4, 3})), "<accepted>");
    EXPECT_EQ(error_of(add({2, 1, 3}, {4, 1}, {2, 4, 3})), "<accepted>");
    EXPECT_TRUE(refused_with(add({1, 4}, {1, 3}, {1, 4}),
                             "operator 0 (ADD): the inputs [1,4] and [1,3] do not broadcast"));
    EXPECT_TRUE(refused_with(add({1, 4}, {4}, {4}), "is declared [4]; the operator computes [1,4]"));
}

TEST(ModelCheck, MeanPadConcatenationAndSoftmax) {
    {
        Builder b;  // MEAN over H and W (one of them counted from the end), twice
        const int x = b.act({1, 5, 6, 7});
        const int keep = b.act({1, 1, 1, 7}), drop = b.act({1, 7});
        const int axes = b.ints({1, -2}, {2});
        b.op(OpKind::Mean, {x, axes}, keep).keep_dims = true;
        b.op(OpKind::Mean, {x, axes}, drop);
        EXPECT_EQ(error_of(b.io({x}, {keep, drop})), "<accepted>");
        b.m.tensors[static_cast<size_t>(drop)].shape = {1, 1, 7};
        EXPECT_TRUE(refused_with(b.m, "operator 1 (MEAN): output tensor 2 ('t2') is declared "
                                      "[1,1,7]; the operator computes [1,7]"));
        b.m.tensors[static_cast<size_t>(axes)].data[0] = 4;
        EXPECT_TRUE(refused_with(b.m, "operator 0 (MEAN): axis 4 is outside the input [1,5,6,7]"));
    }
    {
        Builder b;  // PAD: paddings [rank, 2], none negative
        const int x = b.act({1, 4, 4, 2});
        const int y = b.act({1, 6, 7, 2});
        const int pads = b.ints({0, 0, 1, 1, 0, 3, 0, 0}, {4, 2});
        b.op(OpKind::Pad, {x, pads}, y);
        EXPECT_EQ(error_of(b.io({x}, {y})), "<accepted>");
        b.m.tensors[static_cast<size_t>(pads)].shape = {2, 4};
        EXPECT_TRUE(refused_with(b.m, "operator 0 (PAD): the paddings have shape [2,4]; "
                                      "expected [4,2] for the input [1,4,4,2]"));
        b.m.tensors[static_cast<size_t>(pads)].shape = {4, 2};
        for (size_t i = 8; i < 12; ++i) b.m.tensors[static_cast<size_t>(pads)].data[i] = 0xff;
        EXPECT_TRUE(refused_with(b.m, "padding {-1, 1} of dimension 1 is negative"));
    }
    {
        Builder b;  // CONCATENATION along the last axis, counted from the end
        const int x = b.act({1, 2, 3}), y = b.act({1, 2, 5}), z = b.act({1, 2, 8});
        Operator& cat = b.op(OpKind::Concatenation, {x, y}, z);
        cat.axis = -1;
        EXPECT_EQ(error_of(b.io({x, y}, {z})), "<accepted>");
        b.m.operators[0].axis = 3;
        EXPECT_TRUE(refused_with(b.m, "operator 0 (CONCATENATION): axis 3 is outside the "
                                      "rank-3 inputs"));
        b.m.operators[0].axis = 1;
        EXPECT_TRUE(refused_with(b.m, "input 1 [1,2,5] differs from input 0 [1,2,3] outside axis 1"));
    }
    {
        Builder b;
        const int x = b.act({}), y = b.act({});
        b.op(OpKind::Softmax, {x}, y);
        EXPECT_TRUE(refused_with(b.io({x}, {y}), "operator 0 (SOFTMAX): the input is a scalar"));
    }
}

// input [2,64] -> RESHAPE by `shape` (an int32 vector, or ReshapeOptions) -> out.
Model reshape(const std::vector<int32_t>& shape, Shape out, bool as_options = false) {
    Builder b;
    const int x = b.act({2, 64});
    const int y = b.act(out);
    std::vector<int> inputs{x};
    if (!as_options) inputs.push_back(b.ints(shape, {static_cast<int64_t>(shape.size())}));
    Operator& op = b.op(OpKind::Reshape, inputs, y);
    if (as_options) op.new_shape = Shape(shape.begin(), shape.end());
    return b.io({x}, {y});
}

TEST(ModelCheck, ReshapeTakesTheShapeItIsGiven) {
    EXPECT_EQ(error_of(reshape({-1, 8, 16}, {1, 8, 16})), "<accepted>");
    EXPECT_EQ(error_of(reshape({4, 32}, {4, 32}, true)), "<accepted>");
    EXPECT_TRUE(refused_with(reshape({-1, 128}, {1, 2147483647}),
                             "operator 0 (RESHAPE): output tensor 1 ('t1') is declared "
                             "[1,2147483647]; the operator computes [1,128]"));
    EXPECT_TRUE(refused_with(reshape({4, 32}, {8, 16}, true), "computes [4,32]"));
    EXPECT_TRUE(refused_with(reshape({3, -1}, {3, 42}),
                             "the new shape [3,42] does not hold the input [2,64]'s 128 elements"));
    EXPECT_TRUE(refused_with(reshape({-1, -1}, {8, 16}), "has a dimension below 0 or more than one -1"));
    Model none = reshape({}, {2, 64}, true);
    none.operators[0].new_shape.reset();
    EXPECT_TRUE(refused_with(none, "the new shape is given neither by an int32 shape vector nor "
                                   "by ReshapeOptions"));
}

TEST(ModelCheck, EveryTensorIsWrittenOnceBeforeItIsRead) {
    // x -> QUANTIZE -> a -> QUANTIZE -> b, then edits of that data flow.
    const auto chain = [] {
        Builder b;
        const int x = b.act({1, 4}), a = b.act({1, 4}), c = b.act({1, 4});
        b.op(OpKind::Quantize, {x}, a);
        b.op(OpKind::Quantize, {a}, c);
        b.io({x}, {c});
        return b.m;
    };
    EXPECT_EQ(error_of(chain()), "<accepted>");
    Model m = chain();
    std::swap(m.operators[0].inputs, m.operators[1].inputs);  // operator order
    std::swap(m.operators[0].outputs, m.operators[1].outputs);
    EXPECT_TRUE(refused_with(m, "operator 0 (QUANTIZE): reads tensor 1 ('t1') before operator 1 "
                                "writes it"));
    m = chain();
    m.operators[1].outputs = {1};
    EXPECT_TRUE(refused_with(m, "operator 1 (QUANTIZE): writes tensor 1 ('t1'), which operator 0 "
                                "writes too"));
    m = chain();
    m.operators[0].outputs = {0};
    EXPECT_TRUE(refused_with(m, "operator 0 (QUANTIZE): writes tensor 0 ('t0'), a graph input"));
    m = chain();
    m.inputs = {1};
    EXPECT_TRUE(refused_with(m, "operator 0 (QUANTIZE): reads tensor 0 ('t0'), which is no graph "
                                "input, constant or operator's output"));
    m = chain();
    m.tensors.push_back(m.tensors[0]);
    m.outputs = {3};
    EXPECT_TRUE(refused_with(m, "graph output tensor 3 ('t0') is neither a graph input nor "
                                "written by an operator"));
    m = chain();
    m.outputs = {};
    EXPECT_TRUE(refused_with(m, "the model has no outputs"));
    m = chain();
    m.outputs = {7};
    EXPECT_TRUE(refused_with(m, "tensor 7 does not exist"));
    m = chain();
    m.tensors[0].shape = {1, 0};
    m.tensors[1].shape = m.tensors[2].shape = {1, 0};
    EXPECT_TRUE(refused_with(m, "graph input tensor 0 ('t0'): it has shape [1,0]; every "
                                "dimension must be at least 1"));
}

TEST(ModelCheck, EveryOperatorIsPreparedAsItWillRun) {
    Builder b;  // x -> MAX_POOL_2D -> p -> SOFTMAX -> y, each quantization as TFLite needs it
    const int x = b.act({1, 4, 4, 2}), p = b.act({1, 2, 2, 2}), y = b.act({1, 2, 2, 2});
    b.m.tensors[static_cast<size_t>(y)].quant = {{1.0f / 256}, {-128}, 0};
    Operator& pool = b.op(OpKind::MaxPool2d, {x}, p);
    pool.filter_h = pool.filter_w = pool.stride_h = pool.stride_w = 2;
    b.op(OpKind::Softmax, {p}, y);
    EXPECT_EQ(error_of(b.io({x}, {y})), "<accepted>");
    b.m.tensors[static_cast<size_t>(y)].quant = {{0.5f}, {0}, 0};
    EXPECT_TRUE(refused_with(b.m, "operator 1 (SOFTMAX): softmax: output scale 0.5 and zero "
                                  "point 0 must be 1/256 and -128"));
    b.m.tensors[static_cast<size_t>(p)].quant = {{0.25f}, {0}, 0};
    EXPECT_TRUE(refused_with(b.m, "operator 0 (MAX_POOL_2D): pool2d: output quantization"));
}

TEST(ModelCheck, TensorsTogetherStayWithinTheLimit) {
    Builder b;
    const int64_t half = graph::kMaxTensorElements / 2;
    const int x = b.act({half}), a = b.act({half}), c = b.act({half});
    b.op(OpKind::Softmax, {x}, a);
    b.op(OpKind::Softmax, {a}, c);
    EXPECT_TRUE(refused_with(b.io({x}, {c}), "the model's tensors take more than 1099511627776 "
                                             "bytes together"));
}

TEST(ModelCheck, PlanningChecksTheModelFirst) {
    Model m = fully_connected({10, 12}, {1, 1});
    try {
        network::plan_network(m, derive_params(default_hw_config()), false);
        ADD_FAILURE() << "plan_network accepted a model the check refuses";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "operator 0 (FULLY_CONNECTED): output tensor 1 ('t1') "
                                         "is declared [1,1]; the operator computes [2,10]");
    }
}

}  // namespace
}  // namespace accel
