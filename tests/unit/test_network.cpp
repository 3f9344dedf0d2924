// The graph compiler and the network runner on small models built in the IR directly:
// what runs where, what is folded, that the arena never gives two live tensors the same
// bytes, and that fsim and the golden reference agree on every tensor.
#include <algorithm>
#include <cstring>
#include <random>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "compiler/add_program.hpp"
#include "graph_builder.hpp"
#include "devices/fsim.hpp"
#include "graph/model.hpp"
#include "hw/hw_config.hpp"
#include "network/network_plan.hpp"
#include "shipped_hw.hpp"
#include "reference/operator_params.hpp"
#include "runtime/network_runner.hpp"

namespace accel {
namespace {

using graph::DType;
using graph::Model;
using graph::OpKind;
using graph::Operator;
using graph::TensorDesc;
using network::Placement;

class ModelBuilder : public test::GraphBuilder {
public:
    int weights(std::vector<int64_t> shape, int64_t channels) {
        TensorDesc t;
        t.name = "w" + std::to_string(m.tensors.size());
        t.type = DType::Int8;
        t.shape = std::move(shape);
        t.quant.scale.assign(static_cast<size_t>(channels), 0.02f);
        t.quant.zero_point.assign(static_cast<size_t>(channels), 0);
        t.data.resize(static_cast<size_t>(t.element_count()));
        for (uint8_t& b : t.data) b = static_cast<uint8_t>(rng_() % 255);
        return add(std::move(t));
    }
    int bias(int64_t k) {
        TensorDesc t;
        t.name = "b" + std::to_string(m.tensors.size());
        t.type = DType::Int32;
        t.shape = {k};
        std::vector<int32_t> v(static_cast<size_t>(k));
        for (int32_t& x : v) x = static_cast<int32_t>(rng_() % 2001) - 1000;
        t.data.resize(v.size() * 4);
        std::memcpy(t.data.data(), v.data(), t.data.size());
        return add(std::move(t));
    }
    Model& model() { return m; }

private:
    std::mt19937 rng_{7};
};

// input -> PAD -> CONV_2D 3x3 -> CONV_2D 1x1 -> ADD(conv, conv) -> RESHAPE -> FULLY_CONNECTED
// (the ADD reads both convolutions: the first one's output outlives the second's input)
Model small_network() {
    ModelBuilder b;
    const int x = b.activation({1, 6, 6, 8}, 0.05f, -3);
    const int padded = b.activation({1, 8, 8, 8}, 0.05f, -3);
    b.op(OpKind::Pad, {x, b.ints({0, 0, 1, 1, 1, 1, 0, 0}, {4, 2})}, padded);
    const int c1 = b.activation({1, 6, 6, 8}, 0.1f, -128);
    Operator& conv1 = b.op(OpKind::Conv2d, {padded, b.weights({8, 3, 3, 8}, 8), b.bias(8)}, c1);
    conv1.activation = graph::Activation::Relu;
    const int c2 = b.activation({1, 6, 6, 8}, 0.08f, 5);
    b.op(OpKind::Conv2d, {c1, b.weights({8, 1, 1, 8}, 8), -1}, c2);
    const int sum = b.activation({1, 6, 6, 8}, 0.12f, 0);
    b.op(OpKind::Add, {c1, c2}, sum);
    const int flat = b.activation({1, 288}, 0.12f, 0);
    b.op(OpKind::Reshape, {sum, b.ints({1, 288}, {2})}, flat);
    const int y = b.activation({1, 4}, 0.3f, 2);
    b.op(OpKind::FullyConnected, {flat, b.weights({4, 288}, 4), b.bias(4)}, y);
    Model m = b.model();
    m.inputs = {x};
    m.outputs = {y};
    return m;
}

HwParams default_hw() { return derive_params(default_hw_config()); }

// A random int8 input of `shape`, as the model's one input.
std::vector<reference::Value> random_input(std::vector<int64_t> shape, unsigned seed) {
    TensorI8 x(std::move(shape));
    std::mt19937 rng(seed);
    for (int8_t& v : x.data) v = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
    return {reference::Value::of(x)};
}

// The model on fsim with every device tensor checked against the golden reference.
NetworkRun run_on_fsim(const Model& m, const HwParams& hw,
                       const std::vector<reference::Value>& inputs, bool keep_tensors = false,
                       int64_t inferences = 1) {
    const DeviceFactory fsim = [](const HwParams& p, uint64_t bytes) -> std::unique_ptr<Device> {
        return std::make_unique<FunctionalSim>(p, bytes);
    };
    RunOptions options;
    options.check = true;
    options.keep_tensors = keep_tensors;
    options.inferences = inferences;
    return run_network(m, network::plan_network(m, hw, true), hw, &fsim, inputs, options);
}

// A model run on the host alone (the golden reference), and on fsim.
struct ReferenceAndFsim {
    NetworkRun ref, dev;
};

// Runs both and expects fsim to find no mismatch in the `tensors_checked` device tensors it
// compared with the reference, and to give the reference's outputs.
ReferenceAndFsim run_against_reference(const Model& m, const HwParams& hw,
                                       const std::vector<reference::Value>& inputs,
                                       int tensors_checked, bool keep_tensors = false) {
    ReferenceAndFsim r{run_network(m, network::plan_network(m, hw, false), hw, nullptr, inputs),
                       run_on_fsim(m, hw, inputs, keep_tensors)};
    EXPECT_FALSE(r.dev.mismatch.has_value());
    EXPECT_EQ(r.dev.tensors_checked, tensors_checked);
    EXPECT_EQ(r.dev.outputs.size(), r.ref.outputs.size());
    for (size_t i = 0; i < std::min(r.dev.outputs.size(), r.ref.outputs.size()); ++i) {
        EXPECT_EQ(r.dev.outputs[i].i8, r.ref.outputs[i].i8) << "output " << i;
    }
    return r;
}

// Operator `op` of a run went to the device, with a predicted and a roofline cycle count.
void expect_on_device(const NetworkRun& run, size_t op) {
    EXPECT_EQ(run.operators[op].placement, Placement::Device) << "operator " << op;
    EXPECT_GT(run.operators[op].predicted_cycles, 0) << "operator " << op;
    EXPECT_GT(run.operators[op].roofline_cycles, 0) << "operator " << op;
}

TEST(NetworkPlan, PlacesFoldsAndReadsThroughPad) {
    const Model m = small_network();
    const network::NetworkPlan plan = network::plan_network(m, default_hw(), true);
    ASSERT_EQ(plan.steps.size(), 6u);
    EXPECT_EQ(plan.steps[0].placement, Placement::Folded);  // PAD into the 3x3 conv
    EXPECT_EQ(plan.steps[1].placement, Placement::Device);
    EXPECT_EQ(plan.steps[1].convs.front().input, 0);  // reads the PAD's input
    EXPECT_EQ(plan.steps[1].convs.front().layer.params.pad_top, 1);
    EXPECT_EQ(plan.steps[1].convs.front().layer.params.pad_right, 1);
    EXPECT_EQ(plan.steps[3].placement, Placement::Device);  // ADD, in add mode
    ASSERT_TRUE(plan.steps[3].add.has_value());
    EXPECT_EQ(plan.steps[3].add->entries, 36);  // 6x6 pixels, one channel block
    EXPECT_EQ(plan.steps[4].placement, Placement::Folded);  // RESHAPE
    EXPECT_EQ(plan.storage[static_cast<size_t>(m.operators[4].outputs[0])],
              m.operators[4].inputs[0]);
    // FULLY_CONNECTED over the RESHAPE: a 6x6 VALID conv over the ADD's [1,6,6,8] output,
    // requantized with the reference kernel's double scales.
    ASSERT_EQ(plan.steps[5].placement, Placement::Device);
    const network::ConvLayer& fc = plan.steps[5].convs.front();
    EXPECT_EQ(fc.input, m.operators[4].inputs[0]);
    EXPECT_EQ(fc.input_nhwc, (std::vector<int64_t>{1, 6, 6, 8}));
    EXPECT_EQ(fc.layer.shape.r, 6);
    EXPECT_EQ(fc.layer.shape.s, 6);
    EXPECT_EQ(fc.layer.shape.k, 4);
    EXPECT_EQ(fc.layer.params.double_scale.size(), 4u);
    EXPECT_TRUE(fc.layer.params.multiplier.empty());
    // weights [K, H*W*C] -> [H,W,C,K]: flat index (h*6 + w)*8 + c
    const TensorI8 flat_w = reference::constant_i8(m.tensor(m.operators[5].inputs[1]));
    EXPECT_EQ(fc.weights.data[static_cast<size_t>(((2 * 6 + 3) * 8 + 5) * 4 + 1)],
              flat_w.data[1 * 288 + (2 * 6 + 3) * 8 + 5]);
}

TEST(NetworkPlan, TheReferenceBackendFoldsNothingIntoTheConvolutions) {
    const network::NetworkPlan plan = network::plan_network(small_network(), default_hw(), false);
    EXPECT_EQ(plan.steps[0].placement, Placement::Host);
    EXPECT_EQ(plan.steps[1].convs.front().layer.params.pad_top, 0);
    EXPECT_TRUE(plan.arena.empty());
}

TEST(NetworkPlan, TensorsAliveTogetherNeverShareArenaBytes) {
    const Model m = small_network();
    const network::NetworkPlan plan = network::plan_network(m, default_hw(), true);
    // Live range of each arena tensor: from its producer (or the start) to its last reader.
    std::map<int, std::pair<int, int>> live;
    for (const auto& [t, slot] : plan.arena) {
        int first = -1, last = static_cast<int>(m.operators.size());
        for (const Operator& op : m.operators) {
            if (op.outputs[0] == t) first = op.index;
        }
        bool output = false;
        for (int o : m.outputs) output |= o == t;
        if (!output) {
            last = first;
            for (const Operator& op : m.operators) {
                for (int i : op.inputs) {
                    if (i == t) last = std::max(last, op.index);
                }
            }
            // Read through a folded PAD or RESHAPE: alive until the reader behind it.
            for (const network::Step& s : plan.steps) {
                if (!s.convs.empty() && s.convs.front().input == t) last = std::max(last, s.op);
            }
        }
        live[t] = {first, last};
        EXPECT_LE(slot.offset + slot.bytes, plan.arena_bytes);
        EXPECT_EQ(slot.offset % 64, 0);
    }
    for (const auto& [a, sa] : plan.arena) {
        for (const auto& [b, sb] : plan.arena) {
            if (a >= b) continue;
            const bool together = live[a].first <= live[b].second && live[b].first <= live[a].second;
            const bool overlap = sa.offset < sb.offset + sb.bytes && sb.offset < sa.offset + sa.bytes;
            EXPECT_FALSE(together && overlap) << "tensors " << a << " and " << b;
        }
    }
}

TEST(NetworkRunner, FsimMatchesTheGoldenReferenceOnEveryTensor) {
    const Model m = small_network();
    // The two convolutions, the ADD and the FC are checked.
    const NetworkRun dev =
        run_against_reference(m, default_hw(), random_input({1, 6, 6, 8}, 3), 4, true).dev;
    ASSERT_EQ(dev.outputs.size(), 1u);
    EXPECT_EQ(dev.outputs[0].shape, (std::vector<int64_t>{1, 4}));
    expect_on_device(dev, 1);
}

// --match opt: the convolutions and the FC round their final shift's ties upward on the
// device (the FC with Prepare's fixed-point multipliers, not the double scales), ADD as
// the reference does; fsim agrees with the golden reference of the same mode, and the
// two modes' outputs are not all equal.
TEST(NetworkRunner, MatchOptRoundsConvolutionsUpOnTheDevice) {
    const Model m = small_network();
    const HwParams hw = default_hw();
    const network::NetworkPlan plan = network::plan_network(m, hw, true, Match::opt);
    EXPECT_EQ(plan.match, Match::opt);
    EXPECT_TRUE(plan.steps[1].convs.front().layer.params.round_up);
    const network::ConvLayer& fc = plan.steps[5].convs.front();
    EXPECT_TRUE(fc.layer.params.round_up);
    EXPECT_TRUE(fc.layer.params.double_scale.empty());
    EXPECT_EQ(fc.layer.params.multiplier.size(), 4u);
    EXPECT_FALSE(network::plan_network(m, hw, true).steps[1].convs.front().layer.params.round_up);

    const DeviceFactory fsim = [](const HwParams& p, uint64_t bytes) -> std::unique_ptr<Device> {
        return std::make_unique<FunctionalSim>(p, bytes);
    };
    RunOptions options;
    options.check = true;
    options.keep_tensors = true;
    bool some_differ = false;
    for (uint64_t seed = 1; seed <= 8; ++seed) {
        const auto inputs = random_input({1, 6, 6, 8}, seed);
        const NetworkRun opt = run_network(m, plan, hw, &fsim, inputs, options);
        EXPECT_FALSE(opt.mismatch.has_value());
        EXPECT_EQ(opt.tensors_checked, 4);
        const NetworkRun golden =
            run_network(m, network::plan_network(m, hw, false, Match::opt), hw, nullptr, inputs);
        EXPECT_EQ(opt.outputs[0].i8, golden.outputs[0].i8);
        const NetworkRun ref = run_network(m, network::plan_network(m, hw, false), hw, nullptr,
                                           inputs, options);
        for (const auto& [t, v] : opt.tensors) some_differ |= v.i8 != ref.tensors.at(t).i8;
    }
    EXPECT_TRUE(some_differ) << "no tensor of eight inputs has a tie the modes round apart";
}

// input -> PAD -> DEPTHWISE_CONV_2D 3x3 stride 2 (VALID) -> DEPTHWISE_CONV_2D 3x3 SAME
// RELU6 -> CONV_2D 1x1: 20 channels, a partial last channel block on every config.
Model depthwise_network(int64_t n = 1) {
    ModelBuilder b;
    const int x = b.activation({n, 9, 9, 20}, 0.05f, 4);
    const int padded = b.activation({n, 11, 11, 20}, 0.05f, 4);
    b.op(OpKind::Pad, {x, b.ints({0, 0, 1, 1, 1, 1, 0, 0}, {4, 2})}, padded);
    const int d1 = b.activation({n, 5, 5, 20}, 0.09f, -20);
    Operator& dw1 = b.op(OpKind::DepthwiseConv2d,
                         {padded, b.weights({1, 3, 3, 20}, 20), b.bias(20)}, d1);
    dw1.stride_h = dw1.stride_w = 2;
    const int d2 = b.activation({n, 5, 5, 20}, 0.03f, -128);
    Operator& dw2 = b.op(OpKind::DepthwiseConv2d, {d1, b.weights({1, 3, 3, 20}, 20), -1}, d2);
    dw2.padding = graph::Padding::Same;
    dw2.activation = graph::Activation::Relu6;
    const int y = b.activation({n, 5, 5, 6}, 0.2f, 3);
    b.op(OpKind::Conv2d, {d2, b.weights({6, 1, 1, 20}, 6), b.bias(6)}, y);
    Model m = b.model();
    m.inputs = {x};
    m.outputs = {y};
    return m;
}

TEST(NetworkPlan, DepthwiseRunsOnTheDeviceOneChannelBlockAtATime) {
    const Model m = depthwise_network();
    const HwParams hw = default_hw();
    const network::NetworkPlan plan = network::plan_network(m, hw, true);
    EXPECT_EQ(plan.steps[0].placement, Placement::Folded);  // PAD into the depthwise
    ASSERT_EQ(plan.steps[1].placement, Placement::Device);
    const std::vector<network::ConvLayer>& blocks = plan.steps[1].convs;
    ASSERT_EQ(blocks.size(), 2u);  // ceil(20 / 16)
    // One program for both blocks: the second one's loads run under the first's drain.
    ASSERT_TRUE(plan.steps[1].chain.has_value());
    EXPECT_LT(plan.steps[1].chain->first.predicted_cycles,
              blocks[0].plan.predicted_cycles + blocks[1].plan.predicted_cycles);
    EXPECT_EQ(plan.steps[1].chain->first.instructions,
              blocks[0].plan.instructions + blocks[1].plan.instructions - 1);
    EXPECT_FALSE(plan.steps[3].chain.has_value());  // the 1x1 conv: one layer
    EXPECT_EQ(blocks[1].input, 0);
    EXPECT_EQ(blocks[1].layer.shape.c, 16);
    EXPECT_EQ(blocks[1].input_slab, 9 * 9 * 16);   // the second block's slab of x
    EXPECT_EQ(blocks[1].output_slab, 5 * 5 * 16);
    // Channel 17 is the second block's second: its filter on the diagonal only.
    const TensorI8 filter = reference::constant_i8(m.tensor(m.operators[1].inputs[1]));
    const TensorI8& w = blocks[1].weights;  // [R,S,C,K] = [3,3,16,16]
    auto weight = [&](int r, int s, int c, int k) { return w.data[static_cast<size_t>(((r * 3 + s) * 16 + c) * 16 + k)]; };
    EXPECT_EQ(weight(1, 2, 1, 1), filter.data[(1 * 3 + 2) * 20 + 17]);
    EXPECT_EQ(weight(1, 2, 1, 2), 0);
    EXPECT_EQ(weight(1, 2, 5, 5), 0);  // channel 21 does not exist
}

class DepthwiseOnDevice : public ::testing::TestWithParam<const char*> {};

TEST_P(DepthwiseOnDevice, FsimMatchesTheGoldenReferenceOnEveryTensor) {
    const Model m = depthwise_network();
    const HwParams hw = test::shipped_hw(GetParam());
    const NetworkRun dev = run_on_fsim(m, hw, random_input({1, 9, 9, 20}, 5));
    EXPECT_FALSE(dev.mismatch.has_value());
    EXPECT_EQ(dev.tensors_checked, 3);  // both depthwise operators and the conv
    EXPECT_EQ(dev.operators[2].placement, Placement::Device);
    EXPECT_EQ(dev.operators[2].macs, 5 * 5 * 20 * 9);  // its own work, not its blocks'
    EXPECT_GT(dev.operators[2].predicted_cycles, dev.operators[2].roofline_cycles);
}

INSTANTIATE_TEST_SUITE_P(Configs, DepthwiseOnDevice, ::testing::Values("default", "tiny"));

// Batch 2 on a batch-1 core: each image is its own device entry, and each depthwise
// channel block runs once per image.
TEST(NetworkRunner, ABatchOfTwoMatchesTheGoldenReference) {
    const Model m = depthwise_network(2);
    const auto [ref, dev] =
        run_against_reference(m, default_hw(), random_input({2, 9, 9, 20}, 11), 3);
    EXPECT_EQ(dev.operators[1].placement, Placement::Device);
    ASSERT_EQ(dev.outputs.size(), 1u);
    EXPECT_EQ(dev.outputs[0].shape, (std::vector<int64_t>{2, 5, 5, 6}));
    // The two images differ, so a batch mixed up would show.
    EXPECT_NE(std::vector<int8_t>(ref.outputs[0].i8.begin(), ref.outputs[0].i8.begin() + 150),
              std::vector<int8_t>(ref.outputs[0].i8.begin() + 150, ref.outputs[0].i8.end()));
}

// input -> CONV_2D 1x1 -> ADD(input, conv) with RELU: one operand the host writes, one
// the device does; 20 channels (a partial channel block) over 20x20 pixels and n images,
// more entries than two tiles of the add program hold on either config.
Model residual_network(int64_t n) {
    ModelBuilder b;
    const int x = b.activation({n, 20, 20, 20}, 0.04f, -7);
    const int c = b.activation({n, 20, 20, 20}, 0.07f, 12);
    b.op(OpKind::Conv2d, {x, b.weights({20, 1, 1, 20}, 20), b.bias(20)}, c);
    const int y = b.activation({n, 20, 20, 20}, 0.09f, -30);
    b.op(OpKind::Add, {x, c}, y).activation = graph::Activation::Relu;
    Model m = b.model();
    m.inputs = {x};
    m.outputs = {y};
    return m;
}

// A shipped config by name, and a batch of one or two images.
class ConfigAndImages : public ::testing::TestWithParam<std::tuple<const char*, int64_t>> {
protected:
    HwParams hw() const { return test::shipped_hw(std::get<0>(GetParam())); }
    int64_t images() const { return std::get<1>(GetParam()); }
};

const auto kConfigsAndImages = ::testing::Combine(::testing::Values("default", "tiny"),
                                                  ::testing::Values(int64_t{1}, int64_t{2}));

class AddOnDevice : public ConfigAndImages {};

TEST_P(AddOnDevice, ResidualAddsMatchTheGoldenReference) {
    const int64_t n = images();
    const Model m = residual_network(n);
    const NetworkRun dev =
        run_against_reference(m, hw(), random_input({n, 20, 20, 20}, 13), 2).dev;
    ASSERT_EQ(dev.operators.size(), 2u);
    expect_on_device(dev, 1);
    ASSERT_EQ(dev.outputs.size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(ConfigsAndImages, AddOnDevice, kConfigsAndImages);

// input [n,5,5,20] -> CONV_2D 1x1 -> RESHAPE [n,500] -> FULLY_CONNECTED [n,10] RELU
// (per-channel weights: an HxW conv over the 4-D activation) -> FULLY_CONNECTED [n,7]
// (per-tensor: a 1x1 conv over the 2-D activation), and a second input [n,40] ->
// FULLY_CONNECTED [n,24] (a 2-D activation the host writes).
Model fully_connected_network(int64_t n) {
    ModelBuilder b;
    const int x = b.activation({n, 5, 5, 20}, 0.05f, 3);
    const int c = b.activation({n, 5, 5, 20}, 0.06f, -9);
    b.op(OpKind::Conv2d, {x, b.weights({20, 1, 1, 20}, 20), b.bias(20)}, c);
    const int flat = b.activation({n, 500}, 0.06f, -9);
    b.op(OpKind::Reshape, {c, b.ints({static_cast<int32_t>(n), 500}, {2})}, flat);
    const int f1 = b.activation({n, 10}, 0.4f, -128);
    b.op(OpKind::FullyConnected, {flat, b.weights({10, 500}, 10), b.bias(10)}, f1).activation =
        graph::Activation::Relu;
    const int f2 = b.activation({n, 7}, 0.5f, 6);
    b.op(OpKind::FullyConnected, {f1, b.weights({7, 10}, 1), -1}, f2);
    const int v = b.activation({n, 40}, 0.03f, -2);
    const int f3 = b.activation({n, 24}, 0.2f, 1);
    b.op(OpKind::FullyConnected, {v, b.weights({24, 40}, 24), b.bias(24)}, f3);
    Model m = b.model();
    m.inputs = {x, v};
    m.outputs = {f2, f3};
    return m;
}

class FullyConnectedOnDevice : public ConfigAndImages {};

TEST_P(FullyConnectedOnDevice, FsimMatchesTheGoldenReference) {
    const int64_t n = images();
    const Model m = fully_connected_network(n);
    std::vector<reference::Value> inputs = random_input({n, 5, 5, 20}, 17);
    inputs.push_back(random_input({n, 40}, 19).front());
    // The conv and the three FCs are checked.
    const auto [ref, dev] = run_against_reference(m, hw(), inputs, 4);
    ASSERT_EQ(dev.operators.size(), 5u);
    for (size_t op : {2u, 3u, 4u}) expect_on_device(dev, op);
    EXPECT_EQ(dev.operators[2].macs, n * 10 * 500);
    ASSERT_EQ(dev.outputs.size(), 2u);
    EXPECT_EQ(dev.outputs[1].shape, (std::vector<int64_t>{n, 24}));
    // Not all clamped to one value: the outputs test the requantization.
    EXPECT_GT(std::set<int8_t>(ref.outputs[1].i8.begin(), ref.outputs[1].i8.end()).size(), 5u);
}

INSTANTIATE_TEST_SUITE_P(ConfigsAndImages, FullyConnectedOnDevice, kConfigsAndImages);

TEST(NetworkPlan, FullyConnectedWithAsymmetricWeightsStaysOnTheHost) {
    Model m = fully_connected_network(1);
    m.tensors[static_cast<size_t>(m.operators[4].inputs[1])].quant.zero_point = {3};
    m.tensors[static_cast<size_t>(m.operators[4].inputs[1])].quant.scale = {0.02f};
    const network::NetworkPlan plan = network::plan_network(m, default_hw(), true);
    EXPECT_EQ(plan.steps[2].placement, Placement::Device);
    EXPECT_EQ(plan.steps[4].placement, Placement::Host);
}

TEST(NetworkPlan, AddsThatBroadcastOrReadConstantsStayOnTheHost) {
    ModelBuilder b;
    const int x = b.activation({1, 4, 4, 8}, 0.04f, 0);
    const int row = b.activation({1, 1, 4, 8}, 0.04f, 0);
    const int y = b.activation({1, 4, 4, 8}, 0.05f, 0);
    b.op(OpKind::Add, {x, row}, y);
    Model m = b.model();
    m.inputs = {x, row};
    m.outputs = {y};
    EXPECT_FALSE(network::add_on_device(m, m.operators[0]));
    EXPECT_EQ(network::plan_network(m, default_hw(), true).steps[0].placement, Placement::Host);
}

TEST(NetworkPlan, ConfigsWithUnequalBlocksAreRefusedForDevices) {
    HwConfig c = default_hw_config();
    c.block_out = 8;
    EXPECT_THROW(network::plan_network(small_network(), derive_params(c), true), Error);
}

}  // namespace
}  // namespace accel

namespace accel {
namespace {

// In each of WGT and PRM, every resident layer's region lies above the shared window
// and apart from the others'.
void expect_disjoint_regions(const network::NetworkPlan& plan, const HwParams& hw) {
    using Region = std::optional<network::BufferRegion> network::Residency::*;
    const std::tuple<Region, int64_t, int64_t> buffers[] = {
        {&network::Residency::weights, plan.shared_wgt_entries, hw.wgt_depth},
        {&network::Residency::params, plan.shared_prm_entries, hw.prm_depth}};
    for (const auto& [what, shared, depth] : buffers) {
        std::vector<std::pair<int64_t, int64_t>> regions;  // [base, end)
        for (const network::Step& s : plan.steps) {
            for (const network::ConvLayer& c : s.convs) {
                if (!c.resident) continue;
                EXPECT_LT(c.resident->steady.instructions, c.plan.instructions);
                const std::optional<network::BufferRegion>& r = (*c.resident).*what;
                if (!r) continue;
                EXPECT_GE(r->base, shared);
                EXPECT_LE(r->base + r->entries, depth);
                regions.emplace_back(r->base, r->base + r->entries);
            }
        }
        std::sort(regions.begin(), regions.end());
        for (size_t i = 1; i < regions.size(); ++i) EXPECT_LE(regions[i - 1].second, regions[i].first);
    }
}

TEST(WeightResidency, SmallWeightsEachGetARegionAboveTheSharedWindow) {
    const Model m = small_network();
    const HwParams hw = default_hw();
    const network::NetworkPlan plan = network::plan_network(m, hw, true);
    int weights = 0, params = 0;
    for (const network::Step& s : plan.steps) {
        for (const network::ConvLayer& c : s.convs) {
            weights += c.resident && c.resident->weights;
            params += c.resident && c.resident->params;
        }
    }
    EXPECT_EQ(weights, 3);  // the two convolutions and the FULLY_CONNECTED
    EXPECT_EQ(params, 3);
    EXPECT_GE(plan.shared_wgt_entries, kAddWeightEntries);  // the ADD's identity weights
    EXPECT_GE(plan.shared_prm_entries, kAddParamEntries);
    expect_disjoint_regions(plan, hw);
}

// One 3x3 conv of 64 to 260 channels: 146 KiB of weights against tiny's 4 KiB buffer,
// 65 output-channel blocks of parameters against its 64-entry table.
Model large_weights_network() {
    ModelBuilder b;
    const int x = b.activation({1, 6, 6, 64}, 0.05f, 1);
    const int y = b.activation({1, 4, 4, 260}, 0.2f, -3);
    b.op(OpKind::Conv2d, {x, b.weights({260, 3, 3, 64}, 260), b.bias(260)}, y);
    Model m = b.model();
    m.inputs = {x};
    m.outputs = {y};
    return m;
}

TEST(WeightResidency, ConstantsLargerThanTheBuffersStream) {
    const Model m = large_weights_network();
    const HwParams& hw = test::shipped_hw("tiny");
    const network::NetworkPlan plan = network::plan_network(m, hw, true);
    EXPECT_FALSE(plan.steps[0].convs[0].resident.has_value());
    EXPECT_EQ(plan.shared_wgt_entries, hw.wgt_depth);
    EXPECT_EQ(plan.shared_prm_entries, hw.prm_depth);
    // Every inference loads them again, and costs the same.
    const NetworkRun dev = run_on_fsim(m, hw, random_input({1, 6, 6, 64}, 17), false, 2);
    EXPECT_FALSE(dev.mismatch.has_value());
    ASSERT_EQ(dev.steady.size(), 1u);
    EXPECT_TRUE(dev.resident_tensors.empty());
    EXPECT_FALSE(dev.steady[0].weights_resident || dev.steady[0].params_resident);
    EXPECT_EQ(dev.steady[0].predicted_cycles, dev.operators[0].predicted_cycles);
    EXPECT_EQ(dev.steady[0].dram_read_bytes, dev.operators[0].dram_read_bytes);
    EXPECT_EQ(dev.steady[0].roofline_cycles, dev.operators[0].roofline_cycles);
}

// Depthwise blocks, a conv and an ADD between them: the programs that skip their weight
// LOADs read what the first inference left in WGT, next to programs that load theirs
// into the shared window every time; fsim's output is bit-exact in every inference.
class ResidentWeightsOnDevice : public ::testing::TestWithParam<const char*> {};

TEST_P(ResidentWeightsOnDevice, LaterInferencesFindTheWeightsOnChip) {
    const HwParams& hw = test::shipped_hw(GetParam());
    for (const Model& m : {depthwise_network(), residual_network(1)}) {
        const std::vector<int64_t> shape = m.tensor(m.inputs[0]).shape;
        const network::NetworkPlan plan = network::plan_network(m, hw, true);
        expect_disjoint_regions(plan, hw);
        const auto ref = run_network(m, network::plan_network(m, hw, false), hw, nullptr,
                                     random_input(shape, 19));
        const NetworkRun dev = run_on_fsim(m, hw, random_input(shape, 19), false, 3);
        EXPECT_FALSE(dev.mismatch.has_value());
        EXPECT_EQ(dev.inferences, 3);
        const auto device_steps = std::count_if(plan.steps.begin(), plan.steps.end(),
                                                [](const network::Step& s) {
                                                    return s.placement == Placement::Device;
                                                });
        EXPECT_EQ(dev.tensors_checked, 3 * device_steps);  // each inference's, all checked
        ASSERT_EQ(dev.outputs.size(), 1u);
        EXPECT_EQ(dev.outputs[0].i8, ref.outputs[0].i8);
        ASSERT_EQ(dev.steady.size(), dev.operators.size());
        EXPECT_FALSE(dev.resident_tensors.empty());
        for (size_t i = 0; i < dev.operators.size(); ++i) {
            const OperatorRun& first = dev.operators[i];
            const OperatorRun& later = dev.steady[i];
            EXPECT_EQ(later.weights_resident, first.weights_resident);
            EXPECT_EQ(later.params_resident, first.params_resident);
            if (!first.weights_resident && !first.params_resident) continue;
            EXPECT_LT(later.dram_read_bytes, first.dram_read_bytes) << "operator " << i;
            EXPECT_LT(later.predicted_cycles, first.predicted_cycles) << "operator " << i;
            // Fewer compulsory bytes; the same when the MACs bound it.
            EXPECT_LE(later.roofline_cycles, first.roofline_cycles) << "operator " << i;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Configs, ResidentWeightsOnDevice, ::testing::Values("default", "tiny"));

}  // namespace
}  // namespace accel
