// accel_board_memory (1 KiB, 4-byte beats): AXI read bursts, AXI write bursts and host-port
// traffic at the same time, each with random stalls (arvalid/awvalid/wvalid gaps,
// rready/bready back-pressure, host requests), against a byte model; bursts that are
// out of range, misaligned, WRAP or narrow get SLVERR and change nothing.
#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "Vaccel_board_memory.h"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

constexpr uint32_t kMem = 1024, kBeat = 4;
// Regions of phase 2: AXI reads [0,512), AXI writes [512,768), host port [768,1024).
constexpr uint32_t kWriteBase = 512, kHostBase = 768;

struct Burst {
    uint32_t addr = 0;
    uint32_t len = 0;   // beats - 1
    uint32_t size = 2;  // log2(beat)
    uint32_t type = 1;  // INCR
    bool error = false;
    uint32_t id = 0;
    std::vector<uint8_t> strb;   // writes: per beat
    std::vector<uint32_t> data;  // writes: per beat; reads: expected
};

class Bench {
public:
    Bench() : mem_(kMem), rng_(41), ar_gap_(42, 0.5), r_stall_(43, 0.4), aw_gap_(44, 0.5),
              w_gap_(45, 0.4), b_stall_(46, 0.5), host_gap_(47, 0.7) {
        m_.s_axi_arvalid = m_.s_axi_awvalid = m_.s_axi_wvalid = 0;
        m_.s_axi_rready = m_.s_axi_bready = 0;
        m_.host_req_i = 0;
        reset(m_);
    }

    // Host port: one byte access, waiting for the grant.
    uint8_t host(bool we, uint32_t addr, uint8_t data) {
        m_.host_req_i = 1, m_.host_we_i = we, m_.host_addr_i = addr, m_.host_wdata_i = data;
        for (;;) {
            m_.eval();
            const bool gnt = m_.host_gnt_o;
            tick(m_);
            if (gnt) break;
        }
        m_.host_req_i = 0;
        m_.eval();
        EXPECT_EQ(m_.host_rvalid_o, !we);
        const uint8_t got = m_.host_rdata_o;
        if (we) mem_[addr] = data;
        return got;
    }

    Burst read_burst(uint32_t lo, uint32_t hi) {
        Burst b;
        b.len = rng_() % 16;
        const uint32_t beats = b.len + 1, span = (hi - lo) / kBeat;
        b.addr = lo + kBeat * (rng_() % (span - std::min(span, beats) + 1));
        if (beats * kBeat > hi - lo) b.len = (hi - lo) / kBeat - 1;
        make_bad(b);
        for (uint32_t i = 0; i <= b.len; ++i) {
            uint32_t w = 0;
            for (uint32_t k = 0; k < kBeat; ++k) {
                if (!b.error) w |= uint32_t{mem_[b.addr + i * kBeat + k]} << (8 * k);
            }
            b.data.push_back(w);
        }
        return b;
    }

    Burst write_burst() {
        Burst b;
        b.len = rng_() % 16;
        b.addr = kWriteBase + kBeat * (rng_() % ((kHostBase - kWriteBase) / kBeat - b.len));
        make_bad(b);
        for (uint32_t i = 0; i <= b.len; ++i) {
            b.data.push_back(rng_());
            b.strb.push_back(static_cast<uint8_t>(rng_() % 3 ? 0xF : rng_() & 0xF));
        }
        return b;
    }

    // Every few bursts: one the slave must refuse.
    void make_bad(Burst& b) {
        switch (rng_() % 10) {
            case 0: b.addr = kMem - kBeat * (b.len > 0 ? b.len : 1); b.len += 1; break;  // past end
            case 1: b.addr = 0xFFFFFFF0u; b.len = 7; break;  // wraps past 2^32
            case 2: b.addr += 2; break;                      // misaligned
            case 3: b.type = 2; break;                       // WRAP
            case 4: b.size = 1; break;                       // narrow
            default: return;
        }
        b.error = true;
    }

    // Runs until the queued bursts are done; host traffic on [kHostBase, kMem) meanwhile.
    void run(std::deque<Burst> reads, std::deque<Burst> writes, bool host_traffic) {
        std::deque<Burst> r_wait, w_data, b_wait;
        uint32_t r_beat = 0, w_beat = 0;
        for (int cycle = 0; cycle < 200000; ++cycle) {
            if (reads.empty() && writes.empty() && r_wait.empty() && w_data.empty() &&
                b_wait.empty()) {
                return;
            }
            // AR and AW: hold once raised; raise after a random gap.
            if (!m_.s_axi_arvalid && !reads.empty() && !ar_gap_()) {
                Burst& b = reads.front();
                b.id = static_cast<uint32_t>(reads.size() & 1);
                m_.s_axi_arvalid = 1, m_.s_axi_araddr = b.addr, m_.s_axi_arlen = b.len;
                m_.s_axi_arsize = b.size, m_.s_axi_arburst = b.type, m_.s_axi_arid = b.id;
            }
            if (!m_.s_axi_awvalid && !writes.empty() && !aw_gap_()) {
                const Burst& b = writes.front();
                m_.s_axi_awvalid = 1, m_.s_axi_awaddr = b.addr, m_.s_axi_awlen = b.len;
                m_.s_axi_awsize = b.size, m_.s_axi_awburst = b.type;
            }
            if (!m_.s_axi_wvalid && !w_data.empty() && !w_gap_()) {
                const Burst& b = w_data.front();
                m_.s_axi_wvalid = 1, m_.s_axi_wdata = b.data[w_beat];
                m_.s_axi_wstrb = b.strb[w_beat], m_.s_axi_wlast = w_beat == b.len;
            }
            m_.s_axi_rready = !r_stall_();
            m_.s_axi_bready = !b_stall_();
            const bool host_go = host_traffic && !host_gap_();
            const uint32_t host_addr = kHostBase + rng_() % (kMem - kHostBase);
            m_.host_req_i = host_go, m_.host_we_i = rng_() & 1, m_.host_addr_i = host_addr;
            m_.host_wdata_i = rng_();
            m_.eval();

            // Handshakes of this cycle (valids drop after the edge that took them).
            bool ar_hs = false, aw_hs = false, w_hs = false;
            if (m_.host_req_i) ASSERT_TRUE(m_.host_gnt_o) << "the host port has priority";
            if (m_.s_axi_rvalid && m_.s_axi_rready) {
                ASSERT_FALSE(r_wait.empty()) << "R beat without a burst";
                const Burst& b = r_wait.front();
                ASSERT_EQ(m_.s_axi_rresp, b.error ? 2u : 0u) << "read at " << b.addr;
                ASSERT_EQ(m_.s_axi_rid, b.id);
                ASSERT_EQ(m_.s_axi_rdata, b.data[r_beat]) << "read at " << b.addr << " beat " << r_beat;
                ASSERT_EQ(m_.s_axi_rlast, r_beat == b.len);
                if (r_beat++ == b.len) r_wait.pop_front(), r_beat = 0;
            }
            if (m_.s_axi_arvalid && m_.s_axi_arready) {
                r_wait.push_back(reads.front());
                reads.pop_front();
                ar_hs = true;
            }
            if (m_.s_axi_wvalid && m_.s_axi_wready) {
                const Burst& b = w_data.front();
                if (!b.error) {
                    for (uint32_t k = 0; k < kBeat; ++k) {
                        if (b.strb[w_beat] >> k & 1) {
                            mem_[b.addr + w_beat * kBeat + k] =
                                static_cast<uint8_t>(b.data[w_beat] >> (8 * k));
                        }
                    }
                }
                w_hs = true;
                if (w_beat++ == b.len) b_wait.push_back(b), w_data.pop_front(), w_beat = 0;
            }
            if (m_.s_axi_awvalid && m_.s_axi_awready) {
                w_data.push_back(writes.front());
                writes.pop_front();
                aw_hs = true;
            }
            if (m_.s_axi_bvalid && m_.s_axi_bready) {
                ASSERT_FALSE(b_wait.empty()) << "B without a burst";
                ASSERT_EQ(m_.s_axi_bresp, b_wait.front().error ? 2u : 0u);
                b_wait.pop_front();
            }
            const bool host_we = m_.host_we_i;
            const uint8_t host_data = m_.host_wdata_i;
            tick(m_);
            if (ar_hs) m_.s_axi_arvalid = 0;
            if (aw_hs) m_.s_axi_awvalid = 0;
            if (w_hs) m_.s_axi_wvalid = 0;
            m_.eval();
            if (host_go) {  // a granted host read answers the next cycle (old data)
                ASSERT_EQ(m_.host_rvalid_o, !host_we);
                if (!host_we) ASSERT_EQ(m_.host_rdata_o, mem_[host_addr]) << "host read at " << host_addr;
                else mem_[host_addr] = host_data;
            }
            m_.host_req_i = 0;
        }
        FAIL() << "bursts did not finish: " << reads.size() << " reads and " << writes.size()
               << " writes to issue, " << r_wait.size() << " reads, " << w_data.size()
               << " writes and " << b_wait.size() << " responses under way; r_beat " << r_beat
               << " w_beat " << w_beat << " arready " << int(m_.s_axi_arready) << " awready "
               << int(m_.s_axi_awready) << " rvalid " << int(m_.s_axi_rvalid) << " bvalid "
               << int(m_.s_axi_bvalid) << " wvalid " << int(m_.s_axi_wvalid);
    }

    std::vector<uint8_t> mem_;
    std::mt19937 rng_;
    Vaccel_board_memory m_;

private:
    Stalls ar_gap_, r_stall_, aw_gap_, w_gap_, b_stall_, host_gap_;
};

TEST(BoardMemory, ConcurrentBurstsHostTrafficAndErrors) {
    Bench t;
    // Phase 1: fill through the host port and read a sample back.
    for (uint32_t a = 0; a < kMem; ++a) t.host(true, a, static_cast<uint8_t>(t.rng_()));
    for (uint32_t a = 0; a < kMem; a += 37) ASSERT_EQ(t.host(false, a, 0), t.mem_[a]);
    // Phase 2: reads of [0,512), writes of [512,768) and host traffic, all at once.
    std::deque<Burst> reads, writes;
    for (int i = 0; i < 300; ++i) reads.push_back(t.read_burst(0, kWriteBase));
    for (int i = 0; i < 300; ++i) writes.push_back(t.write_burst());
    t.run(reads, writes, true);
    // Phase 3: the written region and the host region, read back over AXI.
    std::deque<Burst> back;
    for (uint32_t a = kWriteBase; a < kMem; a += 16 * kBeat) {
        Burst b;
        b.addr = a, b.len = 15;
        for (uint32_t i = 0; i < 16; ++i) {
            uint32_t w = 0;
            for (uint32_t k = 0; k < kBeat; ++k) w |= uint32_t{t.mem_[a + i * kBeat + k]} << (8 * k);
            b.data.push_back(w);
        }
        back.push_back(b);
    }
    t.run(back, {}, false);
}

}  // namespace
}  // namespace accel::bench
