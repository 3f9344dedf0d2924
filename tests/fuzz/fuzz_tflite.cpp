// The .tflite reader on arbitrary bytes (it runs the flatbuffers verifier before it
// reads anything). A model parses or is an accel::Error; in one that parses, the graph's
// and the operators' tensor indices are in range (-1 only for an omitted optional
// input), and every constant holds exactly the bytes its shape and type take.
#include <cstdint>
#include <span>

#include "formats/tflite_reader.hpp"
#include "fuzz_check.hpp"
#include "graph/model.hpp"

namespace {

void check_model(const accel::graph::Model& m) {
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto model = parse_or_refuse([&] { return accel::parse_tflite(std::span(data, size)); });
    if (model) check_model(*model);
    return 0;
}
