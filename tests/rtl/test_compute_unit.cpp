// accel_compute_unit: GEMM instructions (encoded by accel::isa::encode) run against SRAM models
// written in the bench (1-cycle read latency; read ports show garbage in the cycles after
// no read, as the ACC port does after a drain read), with random delays before the
// instructions and the tokens become available. The final ACC contents are compared with
// a sequential execution of docs/isa.md's GEMM semantics, and the token, step, state and
// completion protocol is checked on every cycle.
//
// Built for several parameter sets (tests/rtl/CMakeLists.txt); the bench reads them from
// the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vaccel_compute_unit.h"
#include "Vaccel_compute_unit___024root.h"  // the elaborated parameters (built with --public)
#include "compiler/rtl_timing.hpp"
#include "hw/isa.hpp"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

using Root = Vaccel_compute_unit___024root;
constexpr uint32_t kBatch = Root::accel_compute_unit__DOT__BATCH;
constexpr uint32_t kBi = Root::accel_compute_unit__DOT__BLOCK_IN;
constexpr uint32_t kBo = Root::accel_compute_unit__DOT__BLOCK_OUT;
constexpr uint32_t kInpDepth = Root::accel_compute_unit__DOT__INP_DEPTH;
constexpr uint32_t kWgtDepth = Root::accel_compute_unit__DOT__WGT_DEPTH;
constexpr uint32_t kAccDepth = Root::accel_compute_unit__DOT__ACC_DEPTH;
constexpr uint32_t kPrmDepth = Root::accel_compute_unit__DOT__PRM_DEPTH;
// Entry sizes in 32-bit words (byte k of an entry: word k / 4, bits 8 * (k % 4)).
constexpr uint32_t kInpWords = (kBatch * kBi + 3) / 4;
constexpr uint32_t kWgtWords = (kBo * kBi + 3) / 4;
constexpr uint32_t kBiasWords = kBo;
constexpr uint32_t kAccWords = kBatch * kBo;
// n steps take n + kPipelineCycles cycles (accel_compute_unit.sv): the cost model's GEMM
// completion, kGemmPipeline cycles after the last step's issue.
constexpr uint32_t kPipelineCycles = static_cast<uint32_t>(timing::kGemmPipeline) + 1;

// An SRAM of `depth` entries of `words` 32-bit words.
struct Mem {
    uint32_t depth, words;
    std::vector<uint32_t> data;
    Mem(uint32_t d, uint32_t w) : depth(d), words(w), data(std::size_t(d) * w) {}
    uint32_t* entry(uint32_t a) { return &data[std::size_t(a) * words]; }
    const uint32_t* entry(uint32_t a) const { return &data[std::size_t(a) * words]; }
    int8_t byte(uint32_t a, uint32_t k) const {
        return static_cast<int8_t>(entry(a)[k / 4] >> (8 * (k % 4)));
    }
};

// docs/isa.md, GEMM: the sequential semantics, sums wrapping in 32 bits.
void reference(const isa::Gemm& g, const Mem& inp, const Mem& wgt, const Mem& bias, Mem& acc) {
    std::vector<uint32_t> sum(kAccWords);
    for (uint32_t kb = 0; kb < g.n_kb; ++kb)
        for (uint32_t oy = 0; oy < g.n_oy; ++oy)
            for (uint32_t ox = 0; ox < g.n_ox; ++ox) {
                const uint32_t a = g.acc_base + kb * g.acc_kb + oy * g.acc_oy + ox * g.acc_ox;
                for (uint32_t b = 0; b < kBatch; ++b)
                    for (uint32_t o = 0; o < kBo; ++o)
                        sum[b * kBo + o] = g.init ? bias.entry(g.prm_base + kb)[o]
                                                  : acc.entry(a)[b * kBo + o];
                for (uint32_t r = 0; r < g.n_r; ++r)
                    for (uint32_t s = 0; s < g.n_s; ++s)
                        for (uint32_t cb = 0; cb < g.n_cb; ++cb) {
                            const uint32_t i = g.inp_base + oy * g.inp_oy + ox * g.inp_ox +
                                               r * g.inp_r + s * g.inp_s + cb * g.inp_cb;
                            const uint32_t w = g.wgt_base + kb * g.wgt_kb + r * g.wgt_r +
                                               s * g.wgt_s + cb * g.wgt_cb;
                            for (uint32_t b = 0; b < kBatch; ++b)
                                for (uint32_t o = 0; o < kBo; ++o) {
                                    int32_t dot = 0;
                                    for (uint32_t j = 0; j < kBi; ++j)
                                        dot += int32_t{inp.byte(i, b * kBi + j)} * wgt.byte(w, o * kBi + j);
                                    sum[b * kBo + o] += static_cast<uint32_t>(dot);
                                }
                        }
                std::copy(sum.begin(), sum.end(), acc.entry(a));
            }
}

// ---- random instructions whose addresses stay inside the buffers
uint32_t random_stride(std::mt19937& rng, uint32_t depth) {
    switch (rng() % 6) {
        case 0: return 0;
        case 1: return 1;
        case 2: return rng() % 8;
        default: return rng() % std::max<uint32_t>(1, depth / 8);
    }
}

// Picks strides for the given extents until the largest address fits `depth`, then a base.
void place(std::mt19937& rng, uint32_t depth, std::initializer_list<uint32_t> extents,
           std::initializer_list<uint32_t*> strides, uint32_t& base) {
    for (int attempt = 0;; ++attempt) {
        uint64_t span = 0;
        auto n = extents.begin();
        for (uint32_t* s : strides) {
            *s = attempt < 50 ? random_stride(rng, depth) : (attempt < 100 ? rng() % 2 : 0);
            span += uint64_t{*n++ - 1} * *s;
        }
        if (span < depth) {
            base = static_cast<uint32_t>(rng() % (depth - span));
            return;
        }
    }
}

isa::Gemm random_gemm(std::mt19937& rng, uint32_t max_steps = 1500) {
    isa::Gemm g;
    do {
        g.n_kb = 1 + rng() % 3;
        g.n_oy = 1 + rng() % 4;
        g.n_ox = 1 + rng() % 6;
        g.n_r = 1 + rng() % 3;
        g.n_s = 1 + rng() % 3;
        g.n_cb = 1 + rng() % 4;
    } while (isa::gemm_steps(g) > max_steps);
    g.init = rng() % 2;
    g.tokens = {bool(rng() % 2), bool(rng() % 2), bool(rng() % 2), bool(rng() % 2)};
    place(rng, kAccDepth, {g.n_kb, g.n_oy, g.n_ox}, {&g.acc_kb, &g.acc_oy, &g.acc_ox}, g.acc_base);
    place(rng, kInpDepth, {g.n_oy, g.n_ox, g.n_r, g.n_s, g.n_cb},
          {&g.inp_oy, &g.inp_ox, &g.inp_r, &g.inp_s, &g.inp_cb}, g.inp_base);
    place(rng, kWgtDepth, {g.n_kb, g.n_r, g.n_s, g.n_cb}, {&g.wgt_kb, &g.wgt_r, &g.wgt_s, &g.wgt_cb},
          g.wgt_base);
    g.prm_base = rng() % (std::min<uint32_t>(kPrmDepth, 256) - g.n_kb + 1);
    return g;
}

// ---- the harness
class ComputeUnit : public ::testing::TestWithParam<int> {
protected:
    std::unique_ptr<Vaccel_compute_unit> m = std::make_unique<Vaccel_compute_unit>();
    std::mt19937 rng{1};
    Mem inp{kInpDepth, kInpWords}, wgt{kWgtDepth, kWgtWords}, bias{kPrmDepth, kBiasWords},
        acc{kAccDepth, kAccWords};
    Mem expect_acc{kAccDepth, kAccWords};

    // Knobs: probability that, in a cycle, the next instruction / a pending token is
    // still held back.
    double insn_gap = 0.0, token_delay = 0.0;
    bool tokens_ready = false;  // every token the program pops is available from the start

    // Program state.
    std::deque<isa::Gemm> queue;
    std::vector<uint32_t> head_words;  // the head instruction, encoded
    uint8_t head_ones = 0;             // its loop extents that are 1, as the queue keeps them
    bool head_visible = false, started = false;
    uint32_t prev_tokens = 0, next_tokens = 0, prev_pending = 0, next_pending = 0;
    uint64_t head_steps = 0;
    // Read data presented in the next cycle.
    std::vector<uint32_t> inp_rd = std::vector<uint32_t>(kInpWords),
                          wgt_rd = std::vector<uint32_t>(kWgtWords),
                          bias_rd = std::vector<uint32_t>(kBiasWords),
                          acc_rd = std::vector<uint32_t>(kAccWords);
    // Observations.
    uint64_t cycle = 0, wait_cycles = 0, total_steps = 0, acc_writes = 0, prev_pushes = 0, next_pushes = 0;
    std::vector<uint64_t> start_cycles, done_cycles, step_cycles, write_cycles;

    void SetUp() override {
        for (Mem* mem : {&inp, &wgt, &bias, &acc}) {
            for (auto& w : mem->data) w = rng();
        }
        expect_acc = acc;
        m->insn_valid_i = 0;
        m->prev_avail_i = 0;
        m->next_avail_i = 0;
        reset(*m);
    }

    void garbage(std::vector<uint32_t>& v) {
        for (auto& w : v) w = rng();
    }

    void read(const Mem& mem, bool re, uint32_t addr, std::vector<uint32_t>& rd) {
        if (!re) return garbage(rd);
        ASSERT_LT(addr, mem.depth);
        std::copy(mem.entry(addr), mem.entry(addr) + mem.words, rd.begin());
    }

    void show_head() {
        const isa::InsnWord bytes = isa::encode(queue.front());
        head_words.assign(16, 0);
        for (std::size_t k = 0; k < bytes.size(); ++k) head_words[k / 4] |= uint32_t{bytes[k]} << (8 * (k % 4));
        // accel_gemm_extents' levels, outermost first: kb, oy, ox, r, s, cb
        const isa::Gemm& g = queue.front();
        const uint32_t extents[] = {g.n_kb, g.n_oy, g.n_ox, g.n_r, g.n_s, g.n_cb};
        head_ones = 0;
        for (int l = 0; l < 6; ++l) head_ones |= static_cast<uint8_t>((extents[l] == 1) << l);
        head_visible = true;
    }

    // One clock cycle of the unit and its environment.
    void cycle_once() {
        std::bernoulli_distribution hold_insn(insn_gap), hold_token(token_delay);
        // Producers lag behind: a token mostly comes while the head instruction waits for it.
        const isa::Gemm* waiting = head_visible && !started ? &queue.front() : nullptr;
        const auto release = [&](bool needed) { return needed ? !hold_token(rng) : rng() % 1024 == 0; };
        if (prev_pending && release(waiting && waiting->tokens.pop_prev && prev_tokens == 0))
            ++prev_tokens, --prev_pending;
        if (next_pending && release(waiting && waiting->tokens.pop_next && next_tokens == 0))
            ++next_tokens, --next_pending;
        if (!head_visible && !queue.empty() && !hold_insn(rng)) show_head();

        m->insn_valid_i = head_visible;
        if (head_visible) {
            put_words(m->insn_i, head_words);
            m->extent_one_i = head_ones;
        } else {
            std::vector<uint32_t> junk(16);
            garbage(junk);
            put_words(m->insn_i, junk);
            m->extent_one_i = rng() & 0x3f;
        }
        m->prev_avail_i = prev_tokens > 0;
        m->next_avail_i = next_tokens > 0;
        put_words(m->inp_rdata_i, inp_rd);
        put_words(m->wgt_rdata_i, wgt_rd);
        put_words(m->bias_rdata_i, bias_rd);
        put_words(m->acc_rdata_i, acc_rd);
        m->clk_i = 0;
        m->eval();

        // ---- the outputs of this cycle
        const isa::Gemm* head = head_visible ? &queue.front() : nullptr;
        const bool tokens_ok = head && (!head->tokens.pop_prev || prev_tokens > 0) &&
                               (!head->tokens.pop_next || next_tokens > 0);
        ASSERT_EQ(m->quiet_o, m->state_o != 2) << "cycle " << cycle;
        if (m->state_o == 0) ASSERT_FALSE(head) << "idle with an instruction, cycle " << cycle;
        if (m->state_o == 1) {
            ASSERT_TRUE(head && !started && !tokens_ok) << "cycle " << cycle;
            ++wait_cycles;
        }
        if (head && !started && tokens_ok) ASSERT_EQ(m->state_o, 2) << "did not start, cycle " << cycle;

        if (m->step_o) {
            ASSERT_TRUE(head) << "step without an instruction, cycle " << cycle;
            if (!started) {
                started = true;
                start_cycles.push_back(cycle);
                ASSERT_TRUE(tokens_ok);
                ASSERT_EQ(m->prev_pop_o, head->tokens.pop_prev) << "cycle " << cycle;
                ASSERT_EQ(m->next_pop_o, head->tokens.pop_next) << "cycle " << cycle;
            } else {
                ASSERT_FALSE(m->prev_pop_o || m->next_pop_o) << "pop after the start, cycle " << cycle;
            }
            ++head_steps, ++total_steps;
            step_cycles.push_back(cycle);
        } else {
            ASSERT_FALSE(m->prev_pop_o || m->next_pop_o) << "pop without a start, cycle " << cycle;
        }
        ASSERT_EQ(m->inp_re_o, m->step_o);
        ASSERT_EQ(m->wgt_re_o, m->step_o);
        ASSERT_FALSE(m->acc_re_o && m->bias_re_o);

        // SRAMs: reads see the memory before this cycle's write.
        read(inp, m->inp_re_o, m->inp_raddr_o, inp_rd);
        read(wgt, m->wgt_re_o, m->wgt_raddr_o, wgt_rd);
        read(bias, m->bias_re_o, m->bias_raddr_o, bias_rd);
        read(acc, m->acc_re_o, m->acc_raddr_o, acc_rd);
        if (m->acc_we_o) {
            ASSERT_TRUE(started) << "ACC write outside an instruction, cycle " << cycle;
            ASSERT_LT(m->acc_waddr_o, kAccDepth);
            uint32_t* e = acc.entry(m->acc_waddr_o);
            for (uint32_t w = 0; w < kAccWords; ++w) e[w] = word(m->acc_wdata_o, w);
            ++acc_writes;
            write_cycles.push_back(cycle);
        }

        if (m->insn_done_o) {
            ASSERT_TRUE(started) << "done without a start, cycle " << cycle;
            ASSERT_EQ(head_steps, isa::gemm_steps(*head)) << "cycle " << cycle;
            ASSERT_EQ(m->prev_push_o, head->tokens.push_prev);
            ASSERT_EQ(m->next_push_o, head->tokens.push_next);
            prev_pushes += m->prev_push_o;
            next_pushes += m->next_push_o;
            done_cycles.push_back(cycle);
            queue.pop_front();
            head_visible = started = false;
            head_steps = 0;
        } else {
            ASSERT_FALSE(m->prev_push_o || m->next_push_o) << "push without done, cycle " << cycle;
        }
        prev_tokens -= m->prev_pop_o;
        next_tokens -= m->next_pop_o;

        m->clk_i = 1;
        m->eval();
        ++cycle;
    }

    // Runs `prog` to completion (every token it pops is released, after random delays)
    // and checks ACC against the reference.
    void run(const std::vector<isa::Gemm>& prog) {
        uint64_t budget = 200;
        for (const auto& g : prog) {
            queue.push_back(g);
            (tokens_ready ? prev_tokens : prev_pending) += g.tokens.pop_prev;
            (tokens_ready ? next_tokens : next_pending) += g.tokens.pop_next;
            budget += 4 * isa::gemm_steps(g) + 100;
            reference(g, inp, wgt, bias, expect_acc);
        }
        while (!queue.empty()) {
            ASSERT_GT(budget--, 0u) << "timeout, " << queue.size() << " instructions left";
            cycle_once();
            if (HasFatalFailure()) return;
        }
        // Afterwards: nothing moves.
        for (int i = 0; i < 8; ++i) {
            cycle_once();
            if (HasFatalFailure()) return;
            ASSERT_FALSE(m->step_o || m->acc_we_o || m->insn_done_o || m->acc_re_o);
            ASSERT_EQ(m->state_o, 0);
        }
        for (uint32_t a = 0; a < kAccDepth; ++a) {
            for (uint32_t w = 0; w < kAccWords; ++w) {
                ASSERT_EQ(acc.entry(a)[w], expect_acc.entry(a)[w]) << "ACC[" << a << "] lane " << w;
            }
        }
    }
};

TEST_P(ComputeUnit, IdleIsQuiet) {
    for (int i = 0; i < 10; ++i) {
        cycle_once();
        ASSERT_FALSE(HasFatalFailure());
        EXPECT_EQ(m->state_o, 0);
        EXPECT_TRUE(m->quiet_o);
        EXPECT_FALSE(m->step_o || m->acc_re_o || m->bias_re_o || m->acc_we_o || m->insn_done_o);
    }
}

TEST_P(ComputeUnit, RandomProgramsMatchReference) {
    uint64_t steps = 0, pushes_prev = 0, pushes_next = 0;
    for (uint32_t seed = 21; seed < 25; ++seed) {
        insn_gap = seed % 2 ? 0.3 : 0.0;  // instructions with gaps, or back to back
        token_delay = 0.8;
        std::mt19937 gen(seed);
        std::vector<isa::Gemm> prog;
        for (int n = 0; n < 50; ++n) prog.push_back(random_gemm(gen));
        run(prog);
        ASSERT_FALSE(HasFatalFailure()) << "seed " << seed;
        for (const auto& g : prog) {
            steps += isa::gemm_steps(g);
            pushes_prev += g.tokens.push_prev;
            pushes_next += g.tokens.push_next;
        }
    }
    EXPECT_EQ(total_steps, steps);
    EXPECT_GT(wait_cycles, 50u);   // instructions did wait for tokens
    EXPECT_EQ(prev_pushes, pushes_prev);
    EXPECT_EQ(next_pushes, pushes_next);
    // The data exercised the arithmetic: entries written, with sums of both signs.
    int negative = 0, positive = 0;
    for (uint32_t a = 0; a < kAccDepth; ++a)
        for (uint32_t w = 0; w < kAccWords; ++w) {
            const auto v = static_cast<int32_t>(acc.entry(a)[w]);
            negative += v < 0, positive += v > 0;
        }
    EXPECT_GT(acc_writes, 200u);
    EXPECT_GT(negative, 100);
    EXPECT_GT(positive, 100);
}

TEST_P(ComputeUnit, GemmsAccumulateIntoTheSameEntries) {
    // An init GEMM, then GEMMs adding into the entries it (and the one before) just
    // wrote, back to back: every start read follows the previous instruction's writes.
    std::mt19937 gen(5);
    isa::Gemm g = random_gemm(gen, 200);
    g.init = true;
    g.n_r = g.n_s = 1;
    g.tokens = {};
    std::vector<isa::Gemm> prog{g};
    for (int n = 0; n < 6; ++n) {
        isa::Gemm more = random_gemm(gen, 200);
        more.init = false;
        more.tokens = {};
        more.n_kb = g.n_kb, more.n_oy = g.n_oy, more.n_ox = g.n_ox;
        more.acc_base = g.acc_base, more.acc_kb = g.acc_kb, more.acc_oy = g.acc_oy, more.acc_ox = g.acc_ox;
        if (n % 2) more.n_r = more.n_s = more.n_cb = 1;  // entries one step each
        place(gen, kInpDepth, {more.n_oy, more.n_ox, more.n_r, more.n_s, more.n_cb},
              {&more.inp_oy, &more.inp_ox, &more.inp_r, &more.inp_s, &more.inp_cb}, more.inp_base);
        place(gen, kWgtDepth, {more.n_kb, more.n_r, more.n_s, more.n_cb},
              {&more.wgt_kb, &more.wgt_r, &more.wgt_s, &more.wgt_cb}, more.wgt_base);
        more.prm_base = 0;
        prog.push_back(more);
    }
    run(prog);
    ASSERT_FALSE(HasFatalFailure());
    // Back to back: each instruction starts the cycle after the previous one is done.
    for (std::size_t k = 1; k < start_cycles.size(); ++k) EXPECT_EQ(start_cycles[k], done_cycles[k - 1] + 1);
}

TEST_P(ComputeUnit, ZeroAccStridesAccumulateOneEntry) {
    // Every output loop iteration adds into the same entry: with one step per entry the
    // entry just written is read again in the next cycle.
    std::mt19937 gen(8);
    std::vector<isa::Gemm> prog;
    for (int n = 0; n < 12; ++n) {
        isa::Gemm g = random_gemm(gen, 300);
        g.acc_kb = g.acc_oy = g.acc_ox = 0;
        if (n % 3 == 0) g.n_r = g.n_s = g.n_cb = 1;
        if (n % 3 == 1) g.acc_kb = 1, g.acc_base = std::min(g.acc_base, kAccDepth - g.n_kb);
        g.init = n % 4 == 3;
        place(gen, kInpDepth, {g.n_oy, g.n_ox, g.n_r, g.n_s, g.n_cb},
              {&g.inp_oy, &g.inp_ox, &g.inp_r, &g.inp_s, &g.inp_cb}, g.inp_base);
        place(gen, kWgtDepth, {g.n_kb, g.n_r, g.n_s, g.n_cb}, {&g.wgt_kb, &g.wgt_r, &g.wgt_s, &g.wgt_cb},
              g.wgt_base);
        prog.push_back(g);
    }
    // Two entries in turn, one step each: an entry is read again two cycles after the
    // step that wrote it issued, before the write lands (forwarded from the write). Three
    // in turn: the closest that needs no forwarding.
    isa::Gemm alt;
    alt.n_oy = 20, alt.n_ox = 2, alt.acc_ox = 1, alt.inp_oy = 2, alt.inp_ox = 1;
    alt.acc_base = 3;
    prog.push_back(alt);
    alt.n_ox = 3, alt.inp_oy = 3;  // three in turn
    prog.push_back(alt);
    run(prog);
}

TEST_P(ComputeUnit, OneStepEntriesWriteEveryCycle) {
    isa::Gemm g;
    g.init = false;
    g.n_kb = 2, g.n_oy = 3, g.n_ox = 10;
    g.acc_kb = 40, g.acc_oy = 11, g.acc_ox = 1;  // 2 * 40 <= 128: fits the tiny ACC
    g.inp_oy = 10, g.inp_ox = 1;
    g.wgt_kb = 3;
    run({g});
    ASSERT_FALSE(HasFatalFailure());
    ASSERT_EQ(write_cycles.size(), isa::gemm_steps(g));
    for (std::size_t k = 1; k < write_cycles.size(); ++k) EXPECT_EQ(write_cycles[k], write_cycles[k - 1] + 1);
    // The same with init, and then strides of 0 (each entry continues the previous one).
    isa::Gemm h = g;
    h.init = true;
    h.prm_base = 7;
    isa::Gemm z = g;
    z.acc_kb = z.acc_oy = z.acc_ox = 0;
    z.acc_base = 5;
    write_cycles.clear();
    run({h, z});
    ASSERT_FALSE(HasFatalFailure());
    ASSERT_EQ(write_cycles.size(), 2 * isa::gemm_steps(g));
}

TEST_P(ComputeUnit, LongGemmIssuesOneStepPerCycle) {
    isa::Gemm g;
    g.init = true;
    g.n_kb = 2, g.n_oy = 4, g.n_ox = 8, g.n_r = 2, g.n_s = 2, g.n_cb = 8;  // 4096 steps
    g.acc_kb = 32, g.acc_oy = 8, g.acc_ox = 1;
    g.inp_oy = 20, g.inp_ox = 2, g.inp_r = 20, g.inp_s = 1, g.inp_cb = 40;
    g.wgt_kb = 64, g.wgt_r = 16, g.wgt_s = 8, g.wgt_cb = 1;
    g.tokens = {true, true, true, true};
    tokens_ready = true;
    run({g, g});
    ASSERT_FALSE(HasFatalFailure());
    const uint64_t n = isa::gemm_steps(g);
    ASSERT_EQ(step_cycles.size(), 2 * n);
    ASSERT_EQ(done_cycles.size(), 2u);
    // No bubble: the steps of an instruction issue in consecutive cycles.
    EXPECT_EQ(step_cycles[n - 1] - step_cycles[0], n - 1);
    const uint64_t cycles = done_cycles[0] - start_cycles[0] + 1;
    const double rate = double(n) / double(cycles);
    EXPECT_GE(rate, 0.95) << cycles << " cycles for " << n << " steps";
    EXPECT_EQ(cycles, n + kPipelineCycles);
    EXPECT_EQ(start_cycles[1], done_cycles[0] + 1);
}

TEST_P(ComputeUnit, WaitsForBothTokensAndPopsThemTogether) {
    isa::Gemm g;
    g.init = true;
    g.n_ox = 3;
    g.acc_ox = 1;
    g.tokens = {true, true, false, true};
    queue.push_back(g);
    reference(g, inp, wgt, bias, expect_acc);
    for (int i = 0; i < 30; ++i) {
        if (i == 6) prev_tokens = 1;
        if (i == 15) next_tokens = 1;
        cycle_once();
        ASSERT_FALSE(HasFatalFailure());
        if (i < 15) {
            EXPECT_EQ(m->state_o, 1) << i;
            EXPECT_TRUE(m->quiet_o);
            EXPECT_TRUE(step_cycles.empty());
        }
    }
    // cycle_once checked that both pops came with the first step.
    ASSERT_EQ(start_cycles.size(), 1u);
    EXPECT_EQ(start_cycles[0], 15u);
    EXPECT_EQ(prev_tokens + next_tokens, 0u);
    ASSERT_EQ(done_cycles.size(), 1u);
    EXPECT_EQ(done_cycles[0], 15 + g.n_ox - 1 + kPipelineCycles);
    EXPECT_EQ(next_pushes, 1u);
    EXPECT_EQ(prev_pushes, 0u);
    for (uint32_t w = 0; w < kAccWords; ++w) EXPECT_EQ(acc.entry(0)[w], expect_acc.entry(0)[w]);
}

TEST_P(ComputeUnit, ResetMidInstructionLeavesNoState) {
    std::mt19937 gen(9);
    isa::Gemm a = random_gemm(gen);
    a.tokens = {};
    a.n_kb = 2, a.n_oy = 3;
    queue.push_back(a);
    for (int i = 0; i < 25; ++i) {
        cycle_once();
        ASSERT_FALSE(HasFatalFailure());
    }
    ASSERT_TRUE(started);
    // Reset with the queue cleared, as accel_top does; keep what ACC holds now.
    queue.clear();
    head_visible = started = false;
    head_steps = 0;
    m->insn_valid_i = 0;
    reset(*m, 1);
    expect_acc = acc;
    step_cycles.clear();
    write_cycles.clear();
    // The next instruction starts from clean loop counters and addresses.
    isa::Gemm b = random_gemm(gen);
    b.tokens = {};
    run({b});
    ASSERT_FALSE(HasFatalFailure());
    EXPECT_EQ(step_cycles.size(), isa::gemm_steps(b));
}

std::string params_name(const ::testing::TestParamInfo<int>&) {
    return "B" + std::to_string(kBatch) + "_BI" + std::to_string(kBi) + "_BO" + std::to_string(kBo) +
           "_acc" + std::to_string(kAccDepth);
}
INSTANTIATE_TEST_SUITE_P(Params, ComputeUnit, ::testing::Values(0), params_name);

}  // namespace
}  // namespace accel::bench
