// The functional simulator against docs/isa.md: token and queue semantics, every error
// kind, arithmetic, and random programs (a conv2d on it: test_conv2d_fsim.cpp).
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
#include "device_io.hpp"
#include "shipped_hw.hpp"

namespace accel {
namespace {

using isa::ErrorCode;

// A shipped config, or "batch2" (shipped_hw.hpp).
const HwParams& config(const std::string& name) {
    return name == "batch2" ? test::batch2_hw() : test::shipped_hw(name);
}

using test::read;
using test::write_le;
using test::write_program;

uint32_t bit(ErrorCode e) {
    return isa::error_bit(e);
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
