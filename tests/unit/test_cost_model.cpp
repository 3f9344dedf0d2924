// The cost model (compiler/cost_model.cpp) on programs small enough to follow by hand,
// on the default config (8-byte beats, a 64-cycle DRAM latency, 8 bursts in flight):
// fetch, a LOAD's bursts on the read port, a GEMM's steps, a DRAIN's writes and B
// response, tokens and a unit's turnaround. Every expected number is worked out in the
// comment above it from the rules the model states, not read off the model.
#include <gtest/gtest.h>

#include <vector>

#include "compiler/cost_model.hpp"
#include "compiler/rtl_timing.hpp"
#include "hw/hw_config.hpp"
#include "hw/isa.hpp"

namespace accel {
namespace {

using timing::kDrainAddressLead;
using timing::kDrainLead;
using timing::kDrainTail;
using timing::kGemmPipeline;

const HwParams& default_hw() {
    static const HwParams hw = derive_params(default_hw_config());
    return hw;
}

struct Modelled {
    CostPrediction p;
    std::vector<InsnTime> t;  // LOAD, GEMM and DRAIN, in program order
};

Modelled predict(std::vector<isa::Insn> program, const HwParams& hw = default_hw()) {
    program.push_back(isa::Finish{});
    Modelled r;
    r.p = predict_cycles(program, hw, &r.t);
    return r;
}

// A contiguous LOAD of `entries` INP entries (16 bytes each: 2 beats).
isa::Load load(uint32_t entries, isa::Tokens t = {}) {
    return {.tokens = t, .dram_base = 4096, .x_size = entries};
}

// A GEMM of 2 x 3 x 4 = 24 steps.
isa::Gemm gemm(isa::Tokens t = {}) { return {.tokens = t, .n_kb = 2, .n_oy = 3, .n_ox = 4}; }

// Reads: the DRAM's latency (64) and the cycle of accel_top's R register slice.
constexpr int64_t kReadLatency = 64 + timing::kReadSlice;
// Fetch: the start is at cycle 1; instruction i's read goes out at cycle 2 + i (one AR a
// cycle) and its 8 beats (64 bytes) arrive a read latency later, one bus beat a cycle:
// instruction 0's in [67, 75), instruction 1's in [75, 83). Instruction 0 enters the
// checker the cycle after its last beat (75), its verdict is kept kCheckLatency + 1 cycles
// later, when it is dispatched, and it starts kQueueLatency cycles after that, at the
// head of its unit's queue.
constexpr int64_t kFirstStart = 2 + kReadLatency + 8 + kCheckLatency + 1 + kQueueLatency;
constexpr int64_t kDone = 3;  // the last completion to the end of the run
// A LOAD's first burst goes out the cycle after its start, its data comes a read latency
// later.
constexpr int64_t kFirstData = kFirstStart + 1 + kReadLatency;

// One entry, 2 beats, lands 2 cycles after the first data, when the LOAD completes. The
// run ends 3 cycles later (kDone): what the RTL measures for this program (docs/cli.md,
// "accel exec").
TEST(CostModel, OneEntryLoadIsFetchThenALatency) {
    const Modelled r = predict({load(1)});
    ASSERT_EQ(r.t.size(), 1u);
    EXPECT_EQ(r.t[0].start, kFirstStart);
    EXPECT_EQ(r.t[0].end, kFirstData + 2);
    EXPECT_EQ(r.p.load_busy, kFirstData + 2 - kFirstStart);
    EXPECT_EQ(r.p.cycles, kFirstData + 2 + kDone);
    EXPECT_EQ(r.p.bus_beats, 2 * 8 + 2);  // two instructions fetched, one entry loaded
}

// 40 entries are 80 beats in 5 bursts of 16, all in flight at once (8 slots): the data
// streams at a beat a cycle for 80 cycles.
TEST(CostModel, ALongLoadIsBoundByTheBus) {
    const Modelled r = predict({load(40)});
    EXPECT_EQ(r.t[0].end, kFirstData + 80);
    EXPECT_EQ(r.p.cycles, kFirstData + 80 + kDone);
    EXPECT_EQ(r.p.bus_beats, 2 * 8 + 80);
}

// With 2 bursts in flight, a burst's slot frees only when its data is in: 48 entries are
// 6 bursts of 16 beats, and each burst after the first two waits a round trip for a
// slot -- a read latency and 16 beats, of which the other slot's 16 beats hide 16:
// kReadLatency cycles a burst less 16 per round. Bursts 2-3 and 4-5 take two rounds: the
// data ends 96 + 2 * (kReadLatency - 16) cycles after the first data, where the bus alone
// would have taken 96.
TEST(CostModel, FewSlotsMakeALoadWaitForRoundTrips) {
    HwConfig c = default_hw_config();
    c.dram_max_outstanding = 2;
    const HwParams hw = derive_params(c);
    const Modelled r = predict({load(48)}, hw);
    EXPECT_EQ(r.t[0].end, kFirstData + 96 + 2 * (kReadLatency - 16));
    EXPECT_EQ(r.p.cycles, kFirstData + 96 + 2 * (kReadLatency - 16) + kDone);
}

// A GEMM takes a cycle per step and kGemmPipeline of pipeline.
TEST(CostModel, AGemmIsItsStepsAndItsPipeline) {
    const Modelled r = predict({gemm()});
    EXPECT_EQ(r.t[0].start, kFirstStart);
    EXPECT_EQ(r.t[0].end, kFirstStart + 24 + kGemmPipeline);
    EXPECT_EQ(r.p.gemm_steps, 24);
    EXPECT_EQ(r.p.gemm_busy, 24 + kGemmPipeline);
    EXPECT_EQ(r.p.cycles, kFirstStart + 24 + kGemmPipeline + kDone);
}

// The second GEMM is dispatched a cycle after the first (its beats end 8 cycles later,
// and the checker takes one a cycle), long before the first ends; it starts the cycle
// after the turnaround cycle.
TEST(CostModel, AUnitRunsItsInstructionsBackToBack) {
    const Modelled r = predict({gemm(), gemm()});
    ASSERT_EQ(r.t.size(), 2u);
    EXPECT_EQ(r.t[1].start, r.t[0].end + 1);
    EXPECT_EQ(r.t[1].end, r.t[0].end + 1 + 24 + kGemmPipeline);
    EXPECT_EQ(r.p.gemm_busy, 2 * (24 + kGemmPipeline));
}

// A GEMM that pops the LOAD's token starts the cycle after the LOAD completes, though
// fetch dispatched it long before.
TEST(CostModel, AGemmWaitsForItsLoadsToken) {
    const Modelled r = predict({load(1, {.push_next = true}), gemm({.pop_prev = true})});
    ASSERT_EQ(r.t.size(), 2u);
    EXPECT_EQ(r.t[0].end, kFirstData + 2);
    EXPECT_EQ(r.t[1].start, kFirstData + 3);
    EXPECT_EQ(r.t[1].end, kFirstData + 3 + 24 + kGemmPipeline);
    EXPECT_EQ(r.p.cycles, kFirstData + 3 + 24 + kGemmPipeline + kDone);
}

// A DRAIN of one 16-byte entry (2 beats, one burst), read one beat a cycle from the
// start: the burst is closed once the drain has its 2 beat addresses, kDrainAddressLead
// + 2 cycles after the start, but its first W beat, a cycle after the AW, also waits
// for the first beat's data, read in the start's cycle and out kDrainLead later. The W
// beats take [kDrainLead, kDrainLead + 2) from the start; the B response comes a
// latency (64) after the last one and the DRAIN completes kDrainTail later: 83 cycles,
// as the RTL's one-entry DRAIN of a 16-to-16-channel 1x1 layer (accel exec, Verilator).
TEST(CostModel, ADrainEndsAtItsLastBResponse) {
    const isa::Drain d{.dram_base = 8192, .dram_kb = 16, .dram_y = 16, .dram_x = 16,
                       .dram_b = 16};
    const Modelled r = predict({d});
    static_assert(kDrainAddressLead + 2 < kDrainLead, "the data comes after the addresses");
    constexpr int64_t kEnd = kFirstStart + kDrainLead + 2 + 64 + kDrainTail;
    EXPECT_EQ(r.t[0].start, kFirstStart);
    EXPECT_EQ(r.t[0].end, kEnd);
    EXPECT_EQ(r.p.drain_busy, kEnd - kFirstStart);
    EXPECT_EQ(r.p.bus_beats, 2 * 8 + 2);
    EXPECT_EQ(r.p.cycles, kEnd + kDone);
}

}  // namespace
}  // namespace accel
