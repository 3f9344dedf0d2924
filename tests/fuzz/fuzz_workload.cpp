// The workload YAML loader on arbitrary text. A workload parses or is an accel::Error;
// in one that parses every layer is found by its name and gives a conv2d with a
// non-empty output, and a small layer builds its random case with tensors of that shape.
#include <cstdint>
#include <string>

#include "formats/workload.hpp"
#include "fuzz_check.hpp"

namespace {

// Bigger layers are valid too, but their random data would only slow the fuzzer down.
constexpr int64_t kMaxCaseElements = 1 << 16;

void check_layer(const accel::Workload& w, const accel::WorkloadLayer& l) {
    FUZZ_REQUIRE(w.find(l.name) == &l);
    FUZZ_REQUIRE(!accel::describe(l).empty());
    const accel::Conv2dLayer conv = accel::workload_conv2d(w, l);
    FUZZ_REQUIRE(conv.out_h() >= 1 && conv.out_w() >= 1);
    const int64_t input = w.batch * l.h * l.w * l.cin;
    const int64_t weights = int64_t{l.kernel} * l.kernel * l.cin * l.cout;
    const int64_t output = w.batch * conv.out_h() * conv.out_w() * l.cout;
    if (input + weights + output > kMaxCaseElements) return;
    const accel::WorkloadCase c = accel::make_workload_case(w, l);
    FUZZ_REQUIRE(static_cast<int64_t>(c.x.data.size()) == input);
    FUZZ_REQUIRE(static_cast<int64_t>(c.w.data.size()) == weights);
    FUZZ_REQUIRE(static_cast<int64_t>(c.bias.size()) == l.cout);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto w = parse_or_refuse([&] { return accel::parse_workload(text, "fuzz.yaml"); });
    if (!w) return 0;
    FUZZ_REQUIRE(!w->layers.empty());
    for (const accel::WorkloadLayer& l : w->layers) check_layer(*w, l);
    return 0;
}
