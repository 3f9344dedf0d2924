// The cost model (compiler/cost_model.cpp) on programs small enough to follow by hand,
// on the default config (8-byte beats, a 64-cycle DRAM latency, 8 bursts in flight):
// fetch, a LOAD's bursts on the read port, a GEMM's steps, a DRAIN's writes and B
// response, tokens and a unit's turnaround. Every expected number is worked out in the
// comment above it from the rules the model states, not read off the model.
#include <gtest/gtest.h>

#include <vector>

#include "compiler/cost_model.hpp"
#include "hw/hw_config.hpp"
#include "hw/isa.hpp"

namespace accel {
namespace {

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

// Fetch: the start is at cycle 1; instruction i's read goes out at cycle 2 + i (one AR a
// cycle) and its 8 beats (64 bytes) arrive a latency later, one bus beat a cycle:
// instruction 0's in [66, 74), instruction 1's in [74, 82). Instruction 0 is dispatched
// the cycle after its last beat is checked (75) and starts the cycle after (76).
constexpr int64_t kFirstStart = 76;
constexpr int64_t kDone = 3;  // the last completion to the end of the run

// A LOAD's first burst goes out the cycle after its start (77), its data comes a latency
// later (141): one entry, 2 beats, lands by 143, when the LOAD completes. The run ends 3
// cycles later: 146 -- what the RTL measures for this program (docs/cli.md, "accel exec").
TEST(CostModel, OneEntryLoadIsFetchThenALatency) {
    const Modelled r = predict({load(1)});
    ASSERT_EQ(r.t.size(), 1u);
    EXPECT_EQ(r.t[0].start, kFirstStart);
    EXPECT_EQ(r.t[0].end, 143);
    EXPECT_EQ(r.p.load_busy, 143 - kFirstStart);
    EXPECT_EQ(r.p.cycles, 146);
    EXPECT_EQ(r.p.bus_beats, 2 * 8 + 2);  // two instructions fetched, one entry loaded
}

// 40 entries are 80 beats in 5 bursts of 16, all in flight at once (8 slots): the data
// streams from 141 to 221 at a beat a cycle.
TEST(CostModel, ALongLoadIsBoundByTheBus) {
    const Modelled r = predict({load(40)});
    EXPECT_EQ(r.t[0].end, 141 + 80);
    EXPECT_EQ(r.p.cycles, 141 + 80 + kDone);
    EXPECT_EQ(r.p.bus_beats, 2 * 8 + 80);
}

// With 2 bursts in flight, a burst's slot frees only when its data is in: 48 entries are
// 6 bursts of 16 beats, and each burst after the first two waits a round trip for a
// slot -- a latency and 16 beats, of which the other slot's 16 beats hide 16: 64 cycles
// a burst less 16, 48 per round. Bursts 2-3 and 4-5 take two rounds: the data ends at
// 77 + 64 + 96 + 2 * 48 = 333, where the bus alone would have ended at 237.
TEST(CostModel, FewSlotsMakeALoadWaitForRoundTrips) {
    HwConfig c = default_hw_config();
    c.dram_max_outstanding = 2;
    const HwParams hw = derive_params(c);
    const Modelled r = predict({load(48)}, hw);
    EXPECT_EQ(r.t[0].end, 333);
    EXPECT_EQ(r.p.cycles, 333 + kDone);
}

// A GEMM takes a cycle per step and 2 of pipeline: 76 + 24 + 2 = 102.
TEST(CostModel, AGemmIsItsStepsAndItsPipeline) {
    const Modelled r = predict({gemm()});
    EXPECT_EQ(r.t[0].start, kFirstStart);
    EXPECT_EQ(r.t[0].end, kFirstStart + 24 + 2);
    EXPECT_EQ(r.p.gemm_steps, 24);
    EXPECT_EQ(r.p.gemm_busy, 24 + 2);
    EXPECT_EQ(r.p.cycles, kFirstStart + 24 + 2 + kDone);
}

// The second GEMM is dispatched at 83 (its beats end at 82), long before the first ends
// (102); it starts the cycle after the turnaround cycle, at 103.
TEST(CostModel, AUnitRunsItsInstructionsBackToBack) {
    const Modelled r = predict({gemm(), gemm()});
    ASSERT_EQ(r.t.size(), 2u);
    EXPECT_EQ(r.t[1].start, r.t[0].end + 1);
    EXPECT_EQ(r.t[1].end, r.t[0].end + 1 + 24 + 2);
    EXPECT_EQ(r.p.gemm_busy, 2 * (24 + 2));
}

// A GEMM that pops the LOAD's token starts the cycle after the LOAD completes (143),
// though fetch dispatched it at 83.
TEST(CostModel, AGemmWaitsForItsLoadsToken) {
    const Modelled r = predict({load(1, {.push_next = true}), gemm({.pop_prev = true})});
    ASSERT_EQ(r.t.size(), 2u);
    EXPECT_EQ(r.t[0].end, 143);
    EXPECT_EQ(r.t[1].start, 144);
    EXPECT_EQ(r.t[1].end, 144 + 24 + 2);
    EXPECT_EQ(r.p.cycles, 144 + 24 + 2 + kDone);
}

// A DRAIN of one 16-byte entry (2 beats, one burst): the burst is closed once the drain
// has read its beat count from ACC, 3 + 2 cycles after the start (81); its W beats follow
// its AW a cycle later, [82, 84); the B response comes a latency after the last beat and
// the DRAIN completes a cycle after that: 84 + 64 + 1 = 149.
TEST(CostModel, ADrainEndsAtItsLastBResponse) {
    const isa::Drain d{.dram_base = 8192, .dram_kb = 16, .dram_y = 16, .dram_x = 16,
                       .dram_b = 16};
    const Modelled r = predict({d});
    EXPECT_EQ(r.t[0].start, kFirstStart);
    EXPECT_EQ(r.t[0].end, 149);
    EXPECT_EQ(r.p.drain_busy, 149 - kFirstStart);
    EXPECT_EQ(r.p.bus_beats, 2 * 8 + 2);
    EXPECT_EQ(r.p.cycles, 149 + kDone);
}

}  // namespace
}  // namespace accel
