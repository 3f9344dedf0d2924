// Runs a planned network (network/network_plan.hpp) end to end: the device operators
// as instruction programs on one device whose DRAM holds every layer's constants and
// the activation arena, the host operators as golden int8 kernels. Activations stay in
// the arena from one device operator to the next; the host reads one back only when a
// host operator needs it.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "graph/model.hpp"
#include "network/network_plan.hpp"
#include "reference/value.hpp"
#include "runtime/backend.hpp"
#include "runtime/run_progress.hpp"
#include "runtime/runtime.hpp"

namespace accel {

struct OperatorRun {
    int index = 0;
    std::string type;  // TFLite's name
    network::Placement placement = network::Placement::Host;
    std::vector<std::vector<int64_t>> input_shapes;
    std::vector<int64_t> output_shape;  // the first output's (SPLIT, SPLIT_V, UNPACK have more)
    int64_t macs = 0;
    // Device operators only. The roofline counts the DRAM bytes this inference must move:
    // after the first, not the weights that stayed in the weight buffer.
    int64_t cycles = 0, predicted_cycles = 0, roofline_cycles = 0;
    int64_t dram_read_bytes = 0, dram_write_bytes = 0;
    // Every conv2d layer of it keeps its weights in WGT, its parameters in PRM, across
    // inferences.
    bool weights_resident = false, params_resident = false;
    double host_seconds = 0;  // host operators: the kernel's wall time
};

// The first tensor that differs from the golden reference.
struct Mismatch {
    int op = 0;
    std::string tensor;
    int64_t element = 0;  // flat index
    int got = 0, want = 0;
    int64_t differing = 0;  // elements of that tensor that differ
    int64_t inference = 0;  // from 0
};

// "operator OP (TYPE) wrote tensor 'NAME' with N elements unlike the golden reference;
// first [I]: device GOT, reference WANT", as `accel run --check` and accel.run_tflite say it.
std::string describe(const Mismatch& m, const graph::Model& model);

struct NetworkRun {
    std::vector<reference::Value> outputs;  // the model's outputs, in order (the last inference's)
    std::vector<OperatorRun> operators;  // the first inference
    int64_t inferences = 1;
    // The last inference, when there are several: the steady state, in which the
    // programs find the resident weights in the weight buffer.
    std::vector<OperatorRun> steady;
    // The constant tensors that stay on chip across inferences (by name: weights, and
    // biases with the parameters), and the bytes of WGT and PRM they take.
    std::vector<std::string> resident_tensors;
    int64_t resident_bytes = 0;
    int64_t arena_bytes = 0;     // peak activation arena
    int64_t constant_bytes = 0;  // programs, weights and parameters of every layer
    int64_t tensors_checked = 0, elements_checked = 0;
    std::optional<Mismatch> mismatch;  // --check stops at the first
    double device_seconds = 0;    // wall time of Device::run
    double transfer_seconds = 0;  // wall time of Device::write_dram and read_dram
    // With `keep_tensors`: every tensor an operator wrote, by tensor index (not those
    // of folded operators, which never exist).
    std::map<int, reference::Value> tensors;
};

// The most inferences one run takes: enough for any measurement, and a typo cannot run
// for days.
inline constexpr int64_t kMaxInferences = 1000000;

struct RunOptions {
    int64_t inferences = 1;  // [1, kMaxInferences], on one device, the same inputs each time
    bool check = false;
    bool keep_tensors = false;
    Match match = Match::ref;  // run_model's plan: the runtime to reproduce (plan_network)
    ProgressSink progress;  // called as each operator starts (run_progress.hpp)
};

// `make_device` null runs every operator on the host (the ref backend). The model runs
// options.inferences times on one device, whose weight buffer keeps the resident
// weights from one inference to the next (network/weight_residency.hpp). With `check`,
// every tensor a device operator writes, in every inference, is compared with the
// golden reference run alongside; the run stops at the first mismatch. Throws accel::Error for inputs that
// do not fit the model, accel::DeviceError when the device fails.
NetworkRun run_network(const graph::Model& model, const network::NetworkPlan& plan,
                       const HwParams& hw, const DeviceFactory* make_device,
                       const std::vector<reference::Value>& inputs,
                       const RunOptions& options = {});

// The model planned for `backend` (every operator on the host for the reference) and run
// on devices from `make_device` (unused for the reference), as run_network runs it.
NetworkRun run_model(const graph::Model& model, const HwParams& hw, Backend backend,
                     const DeviceFactory& make_device, const std::vector<reference::Value>& inputs,
                     const RunOptions& options = {});

}  // namespace accel
