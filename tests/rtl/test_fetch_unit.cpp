// accel_fetch_unit: programs of instructions encoded by accel::isa::encode in a DRAM image,
// served by the bench's AXI read slave (random ARREADY, random latency per burst, random
// RVALID gaps, in-order responses, SLVERR past the end of the DRAM or at injected
// addresses), dispatched into three bench queues of the ISA's depth whose units pop
// at random (or not at all, to hold fetch on a full queue).
//
// The expected outcome comes from a C++ model of fetch built on accel::isa::decode: the
// instructions dispatched (in order, word for word), the error pulse (exactly one, of
// the right kind) or finished_o. On every cycle the bench checks the AXI rules (AR held
// until accepted, one 64-byte INCR burst per instruction, no new request after a
// stop), that nothing is pushed into a full queue, and quiet_o/state_o against what it
// knows of the reads in flight.
//
// Three models (tests/rtl/CMakeLists.txt): the default config (64-bit bus), the tiny one
// (32-bit) and the default with a 1024-bit bus (one beat holds two instructions).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "Vaccel_fetch_unit.h"
#include "Vaccel_fetch_unit___024root.h"
#include "Vaccel_fetch_unit_wide.h"
#include "Vaccel_fetch_unit_wide___024root.h"
#ifdef FETCH_PATH_TINY
#include "Vaccel_fetch_unit_tiny.h"
#include "Vaccel_fetch_unit_tiny___024root.h"
#endif
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"
#include "bench_util.hpp"
#include "shipped_hw.hpp"

namespace accel::bench {
namespace {

using isa::ErrorCode;
using isa::InsnWord;

constexpr uint32_t kDramBytes = 1u << 16;  // beyond: SLVERR
constexpr uint64_t kTimeout = 200000;
constexpr std::size_t kInsnBytes = isa::kInsnBytes;

// ---------------------------------------------------------------- programs

InsnWord finish() { return isa::encode(isa::Finish{}); }

// Random instructions that decode() accepts, small enough for every config.
class ProgramGen {
public:
    ProgramGen(uint32_t seed, const HwParams& hw) : rng_(seed), hw_(hw) {}

    uint32_t u(uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng_); }
    bool p(double x) { return std::bernoulli_distribution(x)(rng_); }
    uint32_t dram() { return static_cast<uint32_t>(rng_()) & ~(hw_.beat_bytes - 1); }

    InsnWord legal() {
        isa::Insn insn;
        switch (u(0, 2)) {
            case 0: {
                isa::Load l;
                l.tokens.pop_next = p(0.3), l.tokens.push_next = p(0.3);
                l.buffer = static_cast<isa::Buffer>(u(0, 2));
                l.sram_base = u(0, 16);
                l.dram_base = dram();
                l.z_size = u(1, 2), l.y_size = u(1, 3), l.x_size = u(1, 3);
                l.dram_z_stride = dram(), l.dram_y_stride = dram();
                if (l.buffer == isa::Buffer::Inp) {
                    l.pad_top = u(0, 1), l.pad_left = u(0, 1), l.pad_value = static_cast<int8_t>(u(0, 255));
                }
                insn = l;
                break;
            }
            case 1: {
                isa::Gemm g;
                g.tokens = {p(0.3), p(0.3), p(0.3), p(0.3)};
                g.init = p(0.5);
                g.acc_base = u(0, 16), g.inp_base = u(0, 16), g.wgt_base = u(0, 16), g.prm_base = u(0, 8);
                g.n_kb = u(1, 2), g.n_oy = u(1, 3), g.n_ox = u(1, 3), g.n_r = u(1, 3), g.n_s = u(1, 3);
                g.n_cb = u(1, 2);
                g.acc_ox = 1, g.acc_oy = 3, g.acc_kb = 9;
                g.inp_ox = 1, g.inp_oy = u(0, 5), g.inp_r = u(0, 5), g.inp_s = 1, g.inp_cb = u(0, 5);
                g.wgt_kb = u(0, 4), g.wgt_r = u(0, 4), g.wgt_s = u(0, 4), g.wgt_cb = u(0, 4);
                insn = g;
                break;
            }
            default: {
                isa::Drain d;
                d.tokens.pop_prev = p(0.3), d.tokens.push_prev = p(0.3);
                d.acc_base = u(0, 16), d.prm_base = u(0, 8);
                d.n_kb = u(1, 2), d.n_y = u(1, 3), d.n_x = u(1, 3);
                d.acc_kb = u(0, 9), d.acc_y = u(0, 3), d.acc_x = u(0, 1);
                d.dram_base = dram(), d.dram_kb = dram(), d.dram_y = dram(), d.dram_x = dram(), d.dram_b = dram();
                d.zy = static_cast<int8_t>(u(0, 255));
                d.act_min = static_cast<int8_t>(static_cast<int>(u(0, 100)) - 100);
                d.act_max = static_cast<int8_t>(u(0, 100));
                insn = d;
            }
        }
        const InsnWord w = isa::encode(insn);
        EXPECT_EQ(isa::decode(w, hw_).error, ErrorCode::Ok) << isa::to_string(insn);
        return w;
    }

    std::vector<InsnWord> legal(int n) {
        std::vector<InsnWord> v;
        for (int i = 0; i < n; ++i) v.push_back(legal());
        return v;
    }

    // `n` legal instructions and FINISH.
    std::vector<InsnWord> finished(int n) {
        std::vector<InsnWord> v = legal(n);
        v.push_back(finish());
        return v;
    }

    // A finished program with a bad instruction, made by `bad`, after the first `before`.
    std::vector<InsnWord> stopping_at(int before, InsnWord (ProgramGen::*bad)(), int after) {
        std::vector<InsnWord> v = legal(before);
        v.push_back((this->*bad)());
        for (const InsnWord& w : finished(after)) v.push_back(w);
        return v;
    }

    InsnWord garbage() {
        InsnWord w;
        for (auto& b : w) b = static_cast<uint8_t>(rng_());
        return w;
    }

    InsnWord illegal_opcode() {
        InsnWord w = legal();
        w[0] = static_cast<uint8_t>((w[0] & 0xf0) | 0x7);
        return w;
    }

    // A GEMM whose accumulator nest ends one entry past the buffer.
    InsnWord range_error() {
        isa::Gemm g;
        g.n_kb = 2, g.acc_kb = 1, g.acc_base = hw_.acc_depth - 1;
        const InsnWord w = isa::encode(g);
        EXPECT_EQ(isa::decode(w, hw_).error, ErrorCode::SramRange);
        return w;
    }

private:
    std::mt19937 rng_;
    HwParams hw_;
};

int queue_of(const InsnWord& w) { return (w[0] & 0xf) - 1; }  // LOAD 0, GEMM 1, DRAIN 2

// ---------------------------------------------------------------- the bench

struct Outcome {
    std::vector<InsnWord> dispatched;
    uint32_t err = 0;  // error bit, 0 if none
    bool finished = false;
};

struct Knobs {
    double p_arstall = 0.3, p_rgap = 0.3, p_pop_stall = 0.6;
    int max_latency = 24;
};

template <typename M, typename Root>
class FetchBench {
public:
    static constexpr uint32_t kBeat = Root::accel_fetch_unit__DOT__BEAT_BYTES;
    static constexpr uint32_t kBeats = kBeat >= kInsnBytes ? 1 : kInsnBytes / kBeat;

    FetchBench(uint32_t seed, const HwParams& hw, const Knobs& k = {})
        : hw_(hw), k_(k), rng_(seed), ar_stall_(seed + 1, k.p_arstall), r_gap_(seed + 2, k.p_rgap),
          pop_stall_{Stalls(seed + 3, k.p_pop_stall), Stalls(seed + 4, k.p_pop_stall), Stalls(seed + 5, k.p_pop_stall)},
          dram_(kDramBytes) {
        EXPECT_EQ(Root::accel_fetch_unit__DOT__INP_DEPTH, hw.inp_depth);
        EXPECT_EQ(Root::accel_fetch_unit__DOT__WGT_DEPTH, hw.wgt_depth);
        EXPECT_EQ(Root::accel_fetch_unit__DOT__ACC_DEPTH, hw.acc_depth);
        EXPECT_EQ(Root::accel_fetch_unit__DOT__PRM_DEPTH, hw.prm_depth);
        EXPECT_EQ(kBeat, hw.beat_bytes);
        for (auto& b : dram_) b = static_cast<uint8_t>(rng_());
        m_.start_i = 0;
        m_.ar_ready_i = 0;
        m_.r_valid_i = 0;
        m_.load_full_i = m_.gemm_full_i = m_.drain_full_i = 0;
        reset(m_);
    }

    void write(uint32_t addr, const std::vector<InsnWord>& prog) {
        for (std::size_t i = 0; i < prog.size(); ++i) {
            std::copy(prog[i].begin(), prog[i].end(), dram_.begin() + addr + i * kInsnBytes);
        }
    }
    void inject_bus_error(uint32_t insn_addr) { bad_.insert(insn_addr); }
    void freeze_units(bool f) { frozen_ = f; }

    // What fetch must do (docs/isa.md), from decode().
    Outcome expect(uint32_t addr, uint32_t count) const {
        Outcome o;
        addr &= ~uint32_t{63};
        for (uint32_t i = 0; i < count; ++i) {
            const uint32_t a = addr + i * 64;
            if (uint64_t{a} + 64 > dram_.size() || bad_.count(a)) {
                o.err = isa::error_bit(ErrorCode::BusError);
                return o;
            }
            InsnWord w;
            std::copy(dram_.begin() + a, dram_.begin() + a + 64, w.begin());
            const auto d = isa::decode(w, hw_);
            if (d.error != ErrorCode::Ok) {
                o.err = isa::error_bit(d.error);
                return o;
            }
            if (std::holds_alternative<isa::Finish>(d.insn)) {
                o.finished = true;
                return o;
            }
            o.dispatched.push_back(w);
        }
        o.err = isa::error_bit(ErrorCode::NoFinish);
        return o;
    }

    // One clock cycle. `start` drives start_i in it.
    void cycle(bool start = false, uint32_t addr = 0, uint32_t count = 0) {
        m_.start_i = start;
        m_.insn_addr_i = addr;
        m_.insn_count_i = count;
        m_.ar_ready_i = !ar_stall_();
        offer_beat();
        const bool full[3] = {queues_[0].size() >= kUnitQueueDepth, queues_[1].size() >= kUnitQueueDepth,
                              queues_[2].size() >= kUnitQueueDepth};
        m_.load_full_i = full[0], m_.gemm_full_i = full[1], m_.drain_full_i = full[2];
        m_.eval();

        if (trace_) {
            std::printf("%6llu st=%u q=%u ar=%u/%u a=%08x r=%u/%u last=%u push=%u%u%u full=%u%u%u err=%x fin=%u\n",
                        static_cast<unsigned long long>(now_), unsigned(m_.state_o), unsigned(m_.quiet_o),
                        unsigned(m_.ar_valid_o), unsigned(m_.ar_ready_i), unsigned(m_.ar_addr_o),
                        unsigned(m_.r_valid_i), unsigned(m_.r_ready_o), unsigned(m_.r_last_i),
                        unsigned(m_.load_push_o), unsigned(m_.gemm_push_o), unsigned(m_.drain_push_o),
                        full[0], full[1], full[2], unsigned(m_.err_o), unsigned(m_.finished_o));
        }
        check_ar();
        check_status(full);
        // dispatch
        const bool push[3] = {bool(m_.load_push_o), bool(m_.gemm_push_o), bool(m_.drain_push_o)};
        ASSERT_LE(push[0] + push[1] + push[2], 1) << "two pushes, cycle " << now_;
        for (int q = 0; q < 3; ++q) {
            if (!push[q]) continue;
            ASSERT_FALSE(full[q]) << "push into a full queue " << q << ", cycle " << now_;
            InsnWord w;
            const auto bytes = wide_bytes(m_.insn_o);
            std::copy(bytes.begin(), bytes.begin() + 64, w.begin());
            ASSERT_EQ(queue_of(w), q) << "instruction pushed into the wrong queue, cycle " << now_;
            dispatched_.push_back(w);
            pushes_.push_back(w);
        }
        if (m_.err_o) errs_.push_back(m_.err_o);
        // R handshake
        const bool r_hs = m_.r_valid_i && m_.r_ready_o;
        if (r_hs) {
            Burst& b = bursts_.front();
            if (b.beat++ == b.len) bursts_.pop_front();
        }
        // units pop (after the edge, like push)
        std::array<bool, 3> pop{};
        for (int q = 0; q < 3; ++q) pop[q] = !frozen_ && !queues_[q].empty() && !pop_stall_[q]();
        tick(m_);
        ++now_;
        if (r_hs) beat_shown_ = false, m_.r_valid_i = 0;  // the next beat, if any, next cycle
        for (int q = 0; q < 3; ++q) {
            if (pop[q]) queues_[q].pop_front();
        }
        for (const auto& w : pushes_) queues_[queue_of(w)].push_back(w);
        pushes_.clear();
    }

    // Starts a run and clocks until fetch has stopped and every read has returned, then
    // a few more cycles in which nothing may happen.
    void run(uint32_t addr, uint32_t count) {
        start(addr, count);
        finish_run();
    }
    // Writes the program at `addr`, runs `count` of its instructions (all when 0) and
    // returns what fetch must have done.
    Outcome run_program(uint32_t addr, const std::vector<InsnWord>& prog, uint32_t count = 0) {
        if (count == 0) count = static_cast<uint32_t>(prog.size());
        write(addr, prog);
        run(addr, count);
        return expect(addr, count);
    }
    void start(uint32_t addr, uint32_t count) {
        dispatched_.clear();
        errs_.clear();
        cycle(true, addr, count);
        stopped_ = false;
        ASSERT_NE(m_.state_o, 0) << "start ignored";
    }
    void finish_run() {
        const uint64_t t0 = now_;
        while (!(stopped_ && m_.quiet_o && bursts_.empty()) && now_ - t0 < kTimeout &&
               !::testing::Test::HasFatalFailure()) {
            cycle();
        }
        ASSERT_LT(now_ - t0, kTimeout) << "fetch did not stop";
        const std::size_t n = dispatched_.size(), e = errs_.size(), ars = ars_;
        for (int i = 0; i < 30 && !::testing::Test::HasFatalFailure(); ++i) cycle();
        EXPECT_EQ(dispatched_.size(), n) << "dispatch after the stop";
        EXPECT_EQ(errs_.size(), e) << "error after the stop";
        EXPECT_EQ(ars_, ars) << "read after the stop";
        EXPECT_TRUE(m_.quiet_o);
        EXPECT_EQ(m_.state_o, 0);
    }

    void check_outcome(const Outcome& want) {
        EXPECT_EQ(dispatched_.size(), want.dispatched.size());
        for (std::size_t i = 0; i < std::min(dispatched_.size(), want.dispatched.size()); ++i) {
            EXPECT_EQ(dispatched_[i], want.dispatched[i]) << "instruction " << i;
        }
        if (want.err) {
            ASSERT_EQ(errs_.size(), 1u) << "expected one error pulse";
            EXPECT_EQ(errs_[0], want.err) << isa::error_names(errs_[0]) << " instead of " << isa::error_names(want.err);
        } else {
            EXPECT_TRUE(errs_.empty()) << isa::error_names(errs_.empty() ? 0 : errs_[0]);
        }
        EXPECT_EQ(bool(m_.finished_o), want.finished);
    }

    M& model() { return m_; }
    uint64_t ars() const { return ars_; }
    const std::vector<InsnWord>& dispatched() const { return dispatched_; }
    std::size_t queued(int q) const { return queues_[q].size(); }
    bool slave_idle() const { return bursts_.empty(); }
    uint64_t error_beats() const { return error_beats_; }

private:
    struct Burst {
        uint32_t addr, len;
        uint64_t due;
        uint32_t beat;
    };

    void offer_beat() {
        if (beat_shown_ || bursts_.empty() || bursts_.front().due > now_ || r_gap_()) return;
        const Burst& b = bursts_.front();
        const uint64_t start = b.addr & ~uint64_t{kBeat - 1};
        const uint64_t a = start + uint64_t{b.beat} * kBeat;
        const bool err = start + uint64_t{b.len + 1} * kBeat > dram_.size() || bad_.count(b.addr);
        static const std::vector<uint8_t> zeros(kBeat, 0);
        set_bytes(m_.r_data_i, err ? zeros.data() : dram_.data() + a, kBeat);
        m_.r_resp_i = err ? 2 : 0;  // SLVERR
        error_beats_ += err;
        m_.r_last_i = b.beat == b.len;
        m_.r_valid_i = 1;
        beat_shown_ = true;
    }

    void check_ar() {
        if (ar_waiting_) {
            ASSERT_TRUE(m_.ar_valid_o) << "ARVALID dropped before ARREADY, cycle " << now_;
            ASSERT_EQ(m_.ar_addr_o, held_addr_) << "ARADDR changed while waiting, cycle " << now_;
            ASSERT_EQ(m_.ar_len_o, held_len_) << "ARLEN changed while waiting, cycle " << now_;
        } else if (m_.ar_valid_o && stopped_ && !pending_at_stop_) {
            FAIL() << "new read after the stop, cycle " << now_;
        }
        ASSERT_LE(bursts_.size() + m_.ar_valid_o, Root::accel_fetch_unit__DOT__SLOTS)
            << "more reads in flight than the read-ahead holds, cycle " << now_;
        if (m_.ar_valid_o) {
            ASSERT_EQ(m_.ar_len_o, kBeats - 1) << "one burst per instruction";
            ASSERT_EQ(m_.ar_addr_o % 64, 0u) << "instruction reads are 64-byte aligned";
        }
        ar_waiting_ = m_.ar_valid_o && !m_.ar_ready_i;
        held_addr_ = m_.ar_addr_o, held_len_ = m_.ar_len_o;
        if (m_.ar_valid_o && m_.ar_ready_i) {
            std::uniform_int_distribution<int> lat(1, k_.max_latency);
            bursts_.push_back({m_.ar_addr_o, m_.ar_len_o, now_ + lat(rng_), 0});
            ++ars_;
            pending_at_stop_ = false;
        }
    }

    void check_status(const bool full[3]) {
        const unsigned st = m_.state_o;
        ASSERT_LE(st, 2u) << "cycle " << now_;
        const bool reads_out = !bursts_.empty() || m_.ar_valid_o;
        if (m_.quiet_o) {
            ASSERT_FALSE(reads_out) << "quiet with reads in flight, cycle " << now_;
            ASSERT_NE(st, 2u) << "quiet while busy, cycle " << now_;
        }
        if (st == 0 && !reads_out) {
            ASSERT_TRUE(m_.quiet_o) << "stopped, no reads, but not quiet, cycle " << now_;
        }
        if (st == 1) {
            ASSERT_TRUE(full[0] || full[1] || full[2]) << "waiting without a full queue, cycle " << now_;
            ASSERT_FALSE(m_.load_push_o || m_.gemm_push_o || m_.drain_push_o);
            ASSERT_EQ(bool(m_.quiet_o), !reads_out) << "cycle " << now_;
        }
        if (st == 0 && !stopped_) {
            stopped_ = true;
            pending_at_stop_ = m_.ar_valid_o;
        }
    }

    HwParams hw_;
    Knobs k_;
    M m_;
    std::mt19937 rng_;
    Stalls ar_stall_, r_gap_;
    std::array<Stalls, 3> pop_stall_;
    std::vector<uint8_t> dram_;
    std::set<uint32_t> bad_;
    std::deque<Burst> bursts_;
    bool beat_shown_ = false;
    bool ar_waiting_ = false;
    uint32_t held_addr_ = 0, held_len_ = 0;
    bool stopped_ = true, pending_at_stop_ = false;
    bool frozen_ = false;
    std::array<std::deque<InsnWord>, 3> queues_;
    std::vector<InsnWord> pushes_;
    std::vector<InsnWord> dispatched_;
    std::vector<uint32_t> errs_;
    uint64_t ars_ = 0;
    uint64_t error_beats_ = 0;
    uint64_t now_ = 0;
    bool trace_ = std::getenv("FETCH_TRACE") != nullptr;  // a line per cycle on stdout
};

// ---------------------------------------------------------------- scenarios

// Each scenario runs against every model: the model, and the params it was built for.
struct DefaultCfg {
    using Model = Vaccel_fetch_unit;
    using RootT = Vaccel_fetch_unit___024root;
    static HwParams hw() { return default_hw_params(); }
};
struct WideCfg {  // the default config with a 1024-bit bus
    using Model = Vaccel_fetch_unit_wide;
    using RootT = Vaccel_fetch_unit_wide___024root;
    static HwParams hw() {
        HwParams hw = default_hw_params();
        hw.beat_bytes = RootT::accel_fetch_unit__DOT__BEAT_BYTES;
        EXPECT_EQ(hw.beat_bytes, 128u);
        return hw;
    }
};
#ifdef FETCH_PATH_TINY
struct TinyCfg {
    using Model = Vaccel_fetch_unit_tiny;
    using RootT = Vaccel_fetch_unit_tiny___024root;
    static HwParams hw() { return test::shipped_hw("tiny"); }
};
#endif

template <typename C>
class FetchUnit : public ::testing::Test {
protected:
    using Bench = FetchBench<typename C::Model, typename C::RootT>;
    HwParams hw_ = C::hw();
};

#ifdef FETCH_PATH_TINY
using Cfgs = ::testing::Types<DefaultCfg, TinyCfg, WideCfg>;
#else
using Cfgs = ::testing::Types<DefaultCfg, WideCfg>;
#endif
TYPED_TEST_SUITE(FetchUnit, Cfgs);

// A program ending in FINISH, with garbage after it that fetch may prefetch but must
// neither dispatch nor report.
TYPED_TEST(FetchUnit, ProgramEndingInFinish) {
    typename TestFixture::Bench b(1, this->hw_);
    ProgramGen g(2, this->hw_);
    auto prog = g.finished(150);
    for (int i = 0; i < 20; ++i) prog.push_back(g.garbage());
    const Outcome want = b.run_program(0x1000, prog);
    ASSERT_TRUE(want.finished);
    ASSERT_EQ(want.dispatched.size(), 150u);
    b.check_outcome(want);
}

// FINISH is the last instruction inside the DRAM and the count runs past its end: the
// prefetches get SLVERR, which must not be reported.
TYPED_TEST(FetchUnit, PrefetchPastTheEndIsNoError) {
    typename TestFixture::Bench b(3, this->hw_);
    ProgramGen g(4, this->hw_);
    const auto prog = g.finished(10);
    const uint32_t addr = kDramBytes - 64 * static_cast<uint32_t>(prog.size());
    const Outcome want = b.run_program(addr, prog, 100);
    ASSERT_TRUE(want.finished);
    b.check_outcome(want);
    EXPECT_GT(b.error_beats(), 0u) << "the scenario needs a prefetch past the end";
}

TYPED_TEST(FetchUnit, IllegalOpcodeStopsDispatch) {
    typename TestFixture::Bench b(5, this->hw_);
    ProgramGen g(6, this->hw_);
    const auto prog = g.stopping_at(40, &ProgramGen::illegal_opcode, 30);
    const Outcome want = b.run_program(0x2000, prog);
    ASSERT_EQ(want.err, isa::error_bit(ErrorCode::IllegalInstruction));
    ASSERT_EQ(want.dispatched.size(), 40u);
    b.check_outcome(want);
}

TYPED_TEST(FetchUnit, RangeErrorStopsDispatch) {
    typename TestFixture::Bench b(7, this->hw_);
    ProgramGen g(8, this->hw_);
    const auto prog = g.stopping_at(25, &ProgramGen::range_error, 10);
    const Outcome want = b.run_program(0x3040, prog);
    ASSERT_EQ(want.err, isa::error_bit(ErrorCode::SramRange));
    b.check_outcome(want);
}

// Random instructions (many illegal, some range errors): the first non-OK decides.
TYPED_TEST(FetchUnit, GarbageStopsWhereDecodeSays) {
    for (uint32_t seed = 0; seed < 20; ++seed) {
        typename TestFixture::Bench b(100 + seed, this->hw_);
        ProgramGen g(200 + seed, this->hw_);
        std::vector<InsnWord> prog;
        for (int i = 0; i < 40; ++i) prog.push_back(g.p(0.9) ? g.legal() : g.garbage());
        b.check_outcome(b.run_program(0x4000, prog, 40));
        if (::testing::Test::HasFailure()) return;
    }
}

TYPED_TEST(FetchUnit, NoFinish) {
    typename TestFixture::Bench b(9, this->hw_);
    ProgramGen g(10, this->hw_);
    const auto prog = g.legal(60);
    const Outcome want = b.run_program(0x800, prog, 60);
    ASSERT_EQ(want.err, isa::error_bit(ErrorCode::NoFinish));
    ASSERT_EQ(want.dispatched.size(), 60u);
    b.check_outcome(want);
}

TYPED_TEST(FetchUnit, CountZeroIsNoFinishAtOnce) {
    typename TestFixture::Bench b(11, this->hw_);
    b.run(0x800, 0);
    b.check_outcome({{}, isa::error_bit(ErrorCode::NoFinish), false});
    EXPECT_EQ(b.ars(), 0u) << "nothing to read";
}

TYPED_TEST(FetchUnit, BusErrorOnAnInstructionRead) {
    typename TestFixture::Bench b(12, this->hw_);
    ProgramGen g(13, this->hw_);
    const auto prog = g.finished(50);
    b.write(0x5000, prog);
    b.inject_bus_error(0x5000 + 30 * 64);
    b.run(0x5000, static_cast<uint32_t>(prog.size()));
    const Outcome want = b.expect(0x5000, static_cast<uint32_t>(prog.size()));
    ASSERT_EQ(want.err, isa::error_bit(ErrorCode::BusError));
    ASSERT_EQ(want.dispatched.size(), 30u);
    b.check_outcome(want);
}

// With the units stopped, fetch fills the queues in program order and then waits on the
// first instruction whose queue is full (quiet once its read-ahead is in), dropping
// nothing; once the units run again it completes the program.
TYPED_TEST(FetchUnit, WaitsOnFullQueues) {
    typename TestFixture::Bench b(14, this->hw_);
    ProgramGen g(15, this->hw_);
    const auto prog = g.finished(60);
    b.write(0x6000, prog);
    b.freeze_units(true);
    b.start(0x6000, static_cast<uint32_t>(prog.size()));
    for (int i = 0; i < 3000 && !::testing::Test::HasFatalFailure(); ++i) b.cycle();
    // the prefix fetch can dispatch before a queue is full
    std::size_t prefix = 0;
    std::array<std::size_t, 3> n{};
    for (; prefix < prog.size() - 1 && n[queue_of(prog[prefix])] < kUnitQueueDepth; ++prefix) {
        ++n[queue_of(prog[prefix])];
    }
    ASSERT_EQ(b.dispatched().size(), prefix);
    EXPECT_EQ(b.model().state_o, 1);
    EXPECT_TRUE(b.model().quiet_o);
    EXPECT_TRUE(b.slave_idle());
    b.freeze_units(false);
    b.finish_run();
    b.check_outcome(b.expect(0x6000, static_cast<uint32_t>(prog.size())));
}

// A second run started as soon as the first stops, while the first run's read-ahead is
// still in flight (long latency): the stale beats are discarded, not dispatched. A start
// pulse during a run is ignored. The low 6 bits of the address are ignored.
TYPED_TEST(FetchUnit, RestartDiscardsStaleReads) {
    Knobs k;
    k.max_latency = 80;
    typename TestFixture::Bench b(16, this->hw_, k);
    ProgramGen g(17, this->hw_);
    // The error comes at the fourth instruction: the read-ahead fetch requested as the
    // first three were dispatched is still in flight when it stops (an error at the first
    // instruction comes after the checker's pipeline, when a wide bus may have every
    // read-ahead in already).
    std::vector<InsnWord> first = g.legal(3);
    first.push_back(g.illegal_opcode());
    for (const auto& w : g.legal(10)) first.push_back(w);
    const auto second = g.finished(40);
    b.write(0x7000, first);
    b.write(0x9000, second);
    for (int round = 0; round < 3 && !::testing::Test::HasFatalFailure(); ++round) {
        b.start(0x7000, static_cast<uint32_t>(first.size()));
        while (b.model().state_o != 0 && !::testing::Test::HasFatalFailure()) b.cycle();
        b.cycle();  // the error pulse shows in the first stopped cycle
        b.check_outcome(b.expect(0x7000, static_cast<uint32_t>(first.size())));
        EXPECT_FALSE(b.slave_idle()) << "the scenario needs reads in flight at the restart";
        b.start(0x9000 + 0x15, static_cast<uint32_t>(second.size()));
        for (int i = 0; i < 50 && !::testing::Test::HasFatalFailure(); ++i) b.cycle();
        b.cycle(true, 0x7000, 5);  // ignored: a run is under way
        b.finish_run();
        b.check_outcome(b.expect(0x9000, static_cast<uint32_t>(second.size())));
    }
}

// No stalls at all and single-cycle latency: the fast path.
TYPED_TEST(FetchUnit, NoStalls) {
    Knobs k;
    k.p_arstall = 0, k.p_rgap = 0, k.p_pop_stall = 0, k.max_latency = 1;
    typename TestFixture::Bench b(18, this->hw_, k);
    ProgramGen g(19, this->hw_);
    const auto prog = g.finished(100);
    b.check_outcome(b.run_program(0, prog));
}

}  // namespace
}  // namespace accel::bench
