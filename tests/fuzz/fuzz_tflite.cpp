// The .tflite reader on arbitrary bytes (it runs the flatbuffers verifier before it
// reads anything), then the model check and the reference run. A model parses or is an
// accel::Error; in one that parses, the graph's and the operators' tensor indices are in
// range (-1 only for an omitted optional input), and every constant holds exactly the
// bytes its shape and type take. A model the check accepts runs on the golden reference
// (when small enough to take milliseconds) without any error, every output of its
// declared shape.
#include <cstdint>
#include <span>
#include <vector>

#include "formats/tflite_reader.hpp"
#include "fuzz_check.hpp"
#include "graph/model.hpp"
#include "hw/hw_config.hpp"
#include "network/network_plan.hpp"
#include "reference/model_check.hpp"
#include "runtime/network_runner.hpp"

namespace {

using accel::graph::Model;

void check_indices_and_constants(const Model& m) {
    const auto tensors = static_cast<int>(m.tensors.size());
    for (const int t : m.inputs) FUZZ_REQUIRE(t >= 0 && t < tensors);
    for (const int t : m.outputs) FUZZ_REQUIRE(t >= 0 && t < tensors);
    for (const accel::graph::Operator& op : m.operators) {
        for (const int t : op.inputs) FUZZ_REQUIRE(t >= -1 && t < tensors);
        for (const int t : op.outputs) FUZZ_REQUIRE(t >= 0 && t < tensors);
    }
    for (const accel::graph::TensorDesc& t : m.tensors) {
        if (!t.is_constant() || t.type == accel::graph::DType::Other) continue;
        const auto bytes = static_cast<uint64_t>(t.element_count()) * dtype_size(t.type);
        FUZZ_REQUIRE(t.data.size() == bytes);
    }
}

// Small enough for the reference to run in milliseconds: few elements, and few
// multiply-accumulates (each output of an operator with weights reads a weight row).
bool small(const Model& m) {
    int64_t elements = 0, macs = 0;  // the check bounds the sum; each factor below is <= 2^20
    for (const accel::graph::TensorDesc& t : m.tensors) elements += t.element_count();
    if (elements > (int64_t{1} << 20)) return false;
    for (const accel::graph::Operator& op : m.operators) {
        if (op.inputs.size() < 2 || op.inputs[1] < 0) continue;
        const accel::graph::TensorDesc& w = m.tensor(op.inputs[1]);
        const int64_t rows = w.shape.empty() ? 1 : w.shape[0];
        macs += m.tensor(op.outputs.at(0)).element_count() * (rows > 0 ? w.element_count() / rows : 0);
    }
    return macs <= (int64_t{1} << 24);
}

// Zeros (or 0.0) of every graph input's shape and type.
std::vector<accel::reference::Value> zero_inputs(const Model& m) {
    std::vector<accel::reference::Value> inputs;
    for (const int t : m.inputs) {
        const accel::graph::TensorDesc& d = m.tensor(t);
        accel::reference::Value v;
        v.type = d.type == accel::graph::DType::Float32 ? d.type : accel::graph::DType::Int8;
        v.shape = d.shape;
        const auto count = static_cast<size_t>(d.element_count());
        if (v.type == accel::graph::DType::Float32) {
            v.f32.resize(count);
        } else {
            v.i8.resize(count);
        }
        inputs.push_back(std::move(v));
    }
    return inputs;
}

void run_reference(const Model& m) {
    static const accel::HwParams hw = accel::derive_params(accel::default_hw_config());
    const accel::NetworkRun run = accel::run_network(
        m, accel::network::plan_network(m, hw, false), hw, nullptr, zero_inputs(m));
    FUZZ_REQUIRE(run.outputs.size() == m.outputs.size());
    for (size_t i = 0; i < run.outputs.size(); ++i) {
        const accel::graph::TensorDesc& y = m.tensor(m.outputs[i]);
        FUZZ_REQUIRE(run.outputs[i].shape == y.shape);
        FUZZ_REQUIRE(static_cast<int64_t>(run.outputs[i].i8.size() + run.outputs[i].f32.size()) ==
                     y.element_count());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto model = parse_or_refuse([&] { return accel::parse_tflite(std::span(data, size)); });
    if (!model) return 0;
    check_indices_and_constants(*model);
    const auto checked = parse_or_refuse([&] {
        accel::reference::check_model(*model);
        return true;
    });
    // A model the check accepts runs: any exception escapes to libFuzzer as a finding.
    if (checked && small(*model)) run_reference(*model);
    return 0;
}
