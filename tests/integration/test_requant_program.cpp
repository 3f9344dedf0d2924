// A GEMM + DRAIN program on both devices against the golden requantization
// (ops/quant.hpp, docs/semantics.md): the accumulators computed here from the loaded
// data, then clamp(zy + MBQM(acc, multiplier, shift)) for random multipliers, shifts of
// the whole range [-31, 30] (left shifts too, some wrapping), zero points and clamps.
// The test checks its own data: the outputs spread over int8 and the rounding steps of
// SRDHM and RDBPOT were exercised (round-up, round-down and exact ties, for both
// signs), so a truncating or wrongly-rounding requantizer cannot pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ops/quant.hpp"
#include "device_pair.hpp"

namespace accel::integration {
namespace {

using isa::Buffer;

struct Channel {
    int32_t bias = 0, multiplier = 0, shift = 0;
};

struct RequantProgram {
    uint32_t n_px = 0, n_kb = 0, n_cb = 0;
    std::vector<int8_t> inp;   // [px][cb][b][i]
    std::vector<int8_t> wgt;   // [kb][cb][o][i]
    std::vector<Channel> ch;   // [kb*BO + o]
    std::vector<int8_t> zy, act_min, act_max;  // per DRAIN (one per kb)
    std::vector<uint8_t> image;
    uint32_t out = 0, insn_addr = 0, insn_count = 0;
};

int32_t uniform(std::mt19937& rng, int64_t lo, int64_t hi) {
    return static_cast<int32_t>(std::uniform_int_distribution<int64_t>(lo, hi)(rng));
}

// One output channel's requantization. Most channels have a realistic scale for the
// spread of their sums (any right shift for which the multiplier stays below 2^31, or
// a left shift with a smaller multiplier); some have a large right shift with a bias
// that carries the value; a few take edge values, with any shift.
Channel random_channel(std::mt19937& rng, double sum_sd) {
    Channel c;
    const int kind = uniform(rng, 0, 11);
    if (kind < 6) {
        const double scale = 50.0 / sum_sd * std::exp2(uniform(rng, -100, 100) / 100.0);
        const int max_e = std::min(31, static_cast<int>(std::floor(-std::log2(scale))));
        const int e = uniform(rng, 0, std::max(0, max_e));
        c.multiplier = static_cast<int32_t>(std::min(std::ldexp(scale, 31 + e), 2147483647.0));
        c.shift = -e;
        c.bias = uniform(rng, -static_cast<int64_t>(sum_sd), static_cast<int64_t>(sum_sd));
    } else if (kind < 8) {
        const double scale = 50.0 / sum_sd * std::exp2(uniform(rng, -100, 100) / 100.0);
        c.shift = uniform(rng, 1, 10);
        c.multiplier = static_cast<int32_t>(std::ldexp(scale, 31 - c.shift));
        c.bias = uniform(rng, -static_cast<int64_t>(sum_sd), static_cast<int64_t>(sum_sd));
    } else if (kind < 11) {
        const int e = uniform(rng, 10, 31);
        c.shift = -e;
        c.multiplier = uniform(rng, int64_t{1} << 30, INT32_MAX);
        const int64_t reach = std::min<int64_t>(int64_t{1} << 30, int64_t{100} << e);
        c.bias = uniform(rng, -reach, reach);
    } else {
        static const int32_t kEdges[] = {0, 1, INT32_MAX, 1 << 30, INT32_MAX - 1};
        c.multiplier = kEdges[uniform(rng, 0, 4)];
        c.shift = uniform(rng, isa::kPrmShiftMin, isa::kPrmShiftMax);
        c.bias = uniform(rng, INT32_MIN, INT32_MAX);  // the sums may wrap
    }
    return c;
}

RequantProgram make_program(const HwParams& hw, uint32_t seed) {
    std::mt19937 rng(seed);
    const uint32_t b = hw.batch, bi = hw.block_in, bo = hw.block_out;
    RequantProgram p;
    p.n_cb = 3;
    p.n_kb = std::min<uint32_t>(kPrmDepth, 128 / bo);
    p.n_px = std::min<uint32_t>(24, hw.acc_depth / p.n_kb);  // the whole tile fits ACC
    p.inp.resize(size_t{p.n_px} * p.n_cb * b * bi);
    p.wgt.resize(size_t{p.n_kb} * p.n_cb * bo * bi);
    for (auto& v : p.inp) v = static_cast<int8_t>(uniform(rng, -128, 127));
    for (auto& v : p.wgt) v = static_cast<int8_t>(uniform(rng, -128, 127));
    const double sum_sd = 74.0 * 74.0 * std::sqrt(static_cast<double>(p.n_cb * bi));
    for (uint32_t k = 0; k < p.n_kb * bo; ++k) p.ch.push_back(random_channel(rng, sum_sd));
    for (uint32_t kb = 0; kb < p.n_kb; ++kb) {
        p.zy.push_back(static_cast<int8_t>(uniform(rng, -128, 127) / (kb % 3 ? 4 : 1)));
        int lo = -128, hi = 127;
        if (kb % 4 == 3) {
            lo = uniform(rng, -128, 0);
            hi = uniform(rng, lo, 127);
        }
        p.act_min.push_back(static_cast<int8_t>(lo));
        p.act_max.push_back(static_cast<int8_t>(hi));
    }

    // DRAM: INP, WGT, PRM, output, program, each 64-byte aligned.
    std::vector<uint8_t>& img = p.image;
    auto alloc = [&img](size_t bytes) {
        const size_t at = (img.size() + 63) / 64 * 64;
        img.resize(at + bytes, 0);
        return static_cast<uint32_t>(at);
    };
    const uint32_t inp = alloc(p.inp.size()), wgt = alloc(p.wgt.size());
    std::memcpy(&img[inp], p.inp.data(), p.inp.size());
    std::memcpy(&img[wgt], p.wgt.data(), p.wgt.size());
    const uint32_t prm = alloc(size_t{p.n_kb} * hw.prm_entry_bytes);
    for (uint32_t k = 0; k < p.n_kb * bo; ++k) {
        uint8_t* e = &img[prm + (k / bo) * hw.prm_entry_bytes];
        const Channel& c = p.ch[k];
        std::memcpy(e + 4 * (k % bo), &c.bias, 4);
        std::memcpy(e + 4 * (bo + k % bo), &c.multiplier, 4);
        std::memcpy(e + 4 * (2 * bo + k % bo), &c.shift, 4);
    }
    const uint32_t out_entry = b * bo;
    p.out = alloc(size_t{p.n_kb} * p.n_px * out_entry);

    std::vector<isa::Insn> prog;
    prog.push_back(isa::Load{.buffer = Buffer::Inp, .dram_base = inp, .x_size = p.n_px * p.n_cb});
    prog.push_back(isa::Load{.buffer = Buffer::Wgt, .dram_base = wgt, .x_size = p.n_kb * p.n_cb});
    prog.push_back(isa::Load{.tokens = {.push_next = true}, .buffer = Buffer::Prm,
                             .dram_base = prm, .x_size = p.n_kb});
    prog.push_back(isa::Gemm{.tokens = {.pop_prev = true, .push_next = true}, .init = true,
                             .n_kb = p.n_kb, .n_ox = p.n_px, .n_cb = p.n_cb, .acc_kb = p.n_px,
                             .acc_ox = 1, .inp_ox = p.n_cb, .inp_cb = 1, .wgt_kb = p.n_cb,
                             .wgt_cb = 1});
    for (uint32_t kb = 0; kb < p.n_kb; ++kb) {
        prog.push_back(isa::Drain{.tokens = {.pop_prev = kb == 0}, .acc_base = kb * p.n_px,
                                  .prm_base = kb, .n_x = p.n_px, .acc_x = 1,
                                  .dram_base = p.out + kb * p.n_px * out_entry,
                                  .dram_x = out_entry, .dram_b = bo, .zy = p.zy[kb],
                                  .act_min = p.act_min[kb], .act_max = p.act_max[kb]});
    }
    prog.push_back(isa::Finish{});
    p.insn_addr = alloc(prog.size() * isa::kInsnBytes);
    for (size_t i = 0; i < prog.size(); ++i) {
        const isa::InsnWord w = isa::encode(prog[i]);
        std::memcpy(&img[p.insn_addr + i * isa::kInsnBytes], w.data(), w.size());
    }
    p.insn_count = static_cast<uint32_t>(prog.size());
    return p;
}

// How the golden requantization rounded the outputs: the test's proof that its data
// reach every rounding case.
struct RoundingCoverage {
    size_t up_pos = 0, down_pos = 0, tie_pos = 0;  // RDBPOT of x >= 0
    size_t up_neg = 0, down_neg = 0, tie_neg = 0;  // RDBPOT of x < 0
    size_t srdhm_nudged = 0;                        // SRDHM's nudge changed the quotient
    size_t unclamped = 0;
    size_t left_unclamped = 0;                      // of those, through a left shift
    std::set<int8_t> values;
};

// The expected output bytes at [kb][px][b][o] (the DRAIN layout above).
std::vector<int8_t> expected(const HwParams& hw, const RequantProgram& p, RoundingCoverage& cov) {
    const uint32_t b = hw.batch, bi = hw.block_in, bo = hw.block_out;
    std::vector<int8_t> y(size_t{p.n_kb} * p.n_px * b * bo);
    for (uint32_t kb = 0; kb < p.n_kb; ++kb)
        for (uint32_t px = 0; px < p.n_px; ++px)
            for (uint32_t n = 0; n < b; ++n)
                for (uint32_t o = 0; o < bo; ++o) {
                    const Channel& c = p.ch[kb * bo + o];
                    uint32_t acc = static_cast<uint32_t>(c.bias);  // wraps like int32
                    for (uint32_t cb = 0; cb < p.n_cb; ++cb)
                        for (uint32_t i = 0; i < bi; ++i) {
                            const int x = p.inp[((size_t{px} * p.n_cb + cb) * b + n) * bi + i];
                            const int w = p.wgt[((size_t{kb} * p.n_cb + cb) * bo + o) * bi + i];
                            acc += static_cast<uint32_t>(x * w);
                        }
                    const auto a = static_cast<int32_t>(acc);
                    const int e = -c.shift;
                    // MBQM's SRDHM input: acc * 2^shift for a left shift, wrapping.
                    const auto scaled = static_cast<int32_t>(acc << std::max(c.shift, 0));
                    const int32_t hi = srdhm(scaled, c.multiplier);
                    const int64_t prod = int64_t{scaled} * c.multiplier;
                    cov.srdhm_nudged += prod / (int64_t{1} << 31) != hi;
                    if (e > 0) {
                        const int32_t mask = static_cast<int32_t>((int64_t{1} << e) - 1);
                        const int32_t rem = hi & mask, half = static_cast<int32_t>(
                                                           int64_t{1} << (e - 1));
                        const bool up = rdbpot(hi, e) != (hi >> e);
                        size_t* slot = rem == 0 ? nullptr
                                       : rem == half ? (hi < 0 ? &cov.tie_neg : &cov.tie_pos)
                                       : up ? (hi < 0 ? &cov.up_neg : &cov.up_pos)
                                            : (hi < 0 ? &cov.down_neg : &cov.down_pos);
                        if (slot != nullptr) ++*slot;
                    }
                    const int64_t v = int64_t{p.zy[kb]} + mbqm(a, c.multiplier, c.shift);
                    const int64_t clamped =
                        std::clamp<int64_t>(v, p.act_min[kb], p.act_max[kb]);
                    cov.unclamped += clamped == v;
                    cov.left_unclamped += clamped == v && c.shift > 0;
                    cov.values.insert(static_cast<int8_t>(clamped));
                    y[((size_t{kb} * p.n_px + px) * b + n) * bo + o] = static_cast<int8_t>(clamped);
                }
    return y;
}

class RequantProgramTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RequantProgramTest, GemmAndDrainMatchTheGoldenRequantizationOnBothDevices) {
    const HwParams& hw = shipped_hw(GetParam());
    RoundingCoverage cov;
    size_t outputs = 0;
    for (uint32_t seed = 1; outputs < 9000 * test_scale(); ++seed) {
        const RequantProgram p = make_program(hw, seed);
        const std::vector<int8_t> want = expected(hw, p, cov);
        outputs += want.size();
        for (const char* device : {"fsim", "verilator"}) {
            const std::string what = GetParam() + " seed " + std::to_string(seed) + " on " + device;
            auto dev = std::string(device) == "fsim" ? make_fsim(hw, p.image.size())
                                                     : make_rtl(hw, p.image.size());
            const Outcome o = run_image(*dev, p.image, p.insn_addr, p.insn_count);
            ASSERT_EQ(o.failure, "") << what;
            ASSERT_EQ(o.counters.errors, 0u) << what << ": " << isa::error_names(o.counters.errors);
            size_t mismatches = 0, first = 0;
            for (size_t i = 0; i < want.size(); ++i) {
                if (static_cast<int8_t>(o.dram[p.out + i]) != want[i] && mismatches++ == 0)
                    first = i;
            }
            EXPECT_EQ(mismatches, 0u)
                << what << ": first at output " << first << ": device "
                << int{static_cast<int8_t>(o.dram[p.out + first])} << ", golden "
                << int{want[first]};
        }
    }
    // The data must exercise the arithmetic, or the comparison proves nothing.
    EXPECT_GE(cov.values.size(), 200u) << "outputs do not spread over int8";
    EXPECT_GT(cov.unclamped * 10, outputs * 7) << "over 30% of outputs clamped";
    const size_t min_cases = outputs / 200;
    EXPECT_GT(cov.up_pos, min_cases);
    EXPECT_GT(cov.down_pos, min_cases);
    EXPECT_GT(cov.up_neg, min_cases);
    EXPECT_GT(cov.down_neg, min_cases);
    EXPECT_GT(cov.tie_pos, 5u) << "no exact ties of positive values";
    EXPECT_GT(cov.tie_neg, 5u) << "no exact ties of negative values";
    EXPECT_GT(cov.srdhm_nudged, min_cases);
    EXPECT_GT(cov.left_unclamped, outputs / 20) << "too few outputs through a left shift";
}

INSTANTIATE_TEST_SUITE_P(Configs, RequantProgramTest, ::testing::Values("default", "tiny"));

}  // namespace
}  // namespace accel::integration
