// accel_axi_read_arbiter: two AXI read masters (the bench's port models, AXI-compliant: a
// request is held until accepted) and an AXI read slave with random ARREADY, random
// latency, random RVALID gaps and responses of the two IDs returned in any order
// (interleaved per burst, or per beat), against random RREADY stalls on both ports.
// Checks: ARID = port, the master-side AR payload is stable while waiting for ARREADY,
// every port gets exactly its bursts back, in order, beat for beat (the arbiter routes
// R's valid and ready; the beat's data, resp and last reach both ports from the slave),
// ready/valid routing on R; round-robin fairness under contention; no bubble when one
// port streams requests alone.
#include <gtest/gtest.h>

#include <array>
#include <deque>
#include <vector>

#include "Vaccel_axi_read_arbiter.h"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

using M = Vaccel_axi_read_arbiter;

uint64_t beat_data(uint32_t addr, unsigned beat) {
    uint64_t z = (uint64_t{addr} << 8 | beat) + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

bool bit(uint32_t v, int i) { return (v >> i) & 1u; }

// `fields` with the `width`-bit field of port `p` (port 1 above port 0) set to `v`.
template <typename T>
T with_port_field(T fields, int p, unsigned width, uint64_t v) {
    const T mask = static_cast<T>(((uint64_t{1} << width) - 1) << (width * p));
    return static_cast<T>((fields & ~mask) | ((static_cast<T>(v) << (width * p)) & mask));
}

struct Req {
    uint32_t addr;
    uint8_t len;
    uint8_t resp;  // what the slave will answer on every beat
};

struct Port {
    std::deque<Req> to_issue;     // not yet accepted
    bool valid = false;           // request shown
    std::deque<Req> outstanding;  // accepted, data expected in order
    unsigned beat = 0;
    Stalls gap, r_stall;
    int beats = 0, bursts = 0;
    Port(uint32_t seed, double p_gap, double p_rstall) : gap(seed, p_gap), r_stall(seed + 1, p_rstall) {}
};

struct SlaveBurst {
    Req req;
    uint64_t due;
};

struct Options {
    int requests = 300;           // per port
    double p_gap = 0.5;           // a port does not raise a new request this cycle
    double p_rstall = 0.3;        // a port's RREADY is low
    double p_arstall = 0.4;       // ARREADY low
    double p_rgap = 0.3;          // no R beat offered
    bool interleave_beats = false;  // switch IDs between beats, not only between bursts
    int max_latency = 20;
};

class ArbBench {
public:
    ArbBench(uint32_t seed, const Options& o)
        : o_(o), rng_(seed), ports_{Port(seed + 10, o.p_gap, o.p_rstall), Port(seed + 20, o.p_gap, o.p_rstall)},
          ar_stall_(seed + 30, o.p_arstall), r_gap_(seed + 40, o.p_rgap) {
        std::uniform_int_distribution<int> len(0, 15), resp(0, 9);
        for (int p = 0; p < 2; ++p) {
            for (int i = 0; i < o.requests; ++i) {
                const int r = resp(rng_);
                ports_[p].to_issue.push_back(
                    {static_cast<uint32_t>(rng_()) & ~7u, static_cast<uint8_t>(len(rng_)),
                     static_cast<uint8_t>(r == 0 ? 2 : r == 1 ? 3 : 0)});
            }
        }
        drive_idle();
        reset(m_);
    }

    void drive_idle() {
        m_.s_ar_valid_i = 0;
        m_.s_r_ready_i = 0;
        m_.m_arready_i = 0;
        m_.m_rvalid_i = 0;
    }

    bool done() const {
        for (const Port& p : ports_) {
            if (!p.to_issue.empty() || !p.outstanding.empty()) return false;
        }
        return true;
    }

    // The slave's next R beat: pick an ID whose oldest burst is due.
    void offer_beat() {
        if (beat_offered_) return;
        if (r_gap_()) return;
        std::vector<int> ids;
        for (int id = 0; id < 2; ++id) {
            if (!slave_[id].empty() && slave_[id].front().due <= now_) ids.push_back(id);
        }
        if (ids.empty()) return;
        int id = ids[rng_() % ids.size()];
        if (!o_.interleave_beats && cur_id_ >= 0) id = cur_id_;  // finish the burst first
        if (slave_[id].empty() || slave_[id].front().due > now_) return;
        const Req& r = slave_[id].front().req;
        beat_offered_ = true;
        m_.m_rvalid_i = 1;
        m_.m_rid_i = id;
        r_data_ = beat_data(r.addr, slave_beat_[id]);
        r_resp_ = r.resp;
        r_last_ = slave_beat_[id] == r.len;
    }

    void cycle() {
        // ports raise requests and choose RREADY
        for (int p = 0; p < 2; ++p) {
            Port& pt = ports_[p];
            if (!pt.valid && !pt.to_issue.empty() && !pt.gap()) {
                pt.valid = true;
                shown_since_[p] = now_;
            }
        }
        m_.s_ar_valid_i = ports_[0].valid | ports_[1].valid << 1;
        for (int p = 0; p < 2; ++p) {
            if (!ports_[p].valid) continue;
            const Req& r = ports_[p].to_issue.front();
            m_.s_ar_addr_i = with_port_field(m_.s_ar_addr_i, p, 32, r.addr);
            m_.s_ar_len_i = with_port_field(m_.s_ar_len_i, p, 8, r.len);
        }
        m_.s_r_ready_i = !ports_[0].r_stall() | !ports_[1].r_stall() << 1;
        m_.m_arready_i = !ar_stall_();
        offer_beat();
        m_.eval();

        // AR: stability, identity and handshakes
        if (ar_waiting_) {
            ASSERT_TRUE(m_.m_arvalid_o) << "ARVALID dropped before ARREADY, cycle " << now_;
            ASSERT_EQ(m_.m_arid_o, held_id_) << "ARID changed while waiting, cycle " << now_;
            ASSERT_EQ(m_.m_araddr_o, held_addr_) << "ARADDR changed while waiting, cycle " << now_;
            ASSERT_EQ(m_.m_arlen_o, held_len_) << "ARLEN changed while waiting, cycle " << now_;
        }
        const bool s_hs[2] = {bit(m_.s_ar_valid_i & m_.s_ar_ready_o, 0),
                              bit(m_.s_ar_valid_i & m_.s_ar_ready_o, 1)};
        ASSERT_FALSE(s_hs[0] && s_hs[1]) << "both ports accepted, cycle " << now_;
        const bool m_hs = m_.m_arvalid_o && m_.m_arready_i;
        ASSERT_EQ(m_hs, s_hs[0] || s_hs[1]) << "cycle " << now_;
        if (m_.m_arvalid_o) {
            const int id = m_.m_arid_o;
            ASSERT_TRUE(ports_[id].valid) << "ARVALID for a port that asks nothing, cycle " << now_;
            ASSERT_EQ(m_.m_araddr_o, ports_[id].to_issue.front().addr);
            ASSERT_EQ(m_.m_arlen_o, ports_[id].to_issue.front().len);
        } else {
            ASSERT_FALSE(ports_[0].valid || ports_[1].valid) << "a request is not shown, cycle " << now_;
        }
        // A request the arbiter holds back although ARREADY is high and the other port
        // takes no grant: a stall of the arbiter's own making.
        for (int p = 0; p < 2; ++p) {
            if (ports_[p].valid && !s_hs[p] && !s_hs[1 - p] && m_.m_arready_i) ++own_stalls_;
        }
        ar_waiting_ = m_.m_arvalid_o && !m_.m_arready_i;
        held_id_ = m_.m_arid_o, held_addr_ = m_.m_araddr_o, held_len_ = m_.m_arlen_o;
        if (m_hs) {
            const int id = m_.m_arid_o;
            Port& pt = ports_[id];
            const Req r = pt.to_issue.front();
            pt.to_issue.pop_front();
            pt.valid = false;
            pt.outstanding.push_back(r);
            std::uniform_int_distribution<int> lat(1, o_.max_latency);
            slave_[id].push_back({r, now_ + lat(rng_)});
            grants_.push_back(id);
            grant_cycles_.push_back(now_);
            immediate_grants_ += shown_since_[id] == now_;
        }

        // R: routing, and the beat against what its port expects
        if (m_.m_rvalid_i) {
            const int id = m_.m_rid_i;
            ASSERT_EQ(bit(m_.s_r_valid_o, 0), id == 0);
            ASSERT_EQ(bit(m_.s_r_valid_o, 1), id == 1);
            ASSERT_EQ(bool(m_.m_rready_o), bit(m_.s_r_ready_i, id));
            const uint64_t data = r_data_;
            const unsigned resp = r_resp_;
            const bool last = r_last_;
            if (m_.m_rready_o) {
                Port& pt = ports_[id];
                ASSERT_FALSE(pt.outstanding.empty()) << "beat for port " << id << " that asked nothing";
                const Req& r = pt.outstanding.front();
                ASSERT_EQ(data, beat_data(r.addr, pt.beat)) << "port " << id << " beat " << pt.beat;
                ASSERT_EQ(resp, r.resp);
                ASSERT_EQ(last, pt.beat == r.len);
                ++pt.beats;
                beat_offered_ = false;
                m_.m_rvalid_i = 0;
                if (pt.beat++ == r.len) {
                    pt.beat = 0;
                    pt.outstanding.pop_front();
                    ++pt.bursts;
                    slave_[id].pop_front();
                    slave_beat_[id] = 0;
                    cur_id_ = -1;
                } else {
                    ++slave_beat_[id];
                    cur_id_ = id;
                }
            }
        } else {
            ASSERT_FALSE(m_.s_r_valid_o);
        }
        tick(m_);
        ++now_;
    }

    void run(uint64_t timeout = 200000) {
        while (!done() && now_ < timeout && !::testing::Test::HasFatalFailure()) cycle();
        ASSERT_TRUE(done()) << "timeout";
        for (const Port& p : ports_) EXPECT_EQ(p.bursts, o_.requests);
    }

    const std::vector<int>& grants() const { return grants_; }
    // Cycles a port waited with ARREADY high and no grant to the other port.
    uint64_t own_stalls() const { return own_stalls_; }
    // Grants in the same cycle the port first showed its request.
    uint64_t immediate_grants() const { return immediate_grants_; }
    uint64_t cycles() const { return now_; }
    const std::vector<uint64_t>& grant_cycles() const { return grant_cycles_; }

private:
    Options o_;
    M m_;
    std::mt19937 rng_;
    std::array<Port, 2> ports_;
    Stalls ar_stall_, r_gap_;
    std::array<std::deque<SlaveBurst>, 2> slave_;
    std::array<unsigned, 2> slave_beat_{0, 0};
    int cur_id_ = -1;
    bool beat_offered_ = false;
    uint64_t r_data_ = 0;  // the beat on R, which both ports see
    unsigned r_resp_ = 0;
    bool r_last_ = false;
    bool ar_waiting_ = false;
    unsigned held_id_ = 0, held_addr_ = 0, held_len_ = 0;
    std::vector<int> grants_;
    std::vector<uint64_t> grant_cycles_;
    uint64_t now_ = 0;
    uint64_t own_stalls_ = 0, immediate_grants_ = 0;
    std::array<uint64_t, 2> shown_since_{0, 0};  // the cycle each port's request went up
};

TEST(AxiReadArbiter, RandomTrafficBurstInterleaving) {
    ArbBench b(1, Options{});
    b.run();
}

TEST(AxiReadArbiter, RandomTrafficBeatInterleaving) {
    Options o;
    o.interleave_beats = true;
    ArbBench b(2, o);
    b.run();
}

// Requests now and then, ARREADY always high: the arbiter never holds a request back
// but for the other port's grant in the same cycle, and most go through the cycle they
// are shown.
TEST(AxiReadArbiter, LightTrafficNoStalls) {
    Options o;
    o.p_gap = 0.9, o.p_rstall = 0, o.p_arstall = 0, o.p_rgap = 0;
    ArbBench b(3, o);
    b.run();
    EXPECT_EQ(b.own_stalls(), 0u);
    EXPECT_GT(b.immediate_grants(), 2u * o.requests * 9 / 10);
}

// Both ports always asking (each raises its next request the cycle after a grant):
// grants alternate strictly, whatever ARREADY does.
TEST(AxiReadArbiter, RoundRobinUnderContention) {
    Options o;
    o.p_gap = 0, o.p_arstall = 0.5;
    ArbBench b(4, o);
    b.run();
    const auto& g = b.grants();
    ASSERT_EQ(g.size(), 2u * o.requests);
    for (std::size_t i = 1; i < g.size(); ++i) ASSERT_NE(g[i], g[i - 1]) << "grant " << i;
}

// ARREADY always high and requests always there: one grant every cycle, no bubble.
TEST(AxiReadArbiter, OneGrantPerCycle) {
    Options o;
    o.requests = 200, o.p_gap = 0, o.p_arstall = 0;
    ArbBench b(5, o);
    b.run();
    const auto& c = b.grant_cycles();
    ASSERT_EQ(c.size(), 400u);
    EXPECT_EQ(c.back() - c.front() + 1, 400u);
}

}  // namespace
}  // namespace accel::bench
