// End to end on the Verilator device: planner, scheduler, layout, runtime and the RTL
// against the golden reference, bit for bit, for random layers on both shipped configs
// and reduced ResNet-18 layers. The layer list is random (fixed seed) with the features
// the runtime issue names forced in, and the test checks its own coverage and the spread
// of the outputs, so that a weaker list cannot pass unnoticed.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "compiler/planner.hpp"
#include "compiler/scheduler.hpp"
#include "ops/reference.hpp"
#include "runtime/runtime.hpp"
#include "device_pair.hpp"
#include "random_layer.hpp"

namespace accel::integration {
namespace {

struct Case {
    std::string cfg;
    std::string name;
    testing::LayerCase c;
};

int pick(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// A random layer with the given kernel and stride, small enough for a quick RTL run.
testing::LayerCase small_layer(std::mt19937& rng, int kernel, int stride, int64_t c, int64_t k,
                               int64_t extra_hw = 0, int64_t max_macs = 400000) {
    while (true) {
        Conv2dShape s;
        s.n = pick(rng, 1, 3);
        s.c = c, s.k = k, s.r = kernel;
        s.s = pick(rng, 0, 3) == 0 ? std::max(1, kernel - 2) : kernel;  // some non-square
        Conv2dParams g;
        g.stride_h = stride;
        g.stride_w = pick(rng, 0, 1) ? stride : pick(rng, 1, 3);
        g.dilation_h = kernel > 1 && pick(rng, 0, 2) == 0 ? 2 : 1;
        g.dilation_w = kernel > 1 && pick(rng, 0, 2) == 0 ? 2 : 1;
        g.pad_top = pick(rng, 0, kernel / 2 + 1), g.pad_bottom = pick(rng, 0, kernel / 2);
        g.pad_left = pick(rng, 0, kernel / 2), g.pad_right = pick(rng, 0, kernel / 2 + 1);
        const int64_t reach_h = g.dilation_h * (s.r - 1) + 1, reach_w = g.dilation_w * (s.s - 1) + 1;
        s.h = std::max<int64_t>(1, reach_h - g.pad_top - g.pad_bottom) +
              pick(rng, 0, 2 * stride + static_cast<int>(extra_hw));
        s.w = std::max<int64_t>(1, reach_w - g.pad_left - g.pad_right) +
              pick(rng, 0, 2 * stride + static_cast<int>(extra_hw));
        const Conv2dLayer probe{s, g};
        if (probe.out_h() < 1 || probe.out_w() < 1) continue;
        // Keep the RTL run short: few GEMM steps per layer.
        if (probe.macs() > max_macs) continue;
        return testing::make_case(rng, s, g);
    }
}

// The distinct conv shapes of ResNet-18 (configs/workloads/resnet18.yaml has the full
// layers; `accel bench` runs them), with H and W cut by 4 so that all of them run here.
std::vector<Case> resnet_cases(std::mt19937& rng) {
    struct R {
        const char* name;
        Conv2dShape s;
        int stride, pad;
    };
    const R layers[] = {
        {"conv1", {1, 56, 56, 3, 64, 7, 7}, 2, 3},
        {"layer1 conv", {1, 14, 14, 64, 64, 3, 3}, 1, 1},
        {"layer2.0 conv1", {1, 14, 14, 64, 128, 3, 3}, 2, 1},
        {"layer2.0 downsample", {1, 14, 14, 64, 128, 1, 1}, 2, 0},
        {"layer2 conv", {1, 7, 7, 128, 128, 3, 3}, 1, 1},
        {"layer3.0 conv1", {1, 7, 7, 128, 256, 3, 3}, 2, 1},
        {"layer3.0 downsample", {1, 7, 7, 128, 256, 1, 1}, 2, 0},
        {"layer3 conv", {1, 4, 4, 256, 256, 3, 3}, 1, 1},
        {"layer4.0 conv1", {1, 4, 4, 256, 512, 3, 3}, 2, 1},
        {"layer4.0 downsample", {1, 4, 4, 256, 512, 1, 1}, 2, 0},
        {"layer4 conv", {1, 2, 2, 512, 512, 3, 3}, 1, 1},
    };
    std::vector<Case> out;
    for (const R& l : layers) {
        Conv2dParams g;
        g.stride_h = g.stride_w = l.stride;
        g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = l.pad;
        out.push_back({"default", std::string("resnet18 ") + l.name + " (H/W / 4)",
                       testing::make_case(rng, l.s, g)});
        // The 1x1 downsamples are cheap enough for the 4x4 core too.
        if (l.s.r == 1) {
            out.push_back({"tiny", std::string("resnet18 ") + l.name + " (H/W / 4)",
                           testing::make_case(rng, l.s, g)});
        }
    }
    return out;
}

std::vector<Case> cases() {
    std::mt19937 rng(20261202);
    std::vector<Case> out;
    static const int kKernels[] = {1, 3, 5, 7};
    for (int i = 0; i < 40; ++i) {
        const std::string cfg = i % 2 ? "tiny" : "default";
        int64_t c = pick(rng, 1, 24), k = pick(rng, 1, 24);
        int kernel = kKernels[i / 2 % 4];
        // Channel counts from 1 to 300, each extreme with a cheap kernel.
        if (i % 10 == 3) c = pick(rng, 250, 300), kernel = 1;
        if (i % 10 == 8) k = pick(rng, 250, 300), kernel = 1;
        if (i == 13) c = 300, k = 300;
        if (i == 20 || i == 21) c = 1;
        if (i == 22 || i == 23) k = 1;
        const int stride = i / 8 % 3 + 1;
        out.push_back({cfg, "random layer " + std::to_string(i),
                       small_layer(rng, kernel, stride, c, k)});
    }
    // Larger layers: several tiles, so loads, GEMMs and drains overlap through tokens.
    for (int i = 0; i < 24; ++i) {
        const bool tiny = i % 2;
        out.push_back({tiny ? "tiny" : "default", "tiled layer " + std::to_string(i),
                       small_layer(rng, kKernels[i % 4], i / 4 % 3 + 1, pick(rng, 8, 96),
                                   pick(rng, 8, 96), 12, tiny ? 1500000 : 6000000)});
    }
    // A soak run (ACCEL_TEST_SCALE > 1) adds layers of random_layer's whole range.
    for (uint32_t i = 0; i < 40 * (test_scale() - 1); ++i) {
        testing::LayerLimits lim;
        lim.max_c = i % 10 == 0 ? 300 : 40;
        lim.max_k = i % 10 == 5 ? 300 : 40;
        out.push_back({i % 2 ? "tiny" : "default", "soak layer " + std::to_string(i),
                       testing::random_layer(rng, lim)});
    }
    for (Case& r : resnet_cases(rng)) out.push_back(std::move(r));
    return out;
}

// The roofline of docs/cli.md (`roofline_cycles`), computed here from the dimensions (not by the
// library's metrics): no run may take fewer cycles.
int64_t roofline_cycles(const Conv2dLayer& l, const HwParams& hw) {
    const Conv2dShape& s = l.shape;
    const Conv2dParams& p = l.params;
    const int64_t oh = l.out_h(), ow = l.out_w();
    std::vector<char> hit(static_cast<size_t>(s.h * s.w), 0);
    for (int64_t y = 0; y < oh; ++y)
        for (int64_t x = 0; x < ow; ++x)
            for (int64_t i = 0; i < s.r; ++i)
                for (int64_t j = 0; j < s.s; ++j) {
                    const int64_t iy = y * p.stride_h - p.pad_top + i * p.dilation_h;
                    const int64_t ix = x * p.stride_w - p.pad_left + j * p.dilation_w;
                    if (iy >= 0 && iy < s.h && ix >= 0 && ix < s.w) hit[iy * s.w + ix] = 1;
                }
    const int64_t input = s.n * s.c * std::count(hit.begin(), hit.end(), 1);
    const int64_t bytes = input + s.r * s.s * s.c * s.k + 9 * s.k + s.n * oh * ow * s.k;
    const int64_t macs = s.n * oh * ow * s.k * s.r * s.s * s.c;
    const int64_t pes = int64_t{hw.batch} * hw.block_in * hw.block_out;
    return std::max((macs + pes - 1) / pes, (bytes + hw.beat_bytes - 1) / hw.beat_bytes);
}

DeviceFactory rtl_factory() {
    return [](const HwParams& hw, uint64_t bytes) { return make_rtl(hw, bytes); };
}

// The layer list itself covers what the runtime issue asks for, and its data spread
// over int8 (checked on the reference outputs; the runs below prove the device equal).
TEST(Conv2dVerilator, LayerListCoversTheIssueWithASpreadOfOutputs) {
    const std::vector<Case> all = cases();
    ASSERT_GE(all.size(), 40u);
    std::set<int> strides, kernels;
    std::set<int64_t> cs, ks;
    std::map<std::string, int> per_cfg;
    int asym_pad = 0, dilated = 0, batched = 0, zero_points = 0, per_channel = 0, relu = 0;
    int left_shifted = 0;  // layers with a positive (left) shift in some channel
    int spread = 0;
    std::set<int8_t> all_values;
    for (const Case& t : all) {
        const Conv2dLayer& l = t.c.layer;
        const Conv2dParams& p = l.params;
        ++per_cfg[t.cfg];
        strides.insert(p.stride_h), strides.insert(p.stride_w);
        kernels.insert(static_cast<int>(l.shape.r)), kernels.insert(static_cast<int>(l.shape.s));
        cs.insert(l.shape.c), ks.insert(l.shape.k);
        asym_pad += p.pad_top != p.pad_bottom || p.pad_left != p.pad_right;
        dilated += p.dilation_h > 1 || p.dilation_w > 1;
        batched += l.shape.n > 1;
        zero_points += p.input_zero_point != 0 && p.output_zero_point != 0;
        per_channel += std::set<int32_t>(p.multiplier.begin(), p.multiplier.end()).size() > 1;
        relu += p.act_min == p.output_zero_point;
        left_shifted +=
            std::any_of(p.shift.begin(), p.shift.end(), [](int32_t s) { return s > 0; });
        const TensorI8 y = conv2d_reference(l, t.c.x, t.c.w, t.c.bias);
        spread += testing::distinct_values(y) >= std::min<size_t>(20, y.size() / 3);
        all_values.insert(y.data.begin(), y.data.end());
    }
    EXPECT_GE(per_cfg["default"], 20);
    EXPECT_GE(per_cfg["tiny"], 20);
    EXPECT_EQ(strides, (std::set<int>{1, 2, 3}));
    for (int k : {1, 3, 5, 7}) EXPECT_TRUE(kernels.count(k)) << "no " << k << "x" << k << " kernel";
    EXPECT_EQ(*cs.begin(), 1);
    EXPECT_GE(*cs.rbegin(), 256);
    EXPECT_EQ(*ks.begin(), 1);
    EXPECT_GE(*ks.rbegin(), 256);
    EXPECT_GE(asym_pad, 10);
    EXPECT_GE(dilated, 5);
    EXPECT_GE(batched, 10);
    EXPECT_GE(zero_points, 20);
    EXPECT_GE(per_channel, 30);
    EXPECT_GE(relu, 3);
    EXPECT_GE(left_shifted, 30);
    EXPECT_GE(spread * 10, static_cast<int>(all.size()) * 8) << "outputs do not spread";
    EXPECT_GE(all_values.size(), 240u);
}

// The runs, split by group so that ctest can run them side by side.
class Conv2dVerilatorRun : public ::testing::TestWithParam<std::string> {};

TEST_P(Conv2dVerilatorRun, LayersAreBitExactWithTheGoldenReference) {
    int ran = 0, tiled = 0;
    std::vector<double> model_errors;
    for (const Case& t : cases()) {
        const bool resnet = t.name.starts_with("resnet18");
        if (GetParam() == "resnet18" ? !resnet : resnet || t.cfg != GetParam()) continue;
        ++ran;
        const HwParams& hw = shipped_hw(t.cfg);
        const Conv2dLayer& l = t.c.layer;
        const std::string what = t.name + " on " + t.cfg;
        const Conv2dPlan plan = plan_conv2d(l, hw);
        Conv2dRun run, model;
        try {
            run = run_conv2d(rtl_factory(), hw, l, plan, t.c.x, t.c.w, t.c.bias);
            model = run_conv2d(make_fsim, hw, l, plan, t.c.x, t.c.w, t.c.bias);
        } catch (const DeviceError& e) {
            FAIL() << what << ": " << e.what();
        }
        const TensorI8 want = conv2d_reference(l, t.c.x, t.c.w, t.c.bias);
        ASSERT_EQ(run.y.shape, want.shape) << what;
        size_t mismatches = 0, first = 0;
        for (size_t i = 0; i < want.size(); ++i) {
            if (run.y.data[i] != want.data[i] && mismatches++ == 0) first = i;
        }
        ASSERT_EQ(mismatches, 0u) << what << ": " << mismatches << " of " << want.size()
                                  << " outputs differ; first at " << first << ": rtl "
                                  << int{run.y.data[first]} << ", golden " << int{want.data[first]};
        EXPECT_EQ(static_cast<int64_t>(run.counters.gemm_steps), run.plan.ideal_cycles) << what;
        expect_same_isa_counters(run.counters, model.counters, what + " (rtl vs fsim)");
        EXPECT_GE(run.counters.cycles, run.counters.gemm_steps) << what;
        EXPECT_GE(static_cast<int64_t>(run.counters.cycles), roofline_cycles(l, hw))
            << what << ": faster than the roofline";
        tiled += run.counters.gemm_insns > 2 && run.counters.drain_insns > 2;
        // The cost model against the RTL (performance issue: within 5% on these layers).
        model_errors.push_back(std::abs(double(run.plan.predicted_cycles) /
                                        double(run.counters.cycles) - 1.0));
    }
    EXPECT_GE(ran, GetParam() == "resnet18" ? 14 : 30);
    EXPECT_GE(tiled, GetParam() == "resnet18" ? 4 : 10) << "too few layers run in several tiles";
    // The performance issue's target: the model within 5% of the RTL on every layer
    // (docs/performance.md, "The cost model"); the median guards what it is today.
    std::sort(model_errors.begin(), model_errors.end());
    const double median = model_errors[model_errors.size() / 2];
    const auto within_5 = std::count_if(model_errors.begin(), model_errors.end(),
                                        [](double e) { return e <= 0.05; });
    std::printf("cost model vs RTL on %zu layers (%s): median error %.2f%%, max %.2f%%, "
                "%td within 5%%\n", model_errors.size(), GetParam().c_str(), 100 * median,
                100 * model_errors.back(), within_5);
    EXPECT_LE(median, 0.01);
    EXPECT_LE(model_errors.back(), 0.05);
}

// Strided 1x1 layers read by the DMA (lowering.hpp, Subsample and SubsampleRows): LOADs
// with DRAM strides over the original input, bit-exact on the RTL, and the cost model's
// prediction of their bursts within 5% of the RTL's cycles, but for one-entry bursts
// (Subsample) on layers their reads bound: there the model is pessimistic, by +2.3% (C4)
// to +7.4% (26x34x40) when this test was written, so it allows 8%. The ResNet-18
// downsamples at full size, and small padded and stride-3 ones on both configs.
TEST(Conv2dVerilator, StridedReadsByTheDmaArePredicted) {
    std::mt19937 rng(1616);
    struct Strided {
        const char* cfg;
        Conv2dShape s;
        int stride_h, stride_w, pad;
    };
    const Strided layers[] = {
        {"default", {1, 56, 56, 64, 128, 1, 1}, 2, 2, 0},   // ResNet-18 C4
        {"default", {1, 28, 28, 128, 256, 1, 1}, 2, 2, 0},  // C7
        {"default", {1, 14, 14, 256, 512, 1, 1}, 2, 2, 0},  // C10
        {"default", {2, 13, 17, 40, 24, 1, 1}, 3, 2, 2},
        {"default", {1, 26, 34, 40, 24, 1, 1}, 2, 2, 0},
        {"tiny", {1, 28, 28, 32, 24, 1, 1}, 2, 2, 0},
        {"tiny", {1, 11, 9, 20, 12, 1, 1}, 2, 3, 1},
    };
    for (const Strided& t : layers) {
        Conv2dParams g;
        g.stride_h = t.stride_h, g.stride_w = t.stride_w;
        g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = t.pad;
        const testing::LayerCase c = testing::make_case(rng, t.s, g);
        const HwParams& hw = shipped_hw(t.cfg);
        const std::string what = fmt::format("{} {}x{}x{}x{}->{} 1x1/{},{} pad {}", t.cfg, t.s.n,
                                             t.s.h, t.s.w, t.s.c, t.s.k, t.stride_h, t.stride_w,
                                             t.pad);
        for (const LoweringKind kind : {LoweringKind::Subsample, LoweringKind::SubsampleRows}) {
            const std::string run_what = what + ", " + lowering_name({kind, 1});
            // The best predicted of the first plans of this lowering (the planner may
            // prefer another one; this test is about the strided reads).
            std::optional<Conv2dPlan> best;
            int tried = 0;
            for (Conv2dPlan p : tile_space(c.layer, hw)) {
                if (p.lowering.kind != kind || ++tried > 24) continue;
                predict_plan(c.layer, hw, p);
                if (!best || p.predicted_cycles < best->predicted_cycles) best = p;
            }
            ASSERT_TRUE(best.has_value()) << run_what << ": no plan";
            const Conv2dProgram program = schedule_conv2d(c.layer, hw, *best);
            const bool x_strided = std::any_of(
                program.insns.begin(), program.insns.end(), [](const isa::Insn& i) {
                    const auto* l = std::get_if<isa::Load>(&i);
                    return l != nullptr && l->dram_x_stride != 0;
                });
            EXPECT_EQ(x_strided, kind == LoweringKind::Subsample) << run_what;
            const Conv2dRun run = run_conv2d(rtl_factory(), hw, c.layer, *best, c.x, c.w, c.bias);
            const Conv2dRun model = run_conv2d(make_fsim, hw, c.layer, *best, c.x, c.w, c.bias);
            EXPECT_EQ(run.y.data, conv2d_reference(c.layer, c.x, c.w, c.bias).data) << run_what;
            expect_same_isa_counters(run.counters, model.counters, run_what + " (rtl vs fsim)");
            const double error = double(best->predicted_cycles) / double(run.counters.cycles) - 1.0;
            std::printf("%s: rtl %llu cycles, predicted %lld (%+.2f%%)\n", run_what.c_str(),
                        static_cast<unsigned long long>(run.counters.cycles),
                        static_cast<long long>(best->predicted_cycles), 100 * error);
            EXPECT_LE(std::abs(error), kind == LoweringKind::Subsample ? 0.08 : 0.05) << run_what;
        }
    }
}

// A device whose instruction stream gets corrupted in DRAM just before it runs: the
// runtime must report the device's error as DeviceError (the CLI's exit 3), naming it.
class CorruptingDevice final : public Device {
public:
    CorruptingDevice(std::unique_ptr<Device> inner, uint32_t victim)
        : inner_(std::move(inner)), victim_(victim) {}
    std::string name() const override { return inner_->name(); }
    const HwParams& params() const override { return inner_->params(); }
    uint64_t dram_bytes() const override { return inner_->dram_bytes(); }
    void write_dram(uint64_t addr, std::span<const uint8_t> b) override { inner_->write_dram(addr, b); }
    void read_dram(uint64_t addr, std::span<uint8_t> b) const override { inner_->read_dram(addr, b); }
    DeviceCounters run(uint32_t insn_addr, uint32_t count) override {
        const uint8_t illegal_opcode = 0x0D;
        inner_->write_dram((insn_addr & ~63u) + uint64_t{victim_ % count} * isa::kInsnBytes,
                           {&illegal_opcode, 1});
        return inner_->run(insn_addr, count);
    }

private:
    std::unique_ptr<Device> inner_;
    uint32_t victim_;
};

TEST(Conv2dDeviceError, ACorruptedStreamIsADeviceErrorNamingTheBits) {
    std::mt19937 rng(77);
    const testing::LayerCase c = small_layer(rng, 3, 1, 20, 20, 8, 2000000);
    for (const char* cfg : {"default", "tiny"}) {
        const HwParams& hw = shipped_hw(cfg);
        const Conv2dPlan plan = plan_conv2d(c.layer, hw);
        for (bool rtl : {false, true}) {
            for (uint32_t victim : {0u, 5u, 1000u}) {
                const DeviceFactory corrupt = [rtl, victim](const HwParams& h, uint64_t bytes) {
                    return std::make_unique<CorruptingDevice>(
                        rtl ? make_rtl(h, bytes) : make_fsim(h, bytes), victim);
                };
                const std::string what = std::string(cfg) + (rtl ? " rtl" : " fsim") +
                                         " victim " + std::to_string(victim);
                try {
                    run_conv2d(corrupt, hw, c.layer, plan, c.x, c.w, c.bias);
                    ADD_FAILURE() << what << ": no DeviceError";
                } catch (const DeviceError& e) {
                    EXPECT_NE(std::string(e.what()).find("ILLEGAL_INSTRUCTION"), std::string::npos)
                        << what << ": " << e.what();
                    EXPECT_EQ(std::string(e.what()).find("watchdog"), std::string::npos) << what;
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Groups, Conv2dVerilatorRun,
                         ::testing::Values("default", "tiny", "resnet18"));

}  // namespace
}  // namespace accel::integration
