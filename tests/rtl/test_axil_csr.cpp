// accel_axil_csr: an AXI4-Lite master with random valid delays on AW, W and AR (AW and W in
// either order or together) and random bready/rready back-pressure, against a C++
// model of the register map of sw/hw/csr.hpp. The status inputs change at
// random; a read must return the value its register had in the AR cycle. Checks the
// responses (OKAY / SLVERR), byte strobes, in-order B and R, that valid and payload
// hold until ready, and the start pulse (one cycle, only while not busy).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <vector>

#include "Vaccel_axil_csr.h"
#include "Vaccel_axil_csr___024root.h"  // the elaborated parameters (built with --public)
#include "hw/csr.hpp"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

using Root = Vaccel_axil_csr___024root;
constexpr uint32_t kOkay = 0, kSlverr = 2;
constexpr uint32_t kNumCounters = (csr::kDrainWait - csr::kCycles) / 8 + 1;
static_assert(kNumCounters == 14);

uint32_t cfg_value(uint32_t addr) {
    switch (addr) {
        case csr::kCfgBatch: return Root::accel_axil_csr__DOT__CFG_BATCH;
        case csr::kCfgBlockIn: return Root::accel_axil_csr__DOT__CFG_BLOCK_IN;
        case csr::kCfgBlockOut: return Root::accel_axil_csr__DOT__CFG_BLOCK_OUT;
        case csr::kCfgAxiDataBits: return Root::accel_axil_csr__DOT__CFG_AXI_DATA_BITS;
        case csr::kCfgInpDepth: return Root::accel_axil_csr__DOT__CFG_INP_DEPTH;
        case csr::kCfgWgtDepth: return Root::accel_axil_csr__DOT__CFG_WGT_DEPTH;
        case csr::kCfgAccDepth: return Root::accel_axil_csr__DOT__CFG_ACC_DEPTH;
        default: return 0;
    }
}

bool is_cfg(uint32_t a) { return a >= csr::kCfgBatch && a <= csr::kCfgAccDepth && a % 4 == 0; }
bool is_counter(uint32_t a) {
    return a >= csr::kCycles && a < csr::kCycles + 8 * kNumCounters && a % 4 == 0;
}

// The status inputs, as the bench drives them.
struct Inputs {
    bool busy = false, done = false;
    uint32_t error = 0, unit_state = 0;
    std::vector<uint64_t> counters = std::vector<uint64_t>(kNumCounters, 0);
};

struct Expect {
    uint32_t data, resp;
};

// The register map: what a read of `a` returns, given the inputs and the RW registers.
Expect expected_read(uint32_t a, const Inputs& in, uint32_t insn_addr, uint32_t insn_count) {
    switch (a) {
        case csr::kCtrl: return {0, kOkay};
        case csr::kStatus: return {uint32_t{in.busy} | uint32_t{in.done} << 1, kOkay};
        case csr::kError: return {in.error, kOkay};
        case csr::kInsnAddr: return {insn_addr, kOkay};
        case csr::kInsnCount: return {insn_count, kOkay};
        case csr::kUnitState: return {in.unit_state, kOkay};
        default: break;
    }
    if (is_cfg(a)) return {cfg_value(a), kOkay};
    if (is_counter(a)) {
        const uint64_t c = in.counters[(a - csr::kCycles) / 8];
        return {static_cast<uint32_t>((a - csr::kCycles) % 8 ? c >> 32 : c), kOkay};
    }
    return {0, kSlverr};
}

bool writable(uint32_t a) { return a == csr::kCtrl || a == csr::kInsnAddr || a == csr::kInsnCount; }

struct Write {
    uint32_t addr, data, strb;
};

struct Knobs {
    double aw_delay = 0.5, w_delay = 0.5, ar_delay = 0.5;  // chance a valid waits a cycle
    double bready_stall = 0.4, rready_stall = 0.4;
    double input_change = 0.2;
};

class Bench {
public:
    Bench(const Knobs& k, uint32_t seed)
        : k_(k), rng_(seed), aw_d_(seed + 1, k.aw_delay), w_d_(seed + 2, k.w_delay),
          ar_d_(seed + 3, k.ar_delay), b_st_(seed + 4, k.bready_stall),
          r_st_(seed + 5, k.rready_stall), chg_(seed + 6, k.input_change) {
        drive_inputs();
        reset(m);
    }

    Vaccel_axil_csr m;
    Inputs in;
    uint32_t insn_addr = 0, insn_count = 0;  // model of the RW registers
    int starts = 0, expected_starts = 0, writes_done = 0, reads_done = 0;
    int slverr_reads = 0, slverr_writes = 0;
    uint64_t now = 0;

    void write(const Write& w) { aw_q_.push_back(w), w_q_.push_back(w), b_q_.push_back(w); }
    void read(uint32_t a) { ar_q_.push_back(a); }
    bool idle() const { return aw_q_.empty() && w_q_.empty() && b_q_.empty() && ar_q_.empty() && r_q_.empty(); }

    void step() {
        // Master side: a valid, once raised, stays with its payload until ready.
        aw_on_ = !aw_q_.empty() && (aw_on_ || !aw_d_());
        w_on_ = !w_q_.empty() && (w_on_ || !w_d_());
        ar_on_ = !ar_q_.empty() && (ar_on_ || !ar_d_());
        m.s_axil_awvalid = aw_on_;
        m.s_axil_awaddr = aw_on_ ? aw_q_.front().addr : rng_() & 0xfff;
        m.s_axil_wvalid = w_on_;
        m.s_axil_wdata = w_on_ ? w_q_.front().data : rng_();
        m.s_axil_wstrb = w_on_ ? w_q_.front().strb : rng_() & 0xf;
        m.s_axil_arvalid = ar_on_;
        m.s_axil_araddr = ar_on_ ? ar_q_.front() : rng_() & 0xfff;
        m.s_axil_bready = !b_st_();
        m.s_axil_rready = !r_st_();
        m.clk_i = 0;
        m.eval();
        check_slave_stable();

        if (m.start_o) {
            ++starts;
            EXPECT_FALSE(prev_start_) << "start_o longer than one cycle";
        }
        prev_start_ = m.start_o;
        if (m.s_axil_awvalid && m.s_axil_awready) aw_q_.pop_front(), aw_on_ = false, ++aw_sent_;
        if (m.s_axil_wvalid && m.s_axil_wready) w_q_.pop_front(), w_on_ = false, ++w_sent_;
        if (m.s_axil_bvalid && m.s_axil_bready) on_b();
        if (m.s_axil_rvalid && m.s_axil_rready) on_r();
        if (m.s_axil_arvalid && m.s_axil_arready) {
            // The value of the register in the AR cycle.
            r_q_.push_back(expected_read(ar_q_.front(), in, m.insn_addr_o, m.insn_count_o));
            ar_q_.pop_front(), ar_on_ = false;
        }
        m.clk_i = 1;
        m.eval();
        ++now;
        if (chg_()) change_inputs();
        drive_inputs();
    }

    template <typename Pred>
    bool run_until(Pred pred, uint64_t limit = 200000) {
        for (uint64_t i = 0; i < limit && !pred(); ++i) step();
        return pred();
    }

private:
    void on_b() {
        ASSERT_FALSE(b_q_.empty()) << "B without a write";
        const Write w = b_q_.front();
        b_q_.pop_front();
        ++b_done_;
        const uint32_t mask = (w.strb & 1 ? 0xffu : 0) | (w.strb & 2 ? 0xff00u : 0) |
                              (w.strb & 4 ? 0xff0000u : 0) | (w.strb & 8 ? 0xff000000u : 0);
        if (w.addr == csr::kInsnAddr) insn_addr = (insn_addr & ~mask) | (w.data & mask);
        if (w.addr == csr::kInsnCount) insn_count = (insn_count & ~mask) | (w.data & mask);
        if (w.addr == csr::kCtrl && (w.strb & 1) && (w.data & 1) && !in.busy) ++expected_starts;
        EXPECT_EQ(m.s_axil_bresp, writable(w.addr) ? kOkay : kSlverr) << "write to " << w.addr;
        slverr_writes += m.s_axil_bresp == kSlverr;
        // The write was performed before its B, the next one not yet.
        EXPECT_EQ(m.insn_addr_o, insn_addr);
        EXPECT_EQ(m.insn_count_o, insn_count);
        EXPECT_EQ(starts, expected_starts) << "start pulse for write to " << w.addr;
        ++writes_done;
    }

    void on_r() {
        ASSERT_FALSE(r_q_.empty()) << "R without a read";
        const Expect e = r_q_.front();
        r_q_.pop_front();
        EXPECT_EQ(m.s_axil_rdata, e.data);
        EXPECT_EQ(m.s_axil_rresp, e.resp);
        slverr_reads += m.s_axil_rresp == kSlverr;
        ++reads_done;
    }

    // Slave side: bvalid/rvalid stay up, with the same response, until ready.
    void check_slave_stable() {
        if (b_pend_) {
            EXPECT_TRUE(m.s_axil_bvalid) << "bvalid dropped";
            EXPECT_EQ(m.s_axil_bresp, b_resp_);
        }
        if (r_pend_) {
            EXPECT_TRUE(m.s_axil_rvalid) << "rvalid dropped";
            EXPECT_EQ(m.s_axil_rdata, r_data_);
            EXPECT_EQ(m.s_axil_rresp, r_resp_);
        }
        b_pend_ = m.s_axil_bvalid && !m.s_axil_bready, b_resp_ = m.s_axil_bresp;
        r_pend_ = m.s_axil_rvalid && !m.s_axil_rready;
        r_data_ = m.s_axil_rdata, r_resp_ = m.s_axil_rresp;
    }

    // busy only changes while no CTRL write is in flight (its AW or W offered, its B
    // not yet taken), so whether a start is taken does not depend on when the slave
    // performs the write.
    void change_inputs() {
        const uint64_t started = std::max(aw_sent_ + aw_on_, w_sent_ + w_on_);
        bool ctrl_in_flight = false;
        for (size_t i = 0; i < b_q_.size() && b_done_ + i < started; ++i)
            ctrl_in_flight |= b_q_[i].addr == csr::kCtrl;
        if (!ctrl_in_flight) in.busy = rng_() & 1;
        in.done = rng_() & 1;
        in.error = rng_() & 0x3f;
        in.unit_state = rng_() & 0xffff;
        for (auto& c : in.counters) {
            if (rng_() % 4 == 0) c = (uint64_t{rng_()} << 32) | rng_();
        }
    }

    void drive_inputs() {
        m.busy_i = in.busy;
        m.done_i = in.done;
        m.error_i = in.error;
        m.unit_state_i = in.unit_state;
        for (uint32_t k = 0; k < kNumCounters; ++k) {
            m.counters_i[2 * k] = static_cast<uint32_t>(in.counters[k]);
            m.counters_i[2 * k + 1] = static_cast<uint32_t>(in.counters[k] >> 32);
        }
    }

    Knobs k_;
    std::mt19937 rng_;
    Stalls aw_d_, w_d_, ar_d_, b_st_, r_st_, chg_;
    std::deque<Write> aw_q_, w_q_, b_q_;
    std::deque<uint32_t> ar_q_;
    std::deque<Expect> r_q_;
    bool aw_on_ = false, w_on_ = false, ar_on_ = false, prev_start_ = false;
    uint64_t aw_sent_ = 0, w_sent_ = 0, b_done_ = 0;  // handshakes so far
    bool b_pend_ = false, r_pend_ = false;
    uint32_t b_resp_ = 0, r_data_ = 0, r_resp_ = 0;
};

// Every address a test may touch: the map, neighbours, unaligned and far addresses.
uint32_t random_addr(std::mt19937& rng) {
    switch (rng() % 6) {
        case 0: return csr::kAll[rng() % csr::kAll.size()].offset;
        case 1: return csr::kCycles + 4 * (rng() % (2 * kNumCounters));
        case 2: return csr::kAll[rng() % csr::kAll.size()].offset + 1 + rng() % 3;  // unaligned
        case 3: return rng() & 0xffc;
        case 4: return rng() & 0xfff;
        default: return csr::kAll[rng() % 6].offset;  // the control registers
    }
}

TEST(AxilCsr, ResetValuesAndIdentity) {
    Bench t({}, 1);
    for (const auto& r : csr::kAll) t.read(r.offset);
    ASSERT_TRUE(t.run_until([&] { return t.idle(); }));
    EXPECT_EQ(t.reads_done, static_cast<int>(csr::kAll.size()));
    EXPECT_EQ(t.slverr_reads, 0);
    EXPECT_EQ(t.m.insn_addr_o, 0u);
    EXPECT_EQ(t.m.insn_count_o, 0u);
    EXPECT_EQ(t.starts, 0);
}

TEST(AxilCsr, AwAndWInEitherOrder) {
    // AW long before W, W long before AW, and both together, each with its B.
    Knobs k;
    k.aw_delay = k.w_delay = 0.0;
    Bench t(k, 2);
    t.write({csr::kInsnAddr, 0x1000, 0xf});
    for (int i = 0; i < 3; ++i) t.step();
    t.write({csr::kInsnCount, 7, 0xf});
    t.write({csr::kInsnAddr, 0xabcd1234, 0x5});  // bytes 0 and 2 only
    ASSERT_TRUE(t.run_until([&] { return t.idle(); }));
    EXPECT_EQ(t.m.insn_addr_o, 0x00cd1034u);  // byte 1 kept from 0x1000
    EXPECT_EQ(t.m.insn_count_o, 7u);

    Knobs slow_w;
    slow_w.w_delay = 0.97, slow_w.aw_delay = 0.0;
    Bench u(slow_w, 3);
    for (uint32_t i = 0; i < 20; ++i) u.write({csr::kInsnCount, i, 0xf});
    ASSERT_TRUE(u.run_until([&] { return u.idle(); }));
    EXPECT_EQ(u.m.insn_count_o, 19u);

    Knobs slow_aw;
    slow_aw.aw_delay = 0.97, slow_aw.w_delay = 0.0;
    Bench v(slow_aw, 4);
    for (uint32_t i = 0; i < 20; ++i) v.write({csr::kInsnAddr, 100 + i, 0xf});
    ASSERT_TRUE(v.run_until([&] { return v.idle(); }));
    EXPECT_EQ(v.m.insn_addr_o, 119u);
    EXPECT_EQ(v.writes_done, 20);
}

TEST(AxilCsr, StartPulsesOnlyWhenIdle) {
    Knobs k;
    k.input_change = 0.0;  // busy stays as set
    Bench t(k, 5);
    t.write({csr::kCtrl, 1, 0x1});
    ASSERT_TRUE(t.run_until([&] { return t.idle(); }));
    EXPECT_EQ(t.starts, 1);
    t.in.busy = true;
    t.write({csr::kCtrl, 1, 0xf});
    ASSERT_TRUE(t.run_until([&] { return t.idle(); }));
    EXPECT_EQ(t.starts, 1) << "start while busy must be ignored";
    t.in.busy = false;
    t.write({csr::kCtrl, 1, 0xe});  // byte 0 not written
    t.write({csr::kCtrl, 2, 0xf});  // bit 0 clear
    t.write({csr::kCtrl, 3, 0xf});
    ASSERT_TRUE(t.run_until([&] { return t.idle(); }));
    EXPECT_EQ(t.starts, 2);
    EXPECT_EQ(t.starts, t.expected_starts);
}

TEST(AxilCsr, RandomTrafficMatchesModel) {
    for (uint32_t seed = 10; seed < 14; ++seed) {
        Bench t({}, seed);
        std::mt19937 rng(seed);
        int reads = 0, writes = 0;
        for (int i = 0; i < 3000; ++i) {
            if (rng() % 2) {
                t.read(random_addr(rng));
                ++reads;
            } else {
                t.write({random_addr(rng), static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng() % 16)});
                ++writes;
            }
            const int steps = static_cast<int>(rng() % 3);
            for (int s = 0; s < steps; ++s) t.step();
        }
        ASSERT_TRUE(t.run_until([&] { return t.idle(); })) << "seed " << seed;
        EXPECT_EQ(t.reads_done, reads);
        EXPECT_EQ(t.writes_done, writes);
        EXPECT_EQ(t.starts, t.expected_starts);
        EXPECT_GT(t.slverr_reads, 0);
        EXPECT_GT(t.slverr_writes, 0);
        EXPECT_GT(t.expected_starts, 0);
    }
}

}  // namespace
}  // namespace accel::bench
