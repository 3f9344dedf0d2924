#include "network/network_plan.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/int_math.hpp"
#include "compiler/packing.hpp"
#include "compiler/planner.hpp"
#include "compiler/scheduler.hpp"
#include "network/block_chain.hpp"
#include "network/weight_residency.hpp"
#include "ops/fully_connected.hpp"
#include "reference/constant_folding.hpp"
#include "reference/model_check.hpp"
#include "reference/operator_params.hpp"

namespace accel::network {
namespace {

using graph::Model;
using graph::OpKind;
using graph::Operator;
using graph::TensorDesc;
using reference::add_params;
using reference::check_model;
using reference::constant_i8;
using reference::conv_bias;
using reference::fused_activation;
using reference::pad_amounts;
using reference::quant_params;
using reference::weights_hwio;

// The operators that read `tensor`.
std::vector<int> consumers(const Model& m, int tensor) {
    std::vector<int> out;
    for (const Operator& op : m.operators) {
        if (std::find(op.inputs.begin(), op.inputs.end(), tensor) != op.inputs.end()) {
            out.push_back(op.index);
        }
    }
    return out;
}

// The operator that writes `tensor`, or -1 for a model input or constant.
int producer(const Model& m, int tensor) {
    for (const Operator& op : m.operators) {
        if (std::find(op.outputs.begin(), op.outputs.end(), tensor) != op.outputs.end()) {
            return op.index;
        }
    }
    return -1;
}

bool is_model_output(const Model& m, int tensor) {
    return std::find(m.outputs.begin(), m.outputs.end(), tensor) != m.outputs.end();
}

// A PAD that only pads H and W, whose output only `conv_op` reads: the conv's load
// unit inserts the same rows and columns of the zero point itself.
struct FoldedPad {
    int input = -1;
    int64_t top = 0, bottom = 0, left = 0, right = 0;
};
std::optional<FoldedPad> foldable_pad(const Model& m, int tensor, int conv_op) {
    const int p = producer(m, tensor);
    if (p < 0 || m.operators[static_cast<size_t>(p)].kind != OpKind::Pad) return std::nullopt;
    if (consumers(m, tensor) != std::vector<int>{conv_op} || is_model_output(m, tensor)) {
        return std::nullopt;
    }
    const Operator& pad = m.operators[static_cast<size_t>(p)];
    const std::vector<int64_t> pads = pad_amounts(m, pad);  // [dims][2]
    if (pads.size() != 8 || pads[0] || pads[1] || pads[6] || pads[7]) return std::nullopt;
    for (size_t i = 2; i < 6; ++i) {
        if (pads[i] > kMaxLoadPad) return std::nullopt;  // the load unit could not insert it
    }
    return FoldedPad{pad.inputs[0], pads[2], pads[3], pads[4], pads[5]};
}

// Greedy first fit, largest first: a tensor takes the lowest offset that no tensor
// alive at the same time holds.
struct Live {
    int tensor;
    int first, last;  // steps
    int64_t bytes;
};
int64_t allocate(std::vector<Live> live, std::map<int, ArenaSlot>& arena) {
    std::sort(live.begin(), live.end(), [](const Live& a, const Live& b) {
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.tensor < b.tensor;
    });
    std::vector<std::pair<Live, int64_t>> placed;
    int64_t peak = 0;
    for (const Live& t : live) {
        std::vector<std::pair<int64_t, int64_t>> taken;  // [offset, end) of overlapping
        for (const auto& [o, at] : placed) {
            if (o.first <= t.last && t.first <= o.last) taken.emplace_back(at, at + o.bytes);
        }
        std::sort(taken.begin(), taken.end());
        int64_t at = 0;
        for (const auto& [b, e] : taken) {
            if (at + t.bytes <= b) break;
            at = std::max(at, e);
        }
        placed.emplace_back(t, at);
        arena[t.tensor] = {at, t.bytes};
        peak = std::max(peak, at + t.bytes);
    }
    return peak;
}

}  // namespace

namespace {

// A CONV_2D's or DEPTHWISE_CONV_2D's layer (reference/operator_params.hpp) made to read
// through a folded PAD, when `fold` finds one: the PAD's rows and columns join its
// padding. Returns whether it folded one.
bool fold_pad(const Model& m, const Operator& op, bool fold, ConvLayer& c) {
    c.input = op.inputs[0];
    c.input_nhwc = m.tensor(c.input).shape;
    if (!fold) return false;
    const std::optional<FoldedPad> folded = foldable_pad(m, op.inputs[0], op.index);
    if (!folded) return false;
    c.input = folded->input;
    c.input_nhwc = m.tensor(c.input).shape;
    Conv2dLayer& l = c.layer;
    l.shape.h = c.input_nhwc[1];
    l.shape.w = c.input_nhwc[2];
    l.params.pad_top = static_cast<int>(l.params.pad_top + folded->top);
    l.params.pad_bottom = static_cast<int>(l.params.pad_bottom + folded->bottom);
    l.params.pad_left = static_cast<int>(l.params.pad_left + folded->left);
    l.params.pad_right = static_cast<int>(l.params.pad_right + folded->right);
    return true;
}

}  // namespace

ConvLayer conv_layer(const Model& m, const Operator& op, bool fold, Match match) {
    reference::Conv2dOperator conv = reference::conv2d_operator(m, op, match);
    ConvLayer c;
    c.layer = std::move(conv.layer);
    c.weights = std::move(conv.weights);
    c.bias = std::move(conv.bias);
    if (fold_pad(m, op, fold, c)) validate(c.layer);  // its own layer is validated already
    return c;
}

std::optional<FullyConnectedInput> fully_connected_input(const Model& m, const Operator& op) {
    if (op.kind != OpKind::FullyConnected || op.inputs.size() < 2 || op.inputs[0] < 0) {
        return std::nullopt;
    }
    const TensorDesc& x = m.tensor(op.inputs[0]);
    const TensorDesc& w = m.tensor(op.inputs[1]);
    const TensorDesc& y = m.tensor(op.outputs[0]);
    const bool symmetric_int8 =
        w.type == graph::DType::Int8 && w.is_constant() && w.shape.size() == 2 &&
        std::all_of(w.quant.zero_point.begin(), w.quant.zero_point.end(),
                    [](int64_t z) { return z == 0; });
    if (!symmetric_int8 || x.is_constant() || x.type != graph::DType::Int8 ||
        y.type != graph::DType::Int8 || y.shape.size() != 2 || y.shape[1] != w.shape[0]) {
        return std::nullopt;
    }
    const int64_t n = y.shape[0], depth = w.shape[1];
    const int p = producer(m, op.inputs[0]);
    if (p >= 0 && m.operators[static_cast<size_t>(p)].kind == OpKind::Reshape) {
        const int flat = m.operators[static_cast<size_t>(p)].inputs[0];
        const std::vector<int64_t>& s = m.tensor(flat).shape;
        if (s.size() == 4 && s[0] == n && s[1] * s[2] * s[3] == depth) return FullyConnectedInput{flat, s};
    }
    if (x.shape == std::vector<int64_t>{n, depth}) return FullyConnectedInput{op.inputs[0], {n, 1, 1, depth}};
    return std::nullopt;
}

ConvLayer fully_connected_layer(const Model& m, const Operator& op, const FullyConnectedInput& in,
                                Match match) {
    const TensorDesc& x = m.tensor(op.inputs[0]);
    const TensorDesc& w = m.tensor(op.inputs[1]);
    const TensorDesc& y = m.tensor(op.outputs[0]);
    const FullyConnectedParams fc = prepare_fully_connected(
        w.shape, fused_activation(op.activation), quant_params(x), w.quant.scale,
        w.quant.zero_point.at(0), quant_params(y));
    const std::vector<int64_t>& s = in.nhwc;
    ConvLayer c;
    c.input = in.tensor;
    c.input_nhwc = s;
    c.layer.shape = {s[0], s[1], s[2], s[3], w.shape[0], s[1], s[2]};  // H x W, VALID
    c.layer.params.input_zero_point = -fc.input_offset;
    c.layer.params.output_zero_point = fc.output_offset;
    if (reference::fully_connected_fixed_point(match)) {
        c.layer.params.multiplier = fc.multiplier;
        c.layer.params.shift = fc.shift;
        c.layer.params.round_up = reference::final_shift_rounds_up(match, op.kind);
    } else {
        c.layer.params.double_scale = fc.effective_scale;
    }
    c.layer.params.act_min = fc.act_min;
    c.layer.params.act_max = fc.act_max;
    c.weights = weights_hwio(constant_i8(w), s[1], s[2], s[3]);
    c.bias = conv_bias(m, op, w.shape[0]);
    validate(c.layer);
    return c;
}

bool depthwise_on_device(const Model& m, const Operator& op) {
    const TensorDesc& x = m.tensor(op.inputs[0]);
    const TensorDesc& w = m.tensor(op.inputs[1]);
    return x.shape.size() == 4 && w.shape.size() == 4 && w.shape[3] == x.shape[3];
}

std::vector<ConvLayer> depthwise_blocks(const Model& m, const Operator& op, const HwParams& hw,
                                        Match match) {
    ConvLayer whole;
    whole.layer = reference::window_layer(m, op, match);
    fold_pad(m, op, true, whole);
    const TensorI8 filter = constant_i8(m.tensor(op.inputs[1]));  // [1,R,S,C]
    const int64_t channels = filter.shape[3], taps = filter.shape[1] * filter.shape[2];
    const std::vector<int32_t> bias = conv_bias(m, op, channels);
    const int64_t block = hw.block_in, batch = hw.config.batch;
    const std::vector<int64_t>& in = whole.input_nhwc;
    const std::vector<int64_t>& out = m.tensor(op.outputs[0]).shape;
    // One slab holds `batch` images of one channel block ([NB][CB][H][W], layout.hpp).
    const int64_t in_slab = activation_bytes({1, in[1], in[2], block}, hw);
    const int64_t out_slab = activation_bytes({1, out[1], out[2], block}, hw);
    const int64_t channel_blocks = ceil_div(channels, block);
    std::vector<ConvLayer> blocks;
    for (int64_t g = 0; g < channel_blocks; ++g) {
        ConvLayer c = whole;
        c.layer.shape.c = c.layer.shape.k = block;
        c.weights = TensorI8({filter.shape[1], filter.shape[2], block, block});
        c.bias.assign(static_cast<size_t>(block), 0);
        std::vector<int32_t>& mult = c.layer.params.multiplier;
        std::vector<int32_t>& shift = c.layer.params.shift;
        mult.assign(static_cast<size_t>(block), whole.layer.params.multiplier[static_cast<size_t>(g * block)]);
        shift.assign(static_cast<size_t>(block), whole.layer.params.shift[static_cast<size_t>(g * block)]);
        for (int64_t j = 0; j < block && g * block + j < channels; ++j) {
            const auto ch = static_cast<size_t>(g * block + j);
            for (int64_t t = 0; t < taps; ++t) {  // w[r,s,j,j] = filter[0,r,s,ch]
                c.weights.data[static_cast<size_t>((t * block + j) * block + j)] =
                    filter.data[static_cast<size_t>(t * channels) + ch];
            }
            c.bias[static_cast<size_t>(j)] = bias[ch];
            mult[static_cast<size_t>(j)] = whole.layer.params.multiplier[ch];
            shift[static_cast<size_t>(j)] = whole.layer.params.shift[ch];
        }
        // The rest of a last partial block computes padding channels no one reads.
        validate(c.layer);
        for (int64_t nb = 0; nb * batch < in[0]; ++nb) {  // the images of one slab
            ConvLayer b = c;
            b.layer.shape.n = std::min(batch, in[0] - nb * batch);
            b.input_slab = (nb * channel_blocks + g) * in_slab;
            b.output_slab = (nb * channel_blocks + g) * out_slab;
            blocks.push_back(std::move(b));
        }
    }
    return blocks;
}

const char* placement_name(Placement p) {
    switch (p) {
        case Placement::Device: return "device";
        case Placement::Host: return "host";
        case Placement::Folded: return "folded";
    }
    return "?";
}

bool add_on_device(const Model& m, const Operator& op) {
    if (op.kind != OpKind::Add || op.inputs.size() != 2) return false;
    const std::vector<int64_t>& shape = m.tensor(op.outputs[0]).shape;
    if (shape.size() != 4 && shape.size() != 2) return false;
    for (int t : op.inputs) {
        if (t < 0 || m.tensor(t).is_constant() || m.tensor(t).shape != shape) return false;
    }
    return true;
}

std::vector<int64_t> nhwc_of(const std::vector<int64_t>& s) {
    if (s.size() == 4) return s;
    if (s.size() == 2) return {s[0], 1, 1, s[1]};
    throw Error(fmt::format("a device activation must be 4-D or 2-D, got {} dimensions",
                            s.size()));
}

NetworkPlan plan_network(const Model& m, const HwParams& hw, bool on_device, Match match) {
    check_model(m);  // from here on, every declared shape is the one TFLite infers
    NetworkPlan plan;
    plan.match = match;
    plan.storage.resize(m.tensors.size());
    for (size_t t = 0; t < m.tensors.size(); ++t) plan.storage[t] = static_cast<int>(t);
    if (on_device && hw.block_in != hw.block_out) {
        throw Error(fmt::format("hw config '{}': whole networks need block_in == block_out "
                                "(got {} and {}): a layer's output is the next one's input",
                                hw.config.name, hw.block_in, hw.block_out));
    }
    std::vector<bool> folded_pad(m.operators.size(), false);
    for (const Operator& op : m.operators) {
        Step step;
        step.op = op.index;
        const bool depthwise_device = on_device && op.kind == OpKind::DepthwiseConv2d &&
                                      depthwise_on_device(m, op);
        const std::optional<FullyConnectedInput> fc_input =
            on_device ? fully_connected_input(m, op) : std::nullopt;
        if (op.kind == OpKind::Conv2d || depthwise_device || fc_input) {
            try {
                if (op.kind == OpKind::Conv2d) {
                    step.convs.push_back(conv_layer(m, op, on_device, match));
                } else if (fc_input) {
                    step.convs.push_back(fully_connected_layer(m, op, *fc_input, match));
                } else {
                    step.convs = depthwise_blocks(m, op, hw, match);
                }
            } catch (const Error& e) {
                throw Error(fmt::format("operator {} ({}): {}", op.index,
                                        graph::op_kind_name(op.kind), e.what()));
            }
            const int input = step.convs.front().input;
            if (input != op.inputs[0]) {
                const int p = producer(m, op.inputs[0]);
                if (p >= 0 && m.operators[static_cast<size_t>(p)].kind != OpKind::Reshape) {
                    folded_pad[static_cast<size_t>(p)] = true;
                }
            }
            if (on_device) {
                step.placement = Placement::Device;
                try {  // a depthwise operator's blocks differ only in values and batch
                    for (ConvLayer& c : step.convs) {
                        const ConvLayer& first = step.convs.front();
                        c.plan = &c != &first && c.layer.shape.n == first.layer.shape.n
                                     ? first.plan
                                     : plan_conv2d(c.layer, hw);
                    }
                } catch (const Error& e) {
                    throw Error(fmt::format("operator {} ({}): {}", op.index,
                                            graph::op_kind_name(op.kind), e.what()));
                }
            }
        } else if (on_device && op.kind == OpKind::Add && add_on_device(m, op)) {
            step.placement = Placement::Device;
            try {
                AddOnDevice a{add_params(m, op), op.inputs[0], op.inputs[1],
                              activation_entries(nhwc_of(m.tensor(op.outputs[0]).shape), hw),
                              {}};
                a.plan = plan_add(a.params, a.entries, hw);
                step.add = a;
            } catch (const Error& e) {
                throw Error(fmt::format("operator {} (ADD): {}", op.index, e.what()));
            }
        } else if (reference::computes_shape(m, op)) {
            step.placement = Placement::Folded;  // a constant by now
        } else if (op.kind == OpKind::Reshape || op.kind == OpKind::Squeeze ||
                   op.kind == OpKind::ExpandDims) {  // the same bytes in another shape
            step.placement = Placement::Folded;
            plan.storage[static_cast<size_t>(op.outputs[0])] = plan.storage[static_cast<size_t>(op.inputs[0])];
        }
        plan.steps.push_back(std::move(step));
    }
    for (size_t i = 0; i < plan.steps.size(); ++i) {
        if (folded_pad[i]) plan.steps[i].placement = Placement::Folded;
    }
    if (!on_device) return plan;

    // The activations a device step reads or writes live in the arena from the step
    // that writes them (or the start) to the last step that reads them (or the end).
    std::map<int, Live> live;
    const int end = static_cast<int>(plan.steps.size());
    auto touch = [&](int tensor, int step) {
        auto [it, fresh] = live.try_emplace(tensor, Live{tensor, step, step, 0});
        if (!fresh) {
            it->second.first = std::min(it->second.first, step);
            it->second.last = std::max(it->second.last, step);
        }
    };
    for (const Step& s : plan.steps) {
        if (s.placement != Placement::Device) continue;
        const Operator& op = m.operators[static_cast<size_t>(s.op)];
        if (s.add) {
            touch(s.add->input1, s.op);
            touch(s.add->input2, s.op);
        } else {
            touch(s.convs.front().input, s.op);
        }
        touch(op.outputs[0], s.op);
    }
    for (auto& [t, l] : live) {
        const int p = producer(m, t);
        l.first = std::min(l.first, p < 0 ? -1 : p);
        for (int c : consumers(m, t)) l.last = std::max(l.last, c);
        if (is_model_output(m, t)) l.last = end;
        l.bytes = static_cast<int64_t>(
            align_dram_region(static_cast<uint64_t>(activation_bytes(nhwc_of(m.tensor(t).shape), hw)), hw));
    }
    std::vector<Live> all;
    for (const auto& [t, l] : live) all.push_back(l);
    plan.arena_bytes = allocate(all, plan.arena);
    keep_weights_resident(plan, hw);
    predict_chains(plan, hw);
    return plan;
}

}  // namespace accel::network
