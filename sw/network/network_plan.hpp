// The graph compiler (docs/networks.md): decides where each operator of a model runs,
// folds PAD into the convolution after it and RESHAPE into nothing, turns every device
// operator into a conv2d layer with its tiling plan, and places the activations the
// device reads or writes in one DRAM arena, by liveness.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/tensor.hpp"
#include "compiler/add_program.hpp"
#include "compiler/plan.hpp"
#include "compiler/planner.hpp"
#include "graph/model.hpp"
#include "hw/hw_params.hpp"
#include "ops/add.hpp"
#include "ops/conv2d.hpp"
#include "ops/match.hpp"

namespace accel::network {

enum class Placement {
    Device,  // an instruction program on the accelerator
    Host,    // a golden int8 kernel on the host (reference/evaluate.hpp)
    Folded,  // costs nothing: PAD folded into the next convolution, RESHAPE an alias
};
const char* placement_name(Placement);

// A region of an on-chip buffer: `entries` from entry `base`.
struct BufferRegion {
    uint32_t base = 0;
    uint32_t entries = 0;
};

// What of a layer stays on chip from one inference to the next (weight_residency.hpp):
// its weights in WGT, its parameters (bias, multipliers, shifts) in PRM, or both. The
// first inference's program loads them into their regions, the later inferences'
// program finds them there.
struct Residency {
    std::optional<BufferRegion> weights, params;
    ProgramPrediction steady;  // the later inferences' program
};

// One conv2d layer of a device operator: a CONV_2D is one, a DEPTHWISE_CONV_2D one per
// channel block (a block_in-channel conv with diagonal weights, reading and writing that
// block's slab of the activations).
struct ConvLayer {
    Conv2dLayer layer;
    TensorI8 weights;           // [R,S,C,K]
    std::vector<int32_t> bias;  // K values (zeros when the model has none)
    int input = -1;             // the tensor read, after folding PAD
    std::vector<int64_t> input_nhwc;  // of that tensor
    // Where this layer's input and output start inside their tensors' blocked layout:
    // 0 for a CONV_2D, the channel block's slab for a depthwise block.
    int64_t input_slab = 0, output_slab = 0;
    Conv2dPlan plan;            // when placed on the device
    std::optional<Residency> resident;  // when anything of it stays on chip
};

// A device ADD: two activations of the output's shape, element-wise over the entries of
// their blocked layout (compiler/add_program.hpp).
struct AddOnDevice {
    AddParams params;
    int input1 = -1, input2 = -1;
    int64_t entries = 0;
    AddPlan plan;  // its program's length and predicted cycles
};

// A device step whose conv2d layers run as one program (block_chain.hpp): its length
// and predicted cycles in the first inference and in the later ones.
struct ChainedPrograms {
    ProgramPrediction first, steady;
};

struct Step {
    int op = 0;  // index into Model::operators
    Placement placement = Placement::Host;
    // A CONV_2D's layer (also on the host, for its MACs); a device DEPTHWISE_CONV_2D's
    // channel blocks. Empty for every other operator.
    std::vector<ConvLayer> convs;
    std::optional<AddOnDevice> add;  // a device ADD
    std::optional<ChainedPrograms> chain;  // a device step of several conv2d layers
};

struct ArenaSlot {
    int64_t offset = 0;
    int64_t bytes = 0;
};

struct NetworkPlan {
    Match match = Match::ref;  // the runtime every operator, host or device, reproduces
    std::vector<Step> steps;   // one per operator, in model order
    // For each tensor, the tensor whose bytes it is (itself unless RESHAPE or a
    // folded PAD makes it another's).
    std::vector<int> storage;
    // The device-resident activations ([NB][CB][H][W] blocked, compiler/packing.hpp),
    // by storage tensor, and the arena's peak size.
    std::map<int, ArenaSlot> arena;
    int64_t arena_bytes = 0;
    // The entries [0, n) of WGT and of PRM that the programs loading their weights or
    // parameters on every inference (the layers without a region there, ADDs) share;
    // the resident layers' regions lie above.
    int64_t shared_wgt_entries = 0, shared_prm_entries = 0;
};

// The conv2d layer of a CONV_2D. With `fold`, it reads through a PAD that only feeds it
// (the device's view); without, its own input, as the golden reference computes it
// (reference/operator_params.hpp). Throws accel::Error for parameters the kit cannot take.
ConvLayer conv_layer(const graph::Model& model, const graph::Operator& op, bool fold,
                     Match match = Match::ref);

// What a device FULLY_CONNECTED convolves: the [N,H,W,C] activation a RESHAPE flattens
// into its input [N, H*W*C] (an H x W VALID conv: flat index (h*W + w)*C + c, so that the
// weights [K, H*W*C] read as [K,H,W,C]), or its own input [N,C] as [N,1,1,C] (a 1x1
// conv). Not for weights other than symmetric int8 constants or a non-int8 output.
struct FullyConnectedInput {
    int tensor = -1;
    std::vector<int64_t> nhwc;
};
std::optional<FullyConnectedInput> fully_connected_input(const graph::Model& model,
                                                         const graph::Operator& op);

// A device FULLY_CONNECTED as that conv2d layer, requantizing with the reference
// kernel's double scales (Conv2dParams::double_scale).
// With --match opt, the optimized kernel's fixed-point multiplier and shift instead.
ConvLayer fully_connected_layer(const graph::Model& model, const graph::Operator& op,
                                const FullyConnectedInput& input, Match match = Match::ref);

// Whether the device runs a DEPTHWISE_CONV_2D: a depth multiplier of 1.
bool depthwise_on_device(const graph::Model& model, const graph::Operator& op);

// A DEPTHWISE_CONV_2D as one conv2d layer per channel block of `hw` and slab of
// `core.batch` images, reading through a folded PAD: block g convolves channels
// [g*block_in, (g+1)*block_in) with the filter on the diagonal of its weights, which
// computes each output exactly as TFLite's kernel does (same int32 sums, same
// per-channel requantization) with block_in times the MACs.
std::vector<ConvLayer> depthwise_blocks(const graph::Model& model, const graph::Operator& op,
                                        const HwParams& hw, Match match = Match::ref);

// Whether the device runs an ADD: two activations (not constants) of the output's
// shape, 4-D or 2-D: no broadcasting.
bool add_on_device(const graph::Model& model, const graph::Operator& op);

// `on_device` false plans every operator for the host (the ref backend). Throws
// accel::Error naming the operator when a device operator cannot be planned.
NetworkPlan plan_network(const graph::Model& model, const HwParams& hw, bool on_device,
                         Match match = Match::ref);

// The NHWC view of a 4-D or 2-D ([N,C] as [N,1,1,C]) activation shape.
std::vector<int64_t> nhwc_of(const std::vector<int64_t>& shape);

}  // namespace accel::network
