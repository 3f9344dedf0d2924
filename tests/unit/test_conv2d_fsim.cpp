// A conv2d on the functional simulator against the golden reference, bit for bit, in
// one suite: hand-built programs of one tile (the ISA's conv2d, with the ISA counters it
// must leave), and random layers through the planner, scheduler, layout and runtime.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/int_math.hpp"
#include "compiler/planner.hpp"
#include "devices/fsim.hpp"
#include "hw/hw_config.hpp"
#include "ops/quant.hpp"
#include "ops/reference.hpp"
#include "runtime/runtime.hpp"
#include "random_layer.hpp"
#include "device_io.hpp"
#include "shipped_hw.hpp"

namespace accel {
namespace {

using test::read;
using test::write_le;
using test::write_program;

struct ConvCase {
    Conv2dLayer layer;
    TensorI8 x, w;
    std::vector<int32_t> bias;
};

// Uniform int8 data, with scales that map the accumulators onto a spread of outputs.
ConvCase random_conv(const Conv2dShape& shape, const Conv2dParams& params, uint32_t seed) {
    std::mt19937 rng(seed);
    auto i8 = [&rng] { return static_cast<int8_t>(rng() >> 24); };
    ConvCase c;
    c.layer.shape = shape;
    c.layer.params = params;
    c.x = TensorI8({shape.n, shape.h, shape.w, shape.c});
    c.w = TensorI8({shape.r, shape.s, shape.c, shape.k});
    std::generate(c.x.data.begin(), c.x.data.end(), i8);
    std::generate(c.w.data.begin(), c.w.data.end(), i8);
    const double sd = 74.0 * 74.0 * std::sqrt(static_cast<double>(shape.r * shape.s * shape.c));
    for (int64_t k = 0; k < shape.k; ++k) {
        c.bias.push_back(static_cast<int32_t>(rng() % 20001) - 10000);
        const QuantizedMultiplier q =
            quantize_multiplier(30.0 / sd * (0.5 + (rng() % 100) / 100.0));
        c.layer.params.multiplier.push_back(q.multiplier);
        c.layer.params.shift.push_back(q.shift);
    }
    return c;
}

// The blocked layouts of docs/isa.md: input entries [CB][H][W] of [B][BI] (channels past
// C hold junk: their weights are 0), weight entries [KB][R][S][CB] of [BO][BI].
struct ConvLayout {
    int64_t cb = 0, kb = 0, hp = 0, wp = 0, oh = 0, ow = 0;
    std::vector<uint8_t> inp, wgt, prm;
};

ConvLayout lay_out(const HwParams& hw, const ConvCase& c) {
    const Conv2dShape& s = c.layer.shape;
    const Conv2dParams& p = c.layer.params;
    const int64_t bi = hw.block_in, bo = hw.block_out, nb = hw.batch;
    ConvLayout l;
    l.cb = ceil_div(s.c, bi), l.kb = ceil_div(s.k, bo);
    l.hp = s.h + p.pad_top + p.pad_bottom, l.wp = s.w + p.pad_left + p.pad_right;
    l.oh = c.layer.out_h(), l.ow = c.layer.out_w();
    auto at = [](int64_t i) { return static_cast<size_t>(i); };
    l.inp.assign(at(l.cb * s.h * s.w * nb * bi), 0x77);
    for (int64_t e = 0; e < l.cb * s.h * s.w; ++e) {  // e = (cb*H + h)*W + w
        const int64_t cb = e / (s.h * s.w), h = e / s.w % s.h, w = e % s.w;
        for (int64_t b = 0; b < nb; ++b) {
            for (int64_t j = 0, ch = cb * bi; j < bi && ch < s.c; ++j, ++ch) {
                l.inp[at((e * nb + b) * bi + j)] =
                    static_cast<uint8_t>(c.x.data[at(((b * s.h + h) * s.w + w) * s.c + ch)]);
            }
        }
    }
    l.wgt.assign(at(l.kb * s.r * s.s * l.cb * bo * bi), 0);
    for (int64_t e = 0; e < l.kb * s.r * s.s * l.cb; ++e) {  // e = ((kb*R + r)*S + t)*CB + cb
        const int64_t cb = e % l.cb, t = e / l.cb % s.s, r = e / (l.cb * s.s) % s.r;
        const int64_t kb = e / (l.cb * s.s * s.r);
        for (int64_t o = 0, k = kb * bo; o < bo && k < s.k; ++o, ++k) {
            for (int64_t j = 0, ch = cb * bi; j < bi && ch < s.c; ++j, ++ch) {
                l.wgt[at((e * bo + o) * bi + j)] =
                    static_cast<uint8_t>(c.w.data[at(((r * s.s + t) * s.c + ch) * s.k + k)]);
            }
        }
    }
    return l;
}

// PRM entries: bias' = bias - zx * Σw (exact in wrapping int32), multiplier, shift.
void lay_out_prm(const HwParams& hw, const ConvCase& c, ConvLayout& l) {
    const Conv2dShape& s = c.layer.shape;
    const int64_t bo = hw.block_out;
    l.prm.assign(static_cast<size_t>(l.kb * 12 * bo), 0);
    for (int64_t k = 0; k < s.k; ++k) {
        uint32_t folded = static_cast<uint32_t>(c.bias[static_cast<size_t>(k)]);
        for (size_t i = static_cast<size_t>(k); i < c.w.data.size();
             i += static_cast<size_t>(s.k)) {
            folded -= static_cast<uint32_t>(c.layer.params.input_zero_point * c.w.data[i]);
        }
        const auto at = static_cast<size_t>((k / bo) * 12 * bo + (k % bo) * 4);
        write_le(l.prm, at, folded);
        write_le(l.prm, at + 4 * bo, c.layer.params.multiplier[static_cast<size_t>(k)]);
        write_le(l.prm, at + 8 * bo, c.layer.params.shift[static_cast<size_t>(k)]);
    }
}

struct ConvAddrs {
    uint32_t prm = 0x1000, wgt = 0, inp = 0, out = 0, prog = 0;
};

// One GEMM over the whole layer: [kb][oy][ox] accumulators, the conv's strides and
// dilations as INP strides, the weight layout as WGT strides.
isa::Gemm conv_gemm(const ConvCase& c, const ConvLayout& l) {
    const Conv2dShape& s = c.layer.shape;
    const Conv2dParams& p = c.layer.params;
    const auto u = [](int64_t v) { return static_cast<uint32_t>(v); };
    return {.tokens = {.pop_prev = true, .push_next = true},
            .init = true,
            .n_kb = u(l.kb),
            .n_oy = u(l.oh),
            .n_ox = u(l.ow),
            .n_r = u(s.r),
            .n_s = u(s.s),
            .n_cb = u(l.cb),
            .acc_kb = u(l.oh * l.ow),
            .acc_oy = u(l.ow),
            .acc_ox = 1,
            .inp_oy = u(p.stride_h * l.wp),
            .inp_ox = u(p.stride_w),
            .inp_r = u(p.dilation_h * l.wp),
            .inp_s = u(p.dilation_w),
            .inp_cb = u(l.hp * l.wp),
            .wgt_kb = u(s.r * s.s * l.cb),
            .wgt_r = u(s.s * l.cb),
            .wgt_s = u(l.cb),
            .wgt_cb = 1};
}

// The accumulators, requantized into y [N][OH][OW][KB*BO] (channels padded to blocks).
isa::Drain conv_drain(const HwParams& hw, const ConvCase& c, const ConvLayout& l,
                      const ConvAddrs& a) {
    const Conv2dParams& p = c.layer.params;
    const auto u = [](int64_t v) { return static_cast<uint32_t>(v); };
    const uint32_t kp = u(l.kb) * hw.block_out;
    return {.tokens = {.pop_prev = true},
            .n_kb = u(l.kb),
            .n_y = u(l.oh),
            .n_x = u(l.ow),
            .acc_kb = u(l.oh * l.ow),
            .acc_y = u(l.ow),
            .acc_x = 1,
            .dram_base = a.out,
            .dram_kb = hw.block_out,
            .dram_y = u(l.ow) * kp,
            .dram_x = kp,
            .dram_b = u(l.oh * l.ow) * kp,
            .zy = static_cast<int8_t>(p.output_zero_point),
            .act_min = static_cast<int8_t>(p.act_min),
            .act_max = static_cast<int8_t>(p.act_max)};
}

uint32_t align(uint64_t v) {
    return static_cast<uint32_t>((v + 63) / 64 * 64);
}

// LOAD PRM, WGT and INP (with the padding, holding zx), GEMM, DRAIN.
std::vector<isa::Insn> conv_program(const HwParams& hw, const ConvCase& c, const ConvLayout& l,
                                    const ConvAddrs& a) {
    const Conv2dShape& s = c.layer.shape;
    const Conv2dParams& p = c.layer.params;
    const auto u = [](int64_t v) { return static_cast<uint32_t>(v); };
    isa::Load prm{.tokens = {}, .buffer = isa::Buffer::Prm, .dram_base = a.prm, .x_size = u(l.kb)};
    isa::Load wgt{.tokens = {},
                  .buffer = isa::Buffer::Wgt,
                  .dram_base = a.wgt,
                  .y_size = u(l.kb * s.r * s.s),
                  .x_size = u(l.cb),
                  .dram_y_stride = u(l.cb) * hw.wgt_entry_bytes};
    isa::Load inp{.tokens = {.push_next = true},
                  .dram_base = a.inp,
                  .z_size = u(l.cb),
                  .y_size = u(s.h),
                  .x_size = u(s.w),
                  .dram_z_stride = u(s.h * s.w) * hw.inp_entry_bytes,
                  .dram_y_stride = u(s.w) * hw.inp_entry_bytes,
                  .pad_top = u(p.pad_top),
                  .pad_bottom = u(p.pad_bottom),
                  .pad_left = u(p.pad_left),
                  .pad_right = u(p.pad_right),
                  .pad_value = static_cast<int8_t>(p.input_zero_point)};
    return {prm, wgt, inp, conv_gemm(c, l), conv_drain(hw, c, l, a), isa::Finish{}};
}

// Runs the layer as one tile on a fresh fsim; returns y [N,OH,OW,K].
TensorI8 run_conv(const HwParams& hw, const ConvCase& c, DeviceCounters* counters) {
    ConvLayout l = lay_out(hw, c);
    lay_out_prm(hw, c, l);
    EXPECT_LE(l.cb * l.hp * l.wp, hw.inp_depth);
    EXPECT_LE(l.kb * c.layer.shape.r * c.layer.shape.s * l.cb, hw.wgt_depth);
    EXPECT_LE(l.kb * l.oh * l.ow, hw.acc_depth);
    ConvAddrs a;
    a.wgt = align(a.prm + l.prm.size());
    a.inp = align(a.wgt + l.wgt.size());
    a.out = align(a.inp + l.inp.size());
    const int64_t kp = l.kb * hw.block_out, n = hw.batch;
    const size_t out_bytes = static_cast<size_t>(n * l.oh * l.ow * kp);
    a.prog = align(a.out + out_bytes);
    FunctionalSim sim(hw, a.prog + 64 * 16);
    sim.write_dram(a.prm, l.prm);
    sim.write_dram(a.wgt, l.wgt);
    sim.write_dram(a.inp, l.inp);
    const uint32_t count = write_program(sim, a.prog, conv_program(hw, c, l, a));
    *counters = sim.run(a.prog, count);
    const std::vector<uint8_t> out = read(sim, a.out, out_bytes);
    TensorI8 y({n, l.oh, l.ow, c.layer.shape.k});
    for (size_t i = 0; i < y.data.size(); ++i) {
        const auto k = static_cast<int64_t>(i) % c.layer.shape.k,
                   pixel = static_cast<int64_t>(i) / c.layer.shape.k;
        y.data[i] = static_cast<int8_t>(out[static_cast<size_t>(pixel * kp + k)]);
    }
    return y;
}

void expect_conv_matches_reference(const std::string& cfg, Conv2dShape shape, Conv2dParams p,
                                   uint32_t seed) {
    const HwParams& hw = cfg == "batch2" ? test::batch2_hw() : test::shipped_hw(cfg);
    shape.n = hw.batch;
    const ConvCase c = random_conv(shape, p, seed);
    DeviceCounters counters;
    const TensorI8 got = run_conv(hw, c, &counters);
    const TensorI8 want = conv2d_reference(c.layer, c.x, c.w, c.bias);
    ASSERT_EQ(counters.errors, 0u) << isa::error_names(counters.errors);
    EXPECT_EQ(got.data, want.data);
    const std::set<int8_t> distinct(want.data.begin(), want.data.end());
    const auto clipped = std::count_if(want.data.begin(), want.data.end(),
                                       [&](int8_t v) { return v == p.act_min || v == p.act_max; });
    EXPECT_GE(distinct.size(), 20u) << "outputs too uniform to prove anything";
    EXPECT_LT(clipped * 4, static_cast<long>(want.data.size())) << "too many clipped outputs";
    // The ISA counters follow from the one tile.
    const int64_t cb = ceil_div(shape.c, hw.block_in), kb = ceil_div(shape.k, hw.block_out);
    const int64_t oh = c.layer.out_h(), ow = c.layer.out_w();
    EXPECT_EQ(counters.load_insns, 3u);
    EXPECT_EQ(counters.gemm_insns, 1u);
    EXPECT_EQ(counters.drain_insns, 1u);
    EXPECT_EQ(counters.gemm_steps, static_cast<uint64_t>(kb * oh * ow * shape.r * shape.s * cb));
    EXPECT_EQ(counters.load_bytes,
              static_cast<uint64_t>(kb * hw.prm_entry_bytes +
                                    kb * shape.r * shape.s * cb * hw.wgt_entry_bytes +
                                    cb * shape.h * shape.w * hw.inp_entry_bytes));
    EXPECT_EQ(counters.drain_bytes, static_cast<uint64_t>(kb * oh * ow * hw.batch * hw.block_out));
    EXPECT_EQ(counters.cycles, 0u);
}

// ---- a hand-built program of one tile: the ISA's conv2d as fsim runs it ----

TEST(Conv2dFsim, OneTileStridedPaddedOnDefault) {
    // C = 20, K = 19: neither a multiple of the 16-wide blocks.
    expect_conv_matches_reference(
        "default", {.n = 1, .h = 10, .w = 9, .c = 20, .k = 19, .r = 3, .s = 3},
        {.stride_w = 2, .pad_top = 1, .pad_bottom = 1, .pad_left = 1, .input_zero_point = -7,
         .output_zero_point = 5},
        11);
}

TEST(Conv2dFsim, OneTileDilatedOnDefault) {
    expect_conv_matches_reference(
        "default", {.n = 1, .h = 9, .w = 8, .c = 37, .k = 33, .r = 3, .s = 2},
        {.stride_h = 2, .pad_top = 2, .pad_bottom = 1, .pad_right = 2, .dilation_h = 2,
         .dilation_w = 2, .input_zero_point = 23, .output_zero_point = -3, .act_min = -100,
         .act_max = 90},
        12);
}

TEST(Conv2dFsim, OneTileBatchOfTwoOnANonSquareCore) {
    expect_conv_matches_reference(
        "batch2", {.n = 2, .h = 7, .w = 6, .c = 13, .k = 21, .r = 3, .s = 3},
        {.pad_top = 1, .pad_bottom = 1, .pad_left = 1, .pad_right = 1, .input_zero_point = 3,
         .output_zero_point = 2},
        15);
}

TEST(Conv2dFsim, OneTileStridedPaddedOnTiny) {
    // C = 6, K = 7 on 4-wide blocks.
    expect_conv_matches_reference(
        "tiny", {.n = 1, .h = 8, .w = 7, .c = 6, .k = 7, .r = 3, .s = 3},
        {.stride_w = 2, .pad_top = 1, .pad_bottom = 1, .pad_left = 1, .input_zero_point = 12,
         .output_zero_point = -4},
        13);
}

TEST(Conv2dFsim, OneTileDilatedOnTiny) {
    expect_conv_matches_reference(
        "tiny", {.n = 1, .h = 6, .w = 5, .c = 5, .k = 9, .r = 2, .s = 3},
        {.pad_top = 1, .pad_bottom = 2, .pad_left = 2, .pad_right = 1, .dilation_h = 2,
         .input_zero_point = -128, .output_zero_point = -20},
        14);
}

DeviceFactory fsim_factory() {
    return [](const HwParams& hw, uint64_t bytes) -> std::unique_ptr<Device> {
        return std::make_unique<FunctionalSim>(hw, bytes);
    };
}

void expect_bit_exact(const HwParams& hw, const testing::LayerCase& c, const std::string& what) {
    const Conv2dPlan plan = plan_conv2d(c.layer, hw);
    const Conv2dRun run = run_conv2d(fsim_factory(), hw, c.layer, plan, c.x, c.w, c.bias);
    const TensorI8 want = conv2d_reference(c.layer, c.x, c.w, c.bias);
    ASSERT_EQ(run.y.shape, want.shape) << what;
    size_t mismatches = 0;
    for (size_t i = 0; i < want.size(); ++i) mismatches += run.y.data[i] != want.data[i];
    ASSERT_EQ(mismatches, 0u) << what << ": " << mismatches << " of " << want.size()
                              << " outputs differ";
    EXPECT_EQ(static_cast<int64_t>(run.counters.gemm_steps), run.plan.ideal_cycles) << what;
}

// ---- random layers through the compiler and the runtime ----

TEST(Conv2dFsim, CompiledRandomLayersDefaultAndTiny) {
    std::mt19937 rng(4242);
    size_t spread = 0, left_shifted = 0;
    for (int i = 0; i < 240; ++i) {
        const HwParams hw = test::shipped_hw(i % 2 ? "tiny" : "default");
        testing::LayerLimits lim;
        lim.max_c = i % 10 == 0 ? 300 : 40;
        lim.max_k = i % 10 == 5 ? 300 : 40;
        const testing::LayerCase c = testing::random_layer(rng, lim);
        expect_bit_exact(hw, c, "layer " + std::to_string(i) + " on " + hw.config.name);
        if (HasFatalFailure()) return;
        spread += testing::distinct_values(conv2d_reference(c.layer, c.x, c.w, c.bias)) > 20;
        const std::vector<int32_t>& shift = c.layer.params.shift;
        left_shifted += std::any_of(shift.begin(), shift.end(), [](int32_t s) { return s > 0; });
    }
    // Most layers must produce a real spread of values, not clipped or constant output.
    EXPECT_GT(spread, 150u);
    EXPECT_GT(left_shifted, 100u) << "too few layers with positive shifts";
}

}  // namespace
}  // namespace accel
