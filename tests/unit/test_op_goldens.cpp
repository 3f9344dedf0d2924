// The host operators against LiteRT's reference kernels, bit for bit: each golden file of
// tests/golden/ops/ (written by scripts/models/op_goldens.py) is a tiny int8 model of one
// operator, an input and LiteRT's output. Each model runs as `accel run` runs it, on the
// host alone (the ref backend) and planned for fsim.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "devices/fsim.hpp"
#include "formats/npy.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "network/network_plan.hpp"
#include "runtime/model_file.hpp"
#include "runtime/network_runner.hpp"

namespace accel {
namespace {

namespace fs = std::filesystem;

const fs::path kGoldenDir = fs::path(ACCEL_SOURCE_DIR) / "tests" / "golden" / "ops";

// The i-th file of `kind` ("input", "output") of golden `name`, if there is one.
fs::path golden_file(const std::string& name, const char* kind, size_t i) {
    return kGoldenDir / (name + "." + kind + std::to_string(i) + ".npy");
}

std::vector<TensorI8> golden_tensors(const std::string& name, const char* kind) {
    std::vector<TensorI8> out;
    for (size_t i = 0; fs::exists(golden_file(name, kind, i)); ++i) {
        out.push_back(read_npy_i8(golden_file(name, kind, i).string()));
    }
    return out;
}

class OpGolden : public testing::TestWithParam<const char*> {};

TEST_P(OpGolden, MatchesLiteRtBitForBit) {
    const std::string name = GetParam();
    const graph::Model m = read_model((kGoldenDir / (name + ".tflite")).string());
    const std::vector<TensorI8> xs = golden_tensors(name, "input");
    const std::vector<TensorI8> want = golden_tensors(name, "output");
    ASSERT_EQ(xs.size(), m.inputs.size());
    ASSERT_EQ(want.size(), m.outputs.size());
    std::vector<reference::Value> inputs;
    for (const TensorI8& x : xs) inputs.push_back(reference::Value::of(x));

    const HwParams hw = derive_params(default_hw_config());
    const DeviceFactory fsim = [](const HwParams& p, uint64_t bytes) -> std::unique_ptr<Device> {
        return std::make_unique<FunctionalSim>(p, bytes);
    };
    RunOptions check;
    check.check = true;
    const NetworkRun ref = run_network(m, network::plan_network(m, hw, false), hw, nullptr, inputs);
    const NetworkRun dev =
        run_network(m, network::plan_network(m, hw, true), hw, &fsim, inputs, check);
    ASSERT_FALSE(dev.mismatch);
    for (const NetworkRun* run : {&ref, &dev}) {
        ASSERT_EQ(run->outputs.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i) {
            EXPECT_EQ(run->outputs[i].shape, want[i].shape) << name << " output " << i;
            EXPECT_EQ(run->outputs[i].i8, want[i].data) << name << " output " << i;
        }
    }
}

// Every file scripts/models/op_goldens.py writes; a missing one fails its test.
INSTANTIATE_TEST_SUITE_P(
    Operators, OpGolden,
    testing::Values("sub", "sub_relu", "maximum", "minimum", "squared_difference", "abs", "relu",
                    "relu6", "relu_n1_to_1", "exp", "rsqrt", "prelu_channel", "prelu_single",
                    "squeeze", "expand_dims", "transpose", "slice", "split", "split_v",
                    "unpack"),
    [](const testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

}  // namespace
}  // namespace accel
