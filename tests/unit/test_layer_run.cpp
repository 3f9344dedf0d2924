// runtime/layer_run.hpp: a layer on the reference and on a device, and the check that
// compares a device's output with the golden reference -- also on a device that spoils
// its output, which the check must catch and the caller (the CLI's exit 1,
// accel.CheckError) must hear of, in the result and in the report made of it.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <set>

#include <fmt/format.h>

#include "devices/fsim.hpp"
#include "ops/reference.hpp"
#include "runtime/layer_run.hpp"
#include "runtime/report.hpp"
#include "random_layer.hpp"
#include "shipped_hw.hpp"

namespace accel {
namespace {

// Runs right, then flips the low bit of the first byte the host reads back, y[0,0,0,0],
// or of every byte.
class SpoilingSim final : public FunctionalSim {
public:
    SpoilingSim(const HwParams& hw, uint64_t bytes, bool every_byte)
        : FunctionalSim(hw, bytes), every_byte_(every_byte) {}
    DeviceCounters run(uint32_t insn_addr, uint32_t count) override {
        ran_ = true;
        return FunctionalSim::run(insn_addr, count);
    }
    void read_dram(uint64_t addr, std::span<uint8_t> bytes) const override {
        FunctionalSim::read_dram(addr, bytes);
        if (!ran_) return;
        for (size_t i = 0; i < bytes.size() && (i == 0 || every_byte_); ++i) bytes[i] ^= 1;
    }

private:
    bool every_byte_;
    bool ran_ = false;
};

DeviceFactory fsim_factory() {
    return [](const HwParams& hw, uint64_t bytes) -> std::unique_ptr<Device> {
        return std::make_unique<FunctionalSim>(hw, bytes);
    };
}

DeviceFactory spoiling_factory(bool every_byte) {
    return [every_byte](const HwParams& hw, uint64_t bytes) -> std::unique_ptr<Device> {
        return std::make_unique<SpoilingSim>(hw, bytes, every_byte);
    };
}

testing::LayerCase layer_case(unsigned seed) {
    std::mt19937 rng(seed);
    testing::LayerCase c = testing::random_layer(rng, testing::LayerLimits{});
    const TensorI8 y = conv2d_reference(c.layer, c.x, c.w, c.bias);
    const std::set<int8_t> values(y.data.begin(), y.data.end());
    EXPECT_GT(values.size(), 10u) << "outputs that are all clipped prove nothing";
    return c;
}

// A random layer run with check=true on devices from `devices`.
struct CheckedRun {
    testing::LayerCase c;
    LayerResult r;
};

CheckedRun checked_run(unsigned seed, const DeviceFactory& devices) {
    CheckedRun run{layer_case(seed), {}};
    LayerRunOptions check;
    check.check = true;
    run.r = run_layer(run.c.layer, run.c.x, run.c.w, run.c.bias, test::shipped_hw("default"),
                      Backend::Fsim, devices, check);
    return run;
}

TEST(LayerRun, EveryBackendComputesTheReferenceAndTheCheckSaysSo) {
    const testing::LayerCase c = layer_case(11);
    const HwParams& hw = test::shipped_hw("default");
    const LayerResult ref = run_layer(c.layer, c.x, c.w, c.bias, hw, Backend::Reference, {});
    EXPECT_FALSE(ref.device);
    EXPECT_FALSE(ref.check);
    EXPECT_EQ(ref.y.data, conv2d_reference(c.layer, c.x, c.w, c.bias).data);
    EXPECT_FALSE(conv2d_report(c.layer, hw, ref).contains("bit_exact"));

    const LayerResult fsim = checked_run(11, fsim_factory()).r;
    ASSERT_TRUE(fsim.device && fsim.check);
    EXPECT_TRUE(fsim.check->bit_exact());
    EXPECT_EQ(fsim.check->outputs, static_cast<int64_t>(ref.y.size()));
    EXPECT_EQ(fsim.y.data, ref.y.data);
    const auto report = conv2d_report(c.layer, hw, fsim);
    EXPECT_EQ(report["backend"], "fsim");
    EXPECT_EQ(report["bit_exact"], true);
    EXPECT_TRUE(report["cycles"].is_null());  // fsim measures no cycles
    EXPECT_EQ(report["predicted_cycles"], fsim.device->plan.predicted_cycles);
}

TEST(LayerRun, TheCheckFindsAndPlacesASpoiledOutput) {
    const auto [c, r] = checked_run(12, spoiling_factory(false));
    ASSERT_TRUE(r.check);
    EXPECT_FALSE(r.check->bit_exact());
    EXPECT_EQ(r.check->differing, 1);
    ASSERT_EQ(r.check->first.size(), 1u);
    const LayerCheck::Difference& d = r.check->first[0];
    EXPECT_EQ(d.index, (std::vector<int64_t>{0, 0, 0, 0}));
    EXPECT_EQ(d.got ^ d.want, 1);
    EXPECT_EQ(describe(d), fmt::format("y[0,0,0,0]: device {}, reference {}", d.got, d.want));
    EXPECT_EQ(conv2d_report(c.layer, test::shipped_hw("default"), r)["bit_exact"], false);
}

TEST(LayerRun, TheCheckKeepsTheFirstFiveDifferencesAndCountsThemAll) {
    const LayerResult r = checked_run(13, spoiling_factory(true)).r;
    ASSERT_TRUE(r.check);
    EXPECT_EQ(r.check->differing, r.check->outputs);
    ASSERT_GT(r.check->outputs, static_cast<int64_t>(LayerCheck::kFirst));
    ASSERT_EQ(r.check->first.size(), LayerCheck::kFirst);
    EXPECT_EQ(r.check->first[0].index, (std::vector<int64_t>{0, 0, 0, 0}));
}

}  // namespace
}  // namespace accel
