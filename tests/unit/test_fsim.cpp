// The functional simulator against docs/isa.md: a conv2d end to end against the golden
// reference, token and queue semantics, every error kind, and random programs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../common/random_program.hpp"
#include "base/error.hpp"
#include "devices/fsim.hpp"
#include "hw/hw_config.hpp"
#include "ops/quant.hpp"
#include "ops/reference.hpp"
#include "isa_counters.hpp"

namespace accel {
namespace {

using isa::ErrorCode;

// A shipped config, or "batch2": two images per entry and a non-square 8x16 core, which
// takes the simulator's generic (runtime block size) GEMM path.
const HwParams& config(const std::string& name) {
    static std::map<std::string, HwParams> cache;
    auto it = cache.find(name);
    if (it == cache.end()) {
        HwConfig c;
        if (name == "batch2") {
            c = default_hw_config();
            c.name = name;
            c.batch = 2, c.block_in = 8, c.block_out = 16;
            c.input_kib = 8, c.weight_kib = 16, c.acc_kib = 16;
        } else {
            c = load_hw_config(std::string(ACCEL_HW_CONFIG_DIR) + "/" + name + ".yaml");
        }
        it = cache.emplace(name, derive_params(c)).first;
    }
    return it->second;
}

uint32_t bit(ErrorCode e) {
    return isa::error_bit(e);
}

// Writes the stream at `addr`; returns the instruction count.
uint32_t write_program(Device& dev, uint32_t addr, const std::vector<isa::Insn>& insns) {
    for (size_t i = 0; i < insns.size(); ++i) {
        dev.write_dram(addr + i * isa::kInsnBytes, isa::encode(insns[i]));
    }
    return static_cast<uint32_t>(insns.size());
}

std::vector<uint8_t> read(const Device& dev, uint64_t addr, size_t n) {
    std::vector<uint8_t> out(n);
    dev.read_dram(addr, out);
    return out;
}

template <typename T>
void write_le(std::vector<uint8_t>& bytes, size_t at, T v) {
    std::memcpy(&bytes[at], &v, sizeof v);
}

// ---- (a) a conv2d end to end ---------------------------------------------------------------

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

int64_t ceil_div(int64_t a, int64_t b) {
    return (a + b - 1) / b;
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
    const HwParams& hw = config(cfg);
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

Conv2dParams conv_params(int sh, int sw, int pt, int pb, int pl, int pr, int dh, int dw, int zx,
                         int zy) {
    Conv2dParams p;
    p.stride_h = sh, p.stride_w = sw;
    p.pad_top = pt, p.pad_bottom = pb, p.pad_left = pl, p.pad_right = pr;
    p.dilation_h = dh, p.dilation_w = dw;
    p.input_zero_point = zx, p.output_zero_point = zy;
    return p;
}

TEST(FsimConv2d, DefaultConfigStridedPaddedMatchesReference) {
    // C = 20, K = 19: neither a multiple of the 16-wide blocks.
    expect_conv_matches_reference("default", {1, 10, 9, 20, 19, 3, 3},
                                  conv_params(1, 2, 1, 1, 1, 0, 1, 1, -7, 5), 11);
}

TEST(FsimConv2d, DefaultConfigDilatedMatchesReference) {
    Conv2dParams p = conv_params(2, 1, 2, 1, 0, 2, 2, 2, 23, -3);
    p.act_min = -100, p.act_max = 90;
    expect_conv_matches_reference("default", {1, 9, 8, 37, 33, 3, 2}, p, 12);
}

TEST(FsimConv2d, BatchOfTwoOnANonSquareCoreMatchesReference) {
    expect_conv_matches_reference("batch2", {2, 7, 6, 13, 21, 3, 3},
                                  conv_params(1, 1, 1, 1, 1, 1, 1, 1, 3, 2), 15);
}

TEST(FsimConv2d, TinyConfigStridedPaddedMatchesReference) {
    // C = 6, K = 7 on 4-wide blocks.
    expect_conv_matches_reference("tiny", {1, 8, 7, 6, 7, 3, 3},
                                  conv_params(1, 2, 1, 1, 1, 0, 1, 1, 12, -4), 13);
}

TEST(FsimConv2d, TinyConfigDilatedMatchesReference) {
    Conv2dParams p = conv_params(1, 1, 1, 2, 2, 1, 2, 1, -128, -20);
    expect_conv_matches_reference("tiny", {1, 6, 5, 5, 9, 2, 3}, p, 14);
}

// ---- a rig for hand-built programs --------------------------------------------------------
//
// WGT entry 0 is the identity and PRM entry 0 requantizes by ~1.0 (multiplier 2^31-1,
// shift 0), so a GEMM of one INP entry followed by a DRAIN copies the entry's values
// (block_in == block_out in the shipped configs): what a DRAIN writes shows which data the
// GEMM saw.

struct Rig {
    static constexpr uint32_t kIdentityW = 0x1000, kIdentityP = 0x1400;
    static constexpr uint32_t kDataA = 0x1800, kDataB = 0x1C00, kOut = 0x4000, kProg = 0x8000;
    static constexpr uint64_t kDram = 0x10000;

    const HwParams& hw;
    FunctionalSim sim;

    explicit Rig(const std::string& cfg = "tiny") : hw(config(cfg)), sim(hw, kDram) {
        std::vector<uint8_t> w(hw.wgt_entry_bytes, 0), prm(hw.prm_entry_bytes, 0);
        for (uint32_t o = 0; o < std::min(hw.block_in, hw.block_out); ++o)
            w[o * hw.block_in + o] = 1;
        for (uint32_t o = 0; o < hw.block_out; ++o)
            write_le(prm, 4 * (hw.block_out + o), INT32_MAX);
        sim.write_dram(kIdentityW, w);
        sim.write_dram(kIdentityP, prm);
        sim.write_dram(kDataA, pattern(1));
        sim.write_dram(kDataB, pattern(-1));
    }

    // One INP entry of distinct small values: sign * (1, 2, 3, ...).
    std::vector<uint8_t> pattern(int sign) const {
        std::vector<uint8_t> v(hw.inp_entry_bytes);
        for (size_t i = 0; i < v.size(); ++i)
            v[i] = static_cast<uint8_t>(sign * static_cast<int>(i + 1));
        return v;
    }
    // What a DRAIN of an entry computed from pattern(sign) writes (B images x BO).
    std::vector<uint8_t> drained(int sign) const {
        std::vector<uint8_t> out(size_t{hw.batch} * hw.block_out);
        for (uint32_t b = 0; b < hw.batch; ++b)
            for (uint32_t o = 0; o < hw.block_out; ++o)
                out[b * hw.block_out + o] =
                    static_cast<uint8_t>(sign * static_cast<int>(b * hw.block_in + o + 1));
        return out;
    }
    size_t out_bytes() const { return size_t{hw.batch} * hw.block_out; }

    isa::Load load_identity_wgt() const {
        return {.tokens = {}, .buffer = isa::Buffer::Wgt, .dram_base = kIdentityW};
    }
    isa::Load load_identity_prm() const {
        return {.tokens = {}, .buffer = isa::Buffer::Prm, .dram_base = kIdentityP};
    }
    isa::Load load_inp(uint32_t src, uint32_t entry, isa::Tokens t = {}) const {
        return {.tokens = t, .sram_base = entry, .dram_base = src};
    }
    isa::Gemm gemm(uint32_t acc, uint32_t inp, isa::Tokens t = {}) const {
        return {.tokens = t, .init = true, .acc_base = acc, .inp_base = inp};
    }
    isa::Drain drain(uint32_t acc, uint32_t dst, isa::Tokens t = {}) const {
        return {.tokens = t, .acc_base = acc, .dram_base = dst, .dram_b = hw.block_out};
    }

    DeviceCounters run(const std::vector<isa::Insn>& program) {
        return sim.run(kProg, write_program(sim, kProg, program));
    }
    std::vector<uint8_t> out(uint32_t addr) const { return read(sim, addr, out_bytes()); }
    std::vector<uint8_t> zeros() const { return std::vector<uint8_t>(out_bytes(), 0); }
};

constexpr isa::Tokens kPopPrev{.pop_prev = true};
constexpr isa::Tokens kPopNext{.pop_next = true};
constexpr isa::Tokens kPushPrev{.push_prev = true};
constexpr isa::Tokens kPushNext{.push_next = true};

TEST(FsimRig, IdentityProgramCopiesAnEntry) {
    Rig rig;
    const auto c = rig.run({rig.load_identity_wgt(), rig.load_identity_prm(),
                            rig.load_inp(Rig::kDataA, 0, kPushNext),
                            rig.gemm(0, 0, {.pop_prev = true, .push_next = true}),
                            rig.drain(0, Rig::kOut, kPopPrev), isa::Finish{}});
    EXPECT_EQ(c.errors, 0u);
    EXPECT_EQ(rig.out(Rig::kOut), rig.drained(1));
}

// ---- (b) tokens ----------------------------------------------------------------------------

// INP entry 0 is loaded twice; the second LOAD must wait until the first GEMM has read
// the first data (cp2ld), and each GEMM until its data is there (ld2cp). A simulator
// that ran the load unit ahead would drain B twice.
TEST(FsimTokens, LoadsAndGemmsTakeTurnsOnOneEntry) {
    Rig rig;
    const auto c = rig.run(
        {rig.load_identity_wgt(), rig.load_identity_prm(), rig.load_inp(Rig::kDataA, 0, kPushNext),
         rig.gemm(0, 0, {.pop_prev = true, .push_prev = true, .push_next = true}),
         rig.load_inp(Rig::kDataB, 0, {.pop_next = true, .push_next = true}),
         rig.gemm(1, 0, {.pop_prev = true, .push_next = true}), rig.drain(0, Rig::kOut, kPopPrev),
         rig.drain(1, Rig::kOut + 64, kPopPrev), isa::Finish{}});
    EXPECT_EQ(c.errors, 0u) << isa::error_names(c.errors);
    EXPECT_EQ(rig.out(Rig::kOut), rig.drained(1));
    EXPECT_EQ(rig.out(Rig::kOut + 64), rig.drained(-1));
    EXPECT_EQ(c.load_insns, 4u);
    EXPECT_EQ(c.gemm_insns, 2u);
    EXPECT_EQ(c.drain_insns, 2u);
}

TEST(FsimTokens, PopWaitsForAPushLaterInTheStream) {
    Rig rig;
    const auto c =
        rig.run({rig.gemm(0, 0, {.pop_prev = true, .push_next = true}),
                 rig.drain(0, Rig::kOut, kPopPrev), rig.load_identity_wgt(),
                 rig.load_identity_prm(), rig.load_inp(Rig::kDataB, 0, kPushNext), isa::Finish{}});
    EXPECT_EQ(c.errors, 0u) << isa::error_names(c.errors);
    EXPECT_EQ(rig.out(Rig::kOut), rig.drained(-1));
}

TEST(FsimTokens, PoppingATokenNeverPushedDeadlocks) {
    Rig rig;
    const auto c = rig.run({rig.drain(0, Rig::kOut), rig.gemm(0, 0, kPopPrev),
                            rig.drain(0, Rig::kOut + 64), isa::Finish{}});
    EXPECT_EQ(c.errors, bit(ErrorCode::Deadlock));
    EXPECT_EQ(c.gemm_insns, 0u);
    EXPECT_EQ(c.drain_insns, 2u);  // the other units are not held up
}

TEST(FsimTokens, EachPopTakesOneToken) {
    Rig rig;
    const auto c = rig.run({rig.load_inp(Rig::kDataA, 0, kPushNext), rig.gemm(0, 0, kPopPrev),
                            rig.gemm(1, 0, kPopPrev), isa::Finish{}});
    EXPECT_EQ(c.errors, bit(ErrorCode::Deadlock));
    EXPECT_EQ(c.gemm_insns, 1u);
}

TEST(FsimTokens, BothPopsAreNeededToStart) {
    Rig rig;
    const auto c = rig.run({rig.load_inp(Rig::kDataA, 0, kPushNext),
                            rig.gemm(0, 0, {.pop_prev = true, .pop_next = true}), isa::Finish{}});
    EXPECT_EQ(c.errors, bit(ErrorCode::Deadlock));
    EXPECT_EQ(c.gemm_insns, 0u);
}

// `n` copies of each instruction in turn, then FINISH.
std::vector<isa::Insn> copies_then_finish(std::initializer_list<isa::Insn> insns, int n) {
    std::vector<isa::Insn> p;
    for (const isa::Insn& insn : insns) p.insert(p.end(), static_cast<size_t>(n), insn);
    p.push_back(isa::Finish{});
    return p;
}

// The program on a fresh rig: expects the error mask `errors` and `completed` instructions
// completed over all units.
void expect_run(const std::vector<isa::Insn>& program, uint32_t errors, uint64_t completed) {
    Rig rig;
    const auto c = rig.run(program);
    EXPECT_EQ(c.errors, errors) << isa::error_names(c.errors);
    EXPECT_EQ(c.load_insns + c.gemm_insns + c.drain_insns, completed);
}

// A queue holds 255 tokens: the 256th push overflows it (the instruction still completes;
// only the token is dropped). Tokens left in a queue at the end do not make a run
// unclean: "every queue is empty" (docs/isa.md) is read as the unit instruction queues.
TEST(FsimTokens, The256thPushOverflowsEveryQueue) {
    const Rig rig;
    // A pusher onto each queue: ld2cp, cp2ld, cp2dr, dr2cp. Nothing pops.
    const isa::Insn pushers[] = {rig.load_inp(Rig::kDataA, 0, kPushNext), rig.gemm(0, 0, kPushPrev),
                                 rig.gemm(0, 0, kPushNext), rig.drain(0, Rig::kOut, kPushPrev)};
    for (const isa::Insn& pusher : pushers) {
        SCOPED_TRACE(isa::to_string(pusher));
        expect_run(copies_then_finish({pusher}, 255), 0u, 255);
        expect_run(copies_then_finish({pusher}, 256), bit(ErrorCode::TokenOverflow), 256);
    }
}

// ---- (e) unit queues of depth 8 -------------------------------------------------------------

// n instructions of one unit that each wait for a token, then the n instructions of
// another unit that push those tokens. Eight waiters fit their queue; the ninth finds it
// full, fetch stalls, and the run deadlocks before a pusher is dispatched.
TEST(FsimQueues, NineWaitersDeadlockOnTheFullQueue) {
    const Rig rig;
    // A waiter of each unit (load, compute, drain), and the instruction that pushes its token.
    const std::pair<isa::Insn, isa::Insn> waiter_and_pusher[] = {
        {rig.load_inp(Rig::kDataA, 0, kPopNext), rig.gemm(0, 0, kPushPrev)},
        {rig.gemm(0, 0, kPopPrev), rig.load_inp(Rig::kDataA, 0, kPushNext)},
        {rig.drain(0, Rig::kOut, kPopPrev), rig.gemm(0, 0, kPushNext)}};
    for (const auto& [waiter, pusher] : waiter_and_pusher) {
        SCOPED_TRACE(isa::to_string(waiter));
        expect_run(copies_then_finish({waiter, pusher}, 8), 0u, 16);
        expect_run(copies_then_finish({waiter, pusher}, 9), bit(ErrorCode::Deadlock), 0);
    }
}

// ---- (c) fetch errors -------------------------------------------------------------------

TEST(FsimFetch, RunningOutOfInstructionsIsNoFinish) {
    Rig rig;
    const auto c =
        rig.sim.run(Rig::kProg, write_program(rig.sim, Rig::kProg, {rig.drain(0, Rig::kOut)}));
    EXPECT_EQ(c.errors, bit(ErrorCode::NoFinish));
    EXPECT_EQ(c.drain_insns, 1u);  // what was dispatched still runs
}

TEST(FsimFetch, CountZeroIsNoFinishAndDoesNothing) {
    Rig rig;
    write_program(rig.sim, Rig::kProg, {rig.drain(0, Rig::kOut), isa::Finish{}});
    const auto c = rig.sim.run(Rig::kProg, 0);
    EXPECT_EQ(c.errors, bit(ErrorCode::NoFinish));
    EXPECT_EQ(c.drain_insns, 0u);
}

TEST(FsimFetch, FinishBeforeTheCountEndsIsClean) {
    Rig rig;
    write_program(rig.sim, Rig::kProg, {isa::Finish{}, rig.drain(0, Rig::kOut)});
    const auto c = rig.sim.run(Rig::kProg, 100);
    EXPECT_EQ(c.errors, 0u);
    EXPECT_EQ(c.drain_insns, 0u);
}

// [DRAIN, <word>, DRAIN, FINISH]: the first DRAIN runs (writing zy = 9 everywhere), the
// second is never fetched.
DeviceCounters run_with_word_in_the_middle(Rig& rig, const isa::InsnWord& word) {
    isa::Drain d1 = rig.drain(0, Rig::kOut), d2 = rig.drain(0, Rig::kOut + 64);
    d1.zy = d2.zy = 9;
    const uint32_t n = write_program(rig.sim, Rig::kProg, {d1, isa::Finish{}, d2, isa::Finish{}});
    rig.sim.write_dram(Rig::kProg + isa::kInsnBytes, word);
    return rig.sim.run(Rig::kProg, n);
}

TEST(FsimFetch, IllegalOpcodeStopsFetch) {
    Rig rig;
    isa::InsnWord bad{};
    bad[0] = 0x7;
    const auto c = run_with_word_in_the_middle(rig, bad);
    EXPECT_EQ(c.errors, bit(ErrorCode::IllegalInstruction));
    EXPECT_EQ(c.drain_insns, 1u);
    EXPECT_EQ(rig.out(Rig::kOut), std::vector<uint8_t>(rig.out_bytes(), 9));
    EXPECT_EQ(rig.out(Rig::kOut + 64), rig.zeros());
}

TEST(FsimFetch, SramRangeStopsFetch) {
    Rig rig;
    isa::Gemm g;
    g.acc_base = rig.hw.acc_depth - 1;
    g.n_oy = 2;
    g.acc_oy = 1;
    const auto c = run_with_word_in_the_middle(rig, isa::encode(g));
    EXPECT_EQ(c.errors, bit(ErrorCode::SramRange));
    EXPECT_EQ(c.drain_insns, 1u);
    EXPECT_EQ(c.gemm_insns, 0u);
    EXPECT_EQ(rig.out(Rig::kOut + 64), rig.zeros());
}

TEST(FsimFetch, IllegalFirstInstructionRunsNothing) {
    Rig rig;
    isa::InsnWord bad = isa::encode(rig.drain(0, Rig::kOut));
    bad[63] = 0x80;  // a reserved bit
    rig.sim.write_dram(Rig::kProg, bad);
    const auto c = rig.sim.run(Rig::kProg, 5);
    EXPECT_EQ(c.errors, bit(ErrorCode::IllegalInstruction));
    EXPECT_EQ(c.drain_insns, 0u);
}

TEST(FsimFetch, FetchingPastTheDramIsABusError) {
    Rig rig;
    const uint32_t last = static_cast<uint32_t>(Rig::kDram - isa::kInsnBytes);
    write_program(rig.sim, last, {rig.drain(0, Rig::kOut)});
    const auto c = rig.sim.run(last, 2);
    EXPECT_EQ(c.errors, bit(ErrorCode::BusError));
    EXPECT_EQ(c.drain_insns, 1u);
    EXPECT_EQ(rig.sim.run(static_cast<uint32_t>(Rig::kDram), 1).errors, bit(ErrorCode::BusError));
    EXPECT_EQ(rig.sim.run(0xFFFFFFC0u, 1).errors, bit(ErrorCode::BusError));
}

// The RTL's fetch reads whole 64-byte aligned instructions and ignores the low bits of
// the start address; fsim does the same (docs/isa.md does not say).
TEST(FsimFetch, LowSixBitsOfTheInstructionAddressAreIgnored) {
    Rig rig;
    isa::Drain d = rig.drain(0, Rig::kOut);
    d.zy = 9;
    const uint32_t n = write_program(rig.sim, Rig::kProg, {d, isa::Finish{}});
    const auto c = rig.sim.run(Rig::kProg + 63, n);
    EXPECT_EQ(c.errors, 0u);
    EXPECT_EQ(rig.out(Rig::kOut), std::vector<uint8_t>(rig.out_bytes(), 9));
}

// ---- (d) bus errors in the units ---------------------------------------------------------

TEST(FsimBusError, LoadPastTheEndHaltsTheLoadUnitOnly) {
    Rig rig;
    const uint32_t eb = rig.hw.inp_entry_bytes;
    isa::Load bad = rig.load_inp(static_cast<uint32_t>(Rig::kDram - eb), 0);
    bad.y_size = 2;  // the second row starts at the end of the DRAM
    bad.dram_y_stride = eb;
    const auto c =
        rig.run({bad, rig.load_inp(Rig::kDataA, 1), rig.drain(0, Rig::kOut), isa::Finish{}});
    EXPECT_EQ(c.errors, bit(ErrorCode::BusError));
    EXPECT_EQ(c.load_insns, 0u);
    EXPECT_EQ(c.load_bytes, 0u);
    EXPECT_EQ(c.drain_insns, 1u);
}

TEST(FsimBusError, LoadFarBeyondTheDram) {
    Rig rig;
    const auto c = rig.run({rig.load_inp(0xFFFFFF00u, 0), isa::Finish{}});
    EXPECT_EQ(c.errors, bit(ErrorCode::BusError));
}

// The halted unit's failed instruction keeps its queue slot: 1 + 7 more LOADs fit, and
// the GEMM behind them is dispatched; with 8 more, fetch stalls before the GEMM.
TEST(FsimBusError, HaltedUnitKeepsItsQueue) {
    for (int more : {7, 8}) {
        Rig rig;
        std::vector<isa::Insn> p{rig.load_inp(0xFFFFFF00u, 0)};
        for (int i = 0; i < more; ++i) p.push_back(rig.load_inp(Rig::kDataA, 0));
        p.push_back(rig.gemm(0, 0));
        p.push_back(isa::Finish{});
        const auto c = rig.run(p);
        EXPECT_EQ(c.errors, bit(ErrorCode::BusError)) << more;
        EXPECT_EQ(c.gemm_insns, more == 7 ? 1u : 0u) << more;
    }
}

TEST(FsimBusError, DrainPastTheEndHaltsTheDrainUnitOnly) {
    Rig rig;
    isa::Drain bad = rig.drain(0, static_cast<uint32_t>(Rig::kDram - rig.out_bytes()));
    bad.n_x = 2;  // the second entry lies past the end
    bad.dram_x = static_cast<uint32_t>(rig.out_bytes());
    const auto c = rig.run({bad, rig.drain(0, Rig::kOut), rig.gemm(0, 0), isa::Finish{}});
    EXPECT_EQ(c.errors, bit(ErrorCode::BusError));
    EXPECT_EQ(c.drain_insns, 0u);
    EXPECT_EQ(c.drain_bytes, 0u);
    EXPECT_EQ(c.gemm_insns, 1u);
    EXPECT_EQ(rig.out(Rig::kOut), rig.zeros());
}

// A "negative" stride wraps modulo 2^32 back into the DRAM: rows are read in reverse.
TEST(FsimDram, AddressesWrapModulo2To32) {
    Rig rig;
    isa::Load reversed = rig.load_inp(Rig::kDataB, 0, kPushNext);
    reversed.y_size = 2;
    reversed.dram_y_stride = static_cast<uint32_t>(Rig::kDataA - Rig::kDataB);  // -0x400
    const auto c =
        rig.run({rig.load_identity_wgt(), rig.load_identity_prm(), reversed,
                 rig.gemm(0, 0, kPopPrev), rig.gemm(1, 1, kPushNext),
                 rig.drain(0, Rig::kOut, kPopPrev), rig.drain(1, Rig::kOut + 64), isa::Finish{}});
    EXPECT_EQ(c.errors, 0u) << isa::error_names(c.errors);
    EXPECT_EQ(rig.out(Rig::kOut), rig.drained(-1));
    EXPECT_EQ(rig.out(Rig::kOut + 64), rig.drained(1));
}

// ---- arithmetic corners -------------------------------------------------------------------

// PRM entry 0 with per-lane bias; INP entry 0 holds `x` in lane 0 of image 0.
std::vector<uint8_t> drain_lanes(Rig& rig, const std::vector<int32_t>& bias, int32_t multiplier,
                                 int32_t shift, int8_t x, int8_t zy) {
    const uint32_t bo = rig.hw.block_out;
    std::vector<uint8_t> prm(rig.hw.prm_entry_bytes, 0), inp(rig.hw.inp_entry_bytes, 0);
    for (uint32_t o = 0; o < bo; ++o) {
        write_le(prm, 4 * o, bias[o % bias.size()]);
        write_le(prm, 4 * (bo + o), multiplier);
        write_le(prm, 4 * (2 * bo + o), shift);
    }
    inp[0] = static_cast<uint8_t>(x);
    rig.sim.write_dram(Rig::kIdentityP, prm);
    rig.sim.write_dram(Rig::kDataA, inp);
    isa::Drain d = rig.drain(0, Rig::kOut, kPopPrev);
    d.zy = zy;
    const auto c = rig.run(
        {rig.load_identity_wgt(), rig.load_identity_prm(), rig.load_inp(Rig::kDataA, 0, kPushNext),
         rig.gemm(0, 0, {.pop_prev = true, .push_next = true}), d, isa::Finish{}});
    EXPECT_EQ(c.errors, 0u);
    return rig.out(Rig::kOut);
}

TEST(FsimArithmetic, GemmWrapsInInt32) {
    Rig rig;
    // Lane 0: INT32_MAX + 1 wraps to INT32_MIN, which requantizes to the bottom.
    const auto out = drain_lanes(rig, {INT32_MAX}, INT32_MAX, 0, 1, 0);
    EXPECT_EQ(static_cast<int8_t>(out[0]), -128);
    EXPECT_EQ(static_cast<int8_t>(out[1]), 127);  // INT32_MAX stays at the top
}

TEST(FsimArithmetic, OutputZeroPointIsAddedWithoutOverflow) {
    Rig rig;
    // SRDHM(INT32_MAX, INT32_MAX) = 2^31 - 2; + 127 would wrap negative in int32.
    const auto out = drain_lanes(rig, {INT32_MAX}, INT32_MAX, 0, 0, 127);
    EXPECT_EQ(static_cast<int8_t>(out[0]), 127);
}

TEST(FsimArithmetic, PositiveShiftsMultiplyTheAccumulatorFirst) {
    // 5 * 2^3 * 2^28 / 2^31 = 5: the left shift undoes the small multiplier.
    Rig rig;
    const auto out = drain_lanes(rig, {5, -5, 13}, 1 << 28, 3, 0, 0);
    EXPECT_EQ(static_cast<int8_t>(out[0]), 5);
    EXPECT_EQ(static_cast<int8_t>(out[1]), -5);
    EXPECT_EQ(static_cast<int8_t>(out[2]), 13);
}

TEST(FsimArithmetic, LeftShiftWrapsInInt32) {
    // (2^30 + 3) * 4 = 2^32 + 12 wraps to 12, halved to 6; without the wrap it would clip.
    Rig rig;
    const auto out = drain_lanes(rig, {(1 << 30) + 3, -(1 << 30) - 3}, 1 << 30, 2, 0, 0);
    EXPECT_EQ(static_cast<int8_t>(out[0]), 6);
    EXPECT_EQ(static_cast<int8_t>(out[1]), -6);
}

TEST(FsimArithmetic, ShiftsOutsideTheRangeActAsItsNearestEnd) {
    // Below -31 the shift is -31: ~(2^31 - 2) / 2^31 rounds to 1 (not 127, as a shift
    // amount taken modulo 32 would give for -32).
    for (int32_t shift : {-31, -32, -1000, INT32_MIN}) {
        Rig rig;
        const auto out = drain_lanes(rig, {INT32_MAX}, INT32_MAX, shift, 0, 0);
        EXPECT_EQ(static_cast<int8_t>(out[0]), 1) << shift;
    }
    // Above 30 it is 30: 1 << 30 = 2^30 and 3 << 30 wraps to -2^30, times 2^7 / 2^31.
    for (int32_t shift : {30, 31, 1000, INT32_MAX}) {
        Rig rig;
        const auto out = drain_lanes(rig, {1, 3}, 1 << 7, shift, 0, 0);
        EXPECT_EQ(static_cast<int8_t>(out[0]), 64) << shift;
        EXPECT_EQ(static_cast<int8_t>(out[1]), -64) << shift;
    }
}

TEST(FsimArithmetic, GemmAccumulatesWithoutInit) {
    Rig rig;
    isa::Gemm again = rig.gemm(0, 0, {.push_next = true});
    again.init = false;
    again.n_r = 3;  // three more steps over the same entries
    const auto c = rig.run({rig.load_identity_wgt(), rig.load_identity_prm(),
                            rig.load_inp(Rig::kDataA, 0, kPushNext), rig.gemm(0, 0, kPopPrev),
                            again, rig.drain(0, Rig::kOut, kPopPrev), isa::Finish{}});
    EXPECT_EQ(c.errors, 0u);
    EXPECT_EQ(c.gemm_steps, 4u);
    std::vector<uint8_t> want = rig.drained(1);
    for (auto& v : want) v = static_cast<uint8_t>(4 * static_cast<int8_t>(v));
    EXPECT_EQ(rig.out(Rig::kOut), want);
}

// ---- the device interface -----------------------------------------------------------------

TEST(FsimDevice, HostAccessOutsideTheDramThrows) {
    FunctionalSim sim(config("tiny"), 4096);
    std::vector<uint8_t> buf(16);
    EXPECT_NO_THROW(sim.write_dram(4080, buf));
    EXPECT_THROW(sim.write_dram(4081, buf), Error);
    EXPECT_THROW(sim.read_dram(4096, std::span<uint8_t>(buf.data(), 1)), Error);
    EXPECT_THROW(sim.read_dram(~uint64_t{0}, buf), Error);
    EXPECT_EQ(sim.dram_bytes(), 4096u);
    EXPECT_EQ(sim.name(), "fsim");
}

TEST(FsimDevice, DramOf4GiBIsRejected) {
    EXPECT_THROW(FunctionalSim(config("tiny"), uint64_t{1} << 32), Error);
}

TEST(FsimDevice, SramsKeepTheirContentsBetweenRuns) {
    Rig rig;
    EXPECT_EQ(rig.run({rig.load_identity_wgt(), rig.load_identity_prm(),
                       rig.load_inp(Rig::kDataB, 3), isa::Finish{}})
                  .errors,
              0u);
    const auto c =
        rig.run({rig.gemm(0, 3, kPushNext), rig.drain(0, Rig::kOut, kPopPrev), isa::Finish{}});
    EXPECT_EQ(c.errors, 0u);
    EXPECT_EQ(c.load_insns, 0u);  // counters are per run
    EXPECT_EQ(rig.out(Rig::kOut), rig.drained(-1));
}

// ---- random programs ----------------------------------------------------------------------

// The bytes the program's DRAINs write, read back from the device.
std::vector<int8_t> drained_values(const Device& dev, const test::RandomProgram& p) {
    const HwParams& hw = dev.params();
    std::vector<int8_t> values;
    for (const isa::Insn& insn : p.insns) {
        const auto* d = std::get_if<isa::Drain>(&insn);
        if (d == nullptr) continue;
        for (uint32_t kb = 0; kb < d->n_kb; ++kb)
            for (uint32_t y = 0; y < d->n_y; ++y)
                for (uint32_t x = 0; x < d->n_x; ++x)
                    for (uint32_t b = 0; b < hw.batch; ++b) {
                        const uint32_t a = d->dram_base + kb * d->dram_kb + y * d->dram_y +
                                           x * d->dram_x + b * d->dram_b;
                        for (uint8_t v : read(dev, a, hw.block_out))
                            values.push_back(static_cast<int8_t>(v));
                    }
    }
    return values;
}

class FsimRandom : public ::testing::TestWithParam<std::string> {};

TEST_P(FsimRandom, ProgramsRunCleanWithASpreadOfOutputs) {
    const HwParams& hw = config(GetParam());
    std::vector<int8_t> all;
    for (uint32_t seed = 1; seed <= 60; ++seed) {
        const test::RandomProgram p = test::make_random_program(hw, seed);
        FunctionalSim sim(hw, p.dram.size());
        const DeviceCounters c = test::run_program(sim, p);
        ASSERT_EQ(c.errors, 0u) << "seed " << seed << ": " << isa::error_names(c.errors);
        uint64_t loads = 0, gemms = 0, drains = 0;
        for (const isa::Insn& insn : p.insns) {
            loads += std::holds_alternative<isa::Load>(insn);
            gemms += std::holds_alternative<isa::Gemm>(insn);
            drains += std::holds_alternative<isa::Drain>(insn);
        }
        EXPECT_EQ(c.load_insns, loads) << seed;
        EXPECT_EQ(c.gemm_insns, gemms) << seed;
        EXPECT_EQ(c.drain_insns, drains) << seed;
        EXPECT_GT(c.gemm_steps, 0u) << seed;
        const std::vector<int8_t> v = drained_values(sim, p);
        all.insert(all.end(), v.begin(), v.end());
    }
    const std::set<int8_t> distinct(all.begin(), all.end());
    const auto extreme =
        std::count_if(all.begin(), all.end(), [](int8_t v) { return v == -128 || v == 127; });
    const auto zero = std::count(all.begin(), all.end(), int8_t{0});
    EXPECT_GE(distinct.size(), 150u);
    EXPECT_LT(extreme * 5, static_cast<long>(all.size())) << "over 20% at the int8 limits";
    EXPECT_LT(zero * 10, static_cast<long>(all.size())) << "over 10% zeros";
}

TEST_P(FsimRandom, ProgramsAreDeterministic) {
    const HwParams& hw = config(GetParam());
    for (uint32_t seed = 100; seed < 110; ++seed) {
        const test::RandomProgram a = test::make_random_program(hw, seed);
        const test::RandomProgram b = test::make_random_program(hw, seed);
        ASSERT_EQ(a.dram, b.dram);
        ASSERT_EQ(a.insn_addr, b.insn_addr);
        ASSERT_EQ(a.insn_count, b.insn_count);
        FunctionalSim s1(hw, a.dram.size()), s2(hw, a.dram.size());
        const DeviceCounters c1 = test::run_program(s1, a);
        test::run_program(s2, b);  // a dirty SRAM must not matter: all is written first
        const DeviceCounters c2 = test::run_program(s2, b);
        EXPECT_EQ(read(s1, 0, a.dram.size()), read(s2, 0, a.dram.size())) << seed;
        EXPECT_EQ(c1.errors, c2.errors);
        EXPECT_EQ(c1.gemm_steps, c2.gemm_steps);
        EXPECT_EQ(c1.load_bytes, c2.load_bytes);
        EXPECT_EQ(c1.drain_bytes, c2.drain_bytes);
    }
    EXPECT_NE(test::make_random_program(hw, 1).dram, test::make_random_program(hw, 2).dram);
}

TEST_P(FsimRandom, ErrorProgramsRaiseExactlyTheirError) {
    const HwParams& hw = config(GetParam());
    for (ErrorCode kind : {ErrorCode::IllegalInstruction, ErrorCode::SramRange, ErrorCode::BusError,
                           ErrorCode::TokenOverflow, ErrorCode::Deadlock, ErrorCode::NoFinish}) {
        for (uint32_t seed = 1; seed <= 30; ++seed) {
            const test::RandomProgram p = test::make_error_program(hw, seed, kind);
            ASSERT_EQ(p.expected_errors, bit(kind));
            FunctionalSim sim(hw, p.dram.size());
            const DeviceCounters c = test::run_program(sim, p);
            EXPECT_EQ(c.errors, p.expected_errors) << isa::error_name(kind) << " seed " << seed
                                                   << ": got " << isa::error_names(c.errors);
        }
    }
}

// Results of a race-free program do not depend on how the units interleave: under random
// schedules the DRAM and counters stay the same. (After a bus error DRAM is unspecified,
// so only the errors are compared then.)
void expect_schedule_independent(const HwParams& hw, const test::RandomProgram& p,
                                 const std::string& what) {
    FunctionalSim ref(hw, p.dram.size());
    const DeviceCounters want = test::run_program(ref, p);
    const bool compare_dram = (p.expected_errors & bit(ErrorCode::BusError)) == 0;
    for (uint32_t schedule = 1; schedule <= 4; ++schedule) {
        FunctionalSim sim(hw, p.dram.size());
        sim.set_schedule_seed(schedule);
        const DeviceCounters got = test::run_program(sim, p);
        EXPECT_EQ(got.errors, want.errors) << what << " schedule " << schedule;
        if (!compare_dram) continue;
        EXPECT_EQ(read(sim, 0, p.dram.size()), read(ref, 0, p.dram.size()))
            << what << " schedule " << schedule;
        test::expect_same_isa_counters(got, want, what);
    }
}

TEST_P(FsimRandom, ProgramsAreRaceFree) {
    const HwParams& hw = config(GetParam());
    for (uint32_t seed = 200; seed < 230; ++seed) {
        expect_schedule_independent(hw, test::make_random_program(hw, seed),
                                    "seed " + std::to_string(seed));
    }
    for (ErrorCode kind : {ErrorCode::IllegalInstruction, ErrorCode::SramRange, ErrorCode::BusError,
                           ErrorCode::TokenOverflow, ErrorCode::Deadlock, ErrorCode::NoFinish}) {
        for (uint32_t seed = 1; seed <= 8; ++seed) {
            expect_schedule_independent(
                hw, test::make_error_program(hw, seed, kind),
                std::string(isa::error_name(kind)) + " seed " + std::to_string(seed));
        }
    }
}

// The control for the race detector: a GEMM that reads an entry a LOAD writes, with no
// token between them, sees the old or the new data depending on the schedule.
TEST(FsimSchedule, ARacyProgramDependsOnTheSchedule) {
    std::set<std::vector<uint8_t>> outcomes;
    for (uint32_t schedule = 1; schedule <= 16; ++schedule) {
        Rig rig;
        rig.sim.set_schedule_seed(schedule);
        ASSERT_EQ(rig.run({rig.load_identity_wgt(), rig.load_identity_prm(), isa::Finish{}}).errors,
                  0u);
        const auto c = rig.run({rig.load_inp(Rig::kDataA, 0), rig.gemm(0, 0, kPushNext),
                                rig.drain(0, Rig::kOut, kPopPrev), isa::Finish{}});
        ASSERT_EQ(c.errors, 0u);
        outcomes.insert(rig.out(Rig::kOut));
    }
    EXPECT_EQ(outcomes.size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Configs, FsimRandom, ::testing::Values("default", "tiny", "batch2"));

}  // namespace
}  // namespace accel
