// Random field edits of a small valid network (shapes, strides, dilations, windows,
// paddings, axes, options, constants' values, operator inputs and order, graph outputs),
// each either refused by the model check or run: on the host (the golden reference), whose
// outputs must have their declared shapes, and on fsim, which must give the same bytes or
// refuse with accel::Error. Under the sanitizers (make test-sanitize) a read outside a
// buffer in any operator fails here.
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "graph_builder.hpp"
#include "devices/fsim.hpp"
#include "graph/model.hpp"
#include "hw/hw_config.hpp"
#include "network/network_plan.hpp"
#include "reference/model_check.hpp"
#include "runtime/network_runner.hpp"

namespace accel {
namespace {

using graph::DType;
using graph::Model;
using graph::OpKind;
using graph::Operator;
using graph::TensorDesc;
using Shape = std::vector<int64_t>;

class Builder : public test::GraphBuilder {
public:
    int act(Shape shape, float scale = 0.05f, int64_t zero_point = 0) {
        return activation(std::move(shape), scale, zero_point);
    }
    int weights(Shape shape, int32_t axis) {
        const int t = act(std::move(shape), 0.02f);
        TensorDesc& d = m.tensors[static_cast<size_t>(t)];
        d.quant.axis = axis;
        d.data.resize(static_cast<size_t>(d.element_count()));
        for (uint8_t& b : d.data) b = static_cast<uint8_t>(rng() % 255);
        return t;
    }
    std::mt19937 rng{11};
};

// x -> CONV_2D -> PAD -> DEPTHWISE_CONV_2D -> MAX_POOL_2D -> ADD(itself) -> CONCATENATION
// (with the pool) -> MEAN -> RESHAPE -> FULLY_CONNECTED -> SOFTMAX: every operator kind
// whose shape rule differs.
Model base_network() {
    Builder b;
    const int x = b.act({1, 8, 8, 3});
    const int c = b.act({1, 8, 8, 4});
    Operator& conv = b.op(OpKind::Conv2d, {x, b.weights({4, 3, 3, 3}, 0), b.ints({5, -7, 9, 0}, {4})}, c);
    conv.padding = graph::Padding::Same;
    const int p = b.act({1, 10, 10, 4});
    b.op(OpKind::Pad, {c, b.ints({0, 0, 1, 1, 1, 1, 0, 0}, {4, 2})}, p);
    const int d = b.act({1, 8, 8, 4});
    b.op(OpKind::DepthwiseConv2d, {p, b.weights({1, 3, 3, 4}, 3), -1}, d);
    const int mp = b.act({1, 4, 4, 4});
    Operator& pool = b.op(OpKind::MaxPool2d, {d}, mp);
    pool.filter_h = pool.filter_w = pool.stride_h = pool.stride_w = 2;
    const int a = b.act({1, 4, 4, 4}, 0.1f, 3);
    b.op(OpKind::Add, {mp, mp}, a);
    const int cat = b.act({1, 4, 4, 8}, 0.1f, 3);
    b.op(OpKind::Concatenation, {a, mp}, cat).axis = 3;
    const int mean = b.act({1, 1, 4, 8}, 0.1f, 3);
    b.op(OpKind::Mean, {cat, b.ints({1}, {1})}, mean).keep_dims = true;
    const int r = b.act({1, 32}, 0.1f, 3);
    b.op(OpKind::Reshape, {mean, b.ints({-1, 32}, {2})}, r);
    const int f = b.act({1, 10}, 0.2f, -1);
    b.op(OpKind::FullyConnected, {r, b.weights({10, 32}, 0), b.ints(std::vector<int32_t>(10, 40), {10})}, f);
    const int s = b.act({1, 10}, 1.0f / 256, -128);
    b.op(OpKind::Softmax, {f}, s);
    b.m.inputs = {x};
    b.m.outputs = {s};
    return b.m;
}

int pick(std::mt19937& rng, const std::vector<int>& from) { return from[rng() % from.size()]; }

// One random field edit, keeping what the reader guarantees (a constant holds the bytes
// of its shape, indices in range).
void mutate(Model& m, std::mt19937& rng) {
    const auto tensors = static_cast<int>(m.tensors.size());
    const auto ops = static_cast<int>(m.operators.size());
    Operator& op = m.operators[rng() % static_cast<size_t>(ops)];
    TensorDesc& t = m.tensors[rng() % static_cast<size_t>(tensors)];
    switch (rng() % 10) {
        case 0:  // one dimension of a shape
        case 1:
            if (!t.shape.empty()) {
                t.shape[rng() % t.shape.size()] = pick(rng, {0, 1, 2, 3, 4, 5, 8, 16, 32, 1 << 20});
            }
            break;
        case 2:  // a dimension more or fewer
            if (rng() % 2 != 0 && !t.shape.empty()) {
                t.shape.pop_back();
            } else {
                t.shape.insert(t.shape.begin(), pick(rng, {1, 2, 4}));
            }
            break;
        case 3:
            op.stride_h = pick(rng, {1, 2, 3, 127});
            op.stride_w = pick(rng, {1, 2, 3, 127});
            break;
        case 4:
            op.dilation_h = pick(rng, {1, 2, 3});
            op.filter_w = pick(rng, {1, 2, 3, 9});
            op.padding = rng() % 2 ? graph::Padding::Same : graph::Padding::Valid;
            break;
        case 5:
            op.axis = pick(rng, {-5, -1, 0, 1, 2, 3, 4});
            op.keep_dims = !op.keep_dims;
            op.keep_num_dims = !op.keep_num_dims;
            break;
        case 6:  // a value of an int32 constant (shapes, paddings, axes, biases)
            if (t.type == DType::Int32 && !t.data.empty()) {
                const int32_t v = pick(rng, {-2, -1, 0, 1, 2, 3, 7, 1 << 30});
                std::memcpy(&t.data[4 * (rng() % (t.data.size() / 4))], &v, 4);
            }
            break;
        case 7:  // an operand replaced
            op.inputs[rng() % op.inputs.size()] = static_cast<int>(rng() % static_cast<size_t>(tensors));
            break;
        case 8: {  // two operators swapped in the execution order
            std::swap(m.operators[rng() % static_cast<size_t>(ops)], op);
            for (int i = 0; i < ops; ++i) m.operators[static_cast<size_t>(i)].index = i;
            break;
        }
        default:  // another graph output
            m.outputs = {static_cast<int>(rng() % static_cast<size_t>(tensors))};
            break;
    }
    for (TensorDesc& c : m.tensors) {  // the reader's invariant: constants hold their bytes
        if (!c.data.empty()) {
            const int64_t n = c.element_count() * static_cast<int64_t>(graph::dtype_size(c.type));
            if (n > 0 && n < (1 << 24)) {
                c.data.resize(static_cast<size_t>(n), 1);
            } else {
                c.data.clear();  // no longer a constant, as an empty buffer reads
            }
        }
    }
}

std::vector<reference::Value> random_inputs(const Model& m, std::mt19937& rng) {
    std::vector<reference::Value> inputs;
    for (const int t : m.inputs) {
        TensorI8 x(m.tensor(t).shape);
        for (int8_t& v : x.data) v = static_cast<int8_t>(rng() % 256);
        inputs.push_back(reference::Value::of(std::move(x)));
    }
    return inputs;
}

TEST(ModelMutants, AreRefusedOrRunWithTheirDeclaredShapesOnBothBackends) {
    const HwParams hw = derive_params(default_hw_config());
    const DeviceFactory fsim = [](const HwParams& p, uint64_t bytes) -> std::unique_ptr<Device> {
        return std::make_unique<FunctionalSim>(p, bytes);
    };
    std::mt19937 rng(30);
    constexpr int kTrials = 5000;
    int refused = 0, ran = 0, fsim_refused = 0;
    for (int trial = 0; trial < kTrials; ++trial) {
        Model m = base_network();
        const int edits = 1 + trial % 2;
        for (int e = 0; e < edits; ++e) mutate(m, rng);
        try {
            reference::check_model(m);
        } catch (const Error&) {
            ++refused;
            continue;
        }
        // Accepted: the reference runs it, with every output as declared.
        const std::vector<reference::Value> inputs = random_inputs(m, rng);
        NetworkRun ref;
        ASSERT_NO_THROW(ref = run_network(m, network::plan_network(m, hw, false), hw, nullptr, inputs))
            << "trial " << trial;
        ASSERT_EQ(ref.outputs.size(), m.outputs.size());
        for (size_t i = 0; i < ref.outputs.size(); ++i) {
            const TensorDesc& y = m.tensor(m.outputs[i]);
            ASSERT_EQ(ref.outputs[i].shape, y.shape) << "trial " << trial;
            ASSERT_EQ(static_cast<int64_t>(ref.outputs[i].i8.size() + ref.outputs[i].f32.size()),
                      y.element_count()) << "trial " << trial;
        }
        ++ran;
        // fsim: the same bytes, or a layer the device cannot take, refused.
        try {
            RunOptions check;
            check.check = true;
            const NetworkRun dev = run_network(m, network::plan_network(m, hw, true), hw, &fsim,
                                               inputs, check);
            EXPECT_FALSE(dev.mismatch.has_value()) << "trial " << trial;
            for (size_t i = 0; i < dev.outputs.size(); ++i) {
                EXPECT_EQ(dev.outputs[i].i8, ref.outputs[i].i8) << "trial " << trial;
            }
        } catch (const Error&) {
            ++fsim_refused;
        }
    }
    // Both outcomes are common: the edits are neither all harmless nor all fatal.
    EXPECT_GT(refused, kTrials / 4);
    EXPECT_GT(ran, kTrials / 8);
    EXPECT_LT(fsim_refused, ran / 2);
    std::printf("mutants: %d, refused %d, ran %d (fsim refused %d)\n", kTrials, refused, ran,
                fsim_refused);
}

}  // namespace
}  // namespace accel
