// The AXI4 DRAM model (verilator/dram_model.hpp) against a small C++ master: latency,
// outstanding limits, the shared data path, SLVERR, protocol violations, ordering and
// random back-pressure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "base/error.hpp"
#include "dram_model.hpp"

namespace accel::sim {
namespace {

struct RBeat {
    uint32_t id;
    uint8_t resp;
    bool last;
    std::vector<uint8_t> data;
    uint64_t cycle;
};

struct ReadReq {
    uint32_t addr;
    unsigned beats;
    uint32_t id;
};

struct WriteReq {
    uint32_t addr;
    std::vector<uint8_t> data;  // whole beats
};

// An AXI-legal master: a valid, once raised, holds with its payload until the
// handshake; every valid and ready can be stalled at random (fixed seed). It also checks
// the slave side of AXI -- an offered R or B stays until taken, unchanged -- and the
// shared data path: a cycle offers a new R beat or takes a W beat, never both.
class TestMaster {
public:
    TestMaster(DramModel& dram, uint32_t seed = 1, double stall = 0.0)
        : dram_(dram), beat_(dram.beat_bytes()), rng_(seed), stall_(stall) {}

    void read(uint32_t addr, unsigned beats, uint32_t id = 0) { reads_.push_back({addr, beats, id}); }
    void write(uint32_t addr, std::vector<uint8_t> data) { writes_.push_back({addr, std::move(data)}); }

    bool hold_rready = false;  // keep rready low (a master that stopped taking data)
    bool hold_bready = false;

    // Results.
    std::vector<uint64_t> ar_cycles, aw_cycles;  // per burst, in issue order
    std::vector<uint64_t> w_first, w_last;       // per write burst: cycles of first/last W
    std::vector<RBeat> rbeats;
    std::vector<uint8_t> bresps;
    std::vector<uint64_t> b_cycles;
    unsigned max_reads_in_flight = 0, max_writes_in_flight = 0;
    uint64_t r_and_w_cycles = 0;  // a held R beat and a W beat handed over together
    uint64_t cycle = 0;

    bool done() const {
        return ar_next_ == reads_.size() && reads_done_ == reads_.size() &&
               aw_next_ == writes_.size() && bresps.size() == writes_.size();
    }

    void step() {
        const SlaveOut s = dram_.outputs();
        check_slave(s);
        MasterOut m = drive();
        const bool ar_hs = m.arvalid && s.arready, aw_hs = m.awvalid && s.awready;
        const bool r_hs = s.rvalid && m.rready, w_hs = s.wready && m.wvalid;
        const bool b_hs = s.bvalid && m.bready;
        const bool new_r = s.rvalid && !prev_r_offered_;  // a beat that used the data path now
        EXPECT_FALSE(new_r && w_hs) << "new R beat and a W beat in one cycle " << cycle;
        if (r_hs && w_hs) ++r_and_w_cycles;
        if (r_hs) {  // rdata is valid until clock_edge
            rbeats.push_back({s.rid, s.rresp, s.rlast, {s.rdata, s.rdata + beat_}, cycle});
        }
        dram_.clock_edge(m);
        observe(s, ar_hs, aw_hs, r_hs, w_hs, b_hs);
        prev_ = s;
        prev_r_offered_ = s.rvalid && !r_hs;
        prev_b_offered_ = s.bvalid && !b_hs;
        if (!prev_r_offered_ && s.rvalid) prev_rdata_.clear();
        if (prev_r_offered_) prev_rdata_.assign(s.rdata, s.rdata + beat_);
        ++cycle;
    }

    uint64_t run(uint64_t max_cycles = 1000000) {
        while (!done() && cycle < max_cycles) step();
        EXPECT_TRUE(done()) << "master not done after " << cycle << " cycles";
        return cycle;
    }

private:
    bool stall() { return stall_ > 0 && std::bernoulli_distribution(stall_)(rng_); }

    MasterOut drive() {
        if (!ar_on_ && ar_next_ < reads_.size() && !stall()) ar_on_ = true;
        if (!aw_on_ && aw_next_ < writes_.size() && !stall()) aw_on_ = true;
        // W data may be offered before its AW was accepted (AXI allows it).
        if (!w_on_ && w_burst_ < writes_.size() && !stall()) w_on_ = true;
        MasterOut m;
        if (ar_on_) {
            const ReadReq& r = reads_[ar_next_];
            m.arvalid = true;
            m.araddr = r.addr;
            m.arlen = static_cast<uint8_t>(r.beats - 1);
            m.arid = r.id;
        }
        if (aw_on_) {
            const WriteReq& w = writes_[aw_next_];
            m.awvalid = true;
            m.awaddr = w.addr;
            m.awlen = static_cast<uint8_t>(w.data.size() / beat_ - 1);
        }
        if (w_on_) {
            const WriteReq& w = writes_[w_burst_];
            m.wvalid = true;
            m.wdata = w.data.data() + std::size_t{w_beat_} * beat_;
            m.wlast = (w_beat_ + 1) * beat_ == w.data.size();
        }
        m.rready = !hold_rready && !stall();
        m.bready = !hold_bready && !stall();
        return m;
    }

    void observe(const SlaveOut& s, bool ar_hs, bool aw_hs, bool r_hs, bool w_hs, bool b_hs) {
        if (ar_hs) {
            ar_cycles.push_back(cycle);
            ++ar_next_;
            ar_on_ = false;
        }
        if (aw_hs) {
            aw_cycles.push_back(cycle);
            ++aw_next_;
            aw_on_ = false;
        }
        if (r_hs && s.rlast) ++reads_done_;
        if (w_hs) {
            if (w_beat_ == 0) w_first.push_back(cycle);
            EXPECT_LT(w_burst_, aw_next_ - (aw_hs ? 1 : 0)) << "W taken before its AW, cycle " << cycle;
            w_on_ = false;
            if (++w_beat_ * beat_ == writes_[w_burst_].data.size()) {
                w_last.push_back(cycle);
                ++w_burst_;
                w_beat_ = 0;
            }
        }
        if (b_hs) {
            bresps.push_back(s.bresp);
            b_cycles.push_back(cycle);
        }
        max_reads_in_flight = std::max(max_reads_in_flight, unsigned(ar_next_ - reads_done_));
        max_writes_in_flight = std::max(max_writes_in_flight, unsigned(aw_next_ - bresps.size()));
    }

    void check_slave(const SlaveOut& s) {
        EXPECT_FALSE(s.rvalid && !prev_r_offered_ && s.wready) << "new R beat with wready, cycle " << cycle;
        ASSERT_NE(s.rdata, nullptr);
        if (prev_r_offered_) {
            EXPECT_TRUE(s.rvalid) << "rvalid dropped before rready, cycle " << cycle;
            EXPECT_EQ(s.rid, prev_.rid);
            EXPECT_EQ(s.rlast, prev_.rlast);
            EXPECT_EQ(s.rresp, prev_.rresp);
            EXPECT_TRUE(std::equal(prev_rdata_.begin(), prev_rdata_.end(), s.rdata));
        }
        if (prev_b_offered_) {
            EXPECT_TRUE(s.bvalid) << "bvalid dropped before bready, cycle " << cycle;
            EXPECT_EQ(s.bresp, prev_.bresp);
        }
    }

    DramModel& dram_;
    unsigned beat_;
    std::mt19937 rng_;
    double stall_;
    std::vector<ReadReq> reads_;
    std::vector<WriteReq> writes_;
    std::size_t ar_next_ = 0, aw_next_ = 0, reads_done_ = 0, w_burst_ = 0;
    unsigned w_beat_ = 0;
    bool ar_on_ = false, aw_on_ = false, w_on_ = false;
    SlaveOut prev_;
    bool prev_r_offered_ = false, prev_b_offered_ = false;
    std::vector<uint8_t> prev_rdata_;
};

std::vector<uint8_t> random_bytes(std::size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> v(n);
    for (auto& b : v) b = static_cast<uint8_t>(rng());
    return v;
}

std::vector<uint8_t> slice(const std::vector<uint8_t>& v, std::size_t at, std::size_t n) {
    return {v.begin() + static_cast<std::ptrdiff_t>(at), v.begin() + static_cast<std::ptrdiff_t>(at + n)};
}

TEST(DramModel, IdleOutputs) {
    DramModel d(4096, 8, 10, 4);
    const SlaveOut& s = d.outputs();
    EXPECT_TRUE(s.arready);
    EXPECT_TRUE(s.awready);
    EXPECT_FALSE(s.rvalid);
    EXPECT_FALSE(s.wready);
    EXPECT_FALSE(s.bvalid);
    for (int i = 0; i < 100; ++i) d.clock_edge(MasterOut{});
    EXPECT_EQ(d.cycles(), 100u);
    EXPECT_FALSE(d.busy());
    EXPECT_TRUE(d.outputs().arready);
}

TEST(DramModel, ReadLatencyIsExactAndBeatsAreBackToBack) {
    for (unsigned latency : {1u, 2u, 7u, 64u}) {
        DramModel d(8192, 8, latency, 4);
        const auto mem = random_bytes(8192, 3);
        d.write(0, mem);
        TestMaster m(d);
        m.read(256, 4);
        m.run();
        ASSERT_EQ(m.rbeats.size(), 4u);
        EXPECT_EQ(m.rbeats[0].cycle - m.ar_cycles[0], latency) << "latency " << latency;
        for (unsigned i = 0; i < 4; ++i) {
            EXPECT_EQ(m.rbeats[i].cycle, m.rbeats[0].cycle + i);
            EXPECT_EQ(m.rbeats[i].data, slice(mem, 256 + 8 * i, 8));
            EXPECT_EQ(m.rbeats[i].last, i == 3);
            EXPECT_EQ(m.rbeats[i].resp, DramModel::kRespOkay);
        }
        EXPECT_EQ(d.protocol_violations(), 0u) << d.first_violation();
    }
}

TEST(DramModel, ZeroLatencyBehavesAsOne) {
    DramModel d(4096, 4, 0, 2);
    TestMaster m(d);
    m.read(0, 1);
    m.run();
    EXPECT_EQ(m.rbeats.at(0).cycle - m.ar_cycles.at(0), 1u);
    EXPECT_EQ(d.latency_cycles(), 0u);
}

TEST(DramModel, WriteResponseLatencyIsExact) {
    for (unsigned latency : {1u, 5u, 64u}) {
        DramModel d(8192, 8, latency, 4);
        TestMaster m(d);
        m.write(512, random_bytes(32, 4));
        m.run();
        ASSERT_EQ(m.b_cycles.size(), 1u);
        EXPECT_EQ(m.w_first.at(0), m.aw_cycles.at(0) + 1);  // W only after its AW
        EXPECT_EQ(m.w_last.at(0), m.w_first.at(0) + 3);
        EXPECT_EQ(m.b_cycles[0] - m.w_last[0], latency);
        EXPECT_EQ(m.bresps[0], DramModel::kRespOkay);
        EXPECT_EQ(d.read(512, 32), random_bytes(32, 4));
    }
}

TEST(DramModel, MaxOutstandingReadsRespected) {
    DramModel d(65536, 8, 20, 3);
    TestMaster m(d);
    for (unsigned i = 0; i < 10; ++i) m.read(i * 128, 16, i % 2);
    m.hold_rready = true;
    for (int i = 0; i < 200; ++i) m.step();
    EXPECT_EQ(m.ar_cycles.size(), 3u);  // the slave stops accepting at max_outstanding
    EXPECT_FALSE(d.outputs().arready);
    EXPECT_TRUE(d.outputs().rvalid);    // and holds its first beat
    m.hold_rready = false;
    m.run();
    EXPECT_EQ(m.rbeats.size(), 160u);
    EXPECT_EQ(m.max_reads_in_flight, 3u);
    EXPECT_EQ(d.read_bursts(), 10u);
    EXPECT_FALSE(d.busy());
}

TEST(DramModel, MaxOutstandingWritesRespected) {
    DramModel d(65536, 8, 20, 2);
    TestMaster m(d);
    for (unsigned i = 0; i < 6; ++i) m.write(i * 64, random_bytes(64, i));
    m.hold_bready = true;
    for (int i = 0; i < 200; ++i) m.step();
    EXPECT_EQ(m.aw_cycles.size(), 2u);
    EXPECT_EQ(m.w_last.size(), 2u);  // their data arrived; only B is held back
    EXPECT_FALSE(d.outputs().awready);
    EXPECT_TRUE(d.busy());
    m.hold_bready = false;
    m.run();
    EXPECT_EQ(m.max_writes_in_flight, 2u);
    for (unsigned i = 0; i < 6; ++i) EXPECT_EQ(d.read(i * 64, 64), random_bytes(64, i));
}

// 64 bursts of 16 beats in each direction asked for, from a master that never stalls.
uint64_t stream_cycles(bool reads, bool writes, DramModel& d) {
    TestMaster m(d);
    for (unsigned i = 0; i < 64; ++i) {
        if (reads) m.read(i * 128, 16);
        if (writes) m.write(0x10000 + i * 128, random_bytes(128, i));
    }
    const uint64_t cycles = m.run();
    EXPECT_EQ(d.protocol_violations(), 0u) << d.first_violation();
    return cycles;
}

TEST(DramModel, StalledReadDoesNotBlockWrites) {
    // A master whose rready waits for its write to finish (fetch with a full queue while
    // drain writes) must not deadlock: the held R beat leaves the data path free.
    DramModel d(8192, 8, 4, 2);
    d.write(0, random_bytes(64, 1));
    TestMaster m(d);
    m.read(0, 8);
    m.write(4096, random_bytes(64, 2));
    m.hold_rready = true;
    for (int i = 0; i < 100 && m.bresps.empty(); ++i) m.step();
    ASSERT_EQ(m.bresps.size(), 1u);
    EXPECT_TRUE(m.rbeats.empty());
    EXPECT_TRUE(d.outputs().rvalid);
    m.hold_rready = false;
    m.run();
    std::vector<uint8_t> got;
    for (const auto& b : m.rbeats) got.insert(got.end(), b.data.begin(), b.data.end());
    EXPECT_EQ(got, random_bytes(64, 1));
    EXPECT_EQ(d.read(4096, 64), random_bytes(64, 2));
}

TEST(DramModel, HeldReadBeatIsStableWhileItsAddressIsWritten) {
    // The R beat was read out of memory when offered; a later write to the same address
    // does not change it while the master stalls.
    DramModel d(8192, 8, 2, 2);
    d.write(0, std::vector<uint8_t>(8, 0x11));
    TestMaster m(d);
    m.read(0, 1);
    m.hold_rready = true;
    for (int i = 0; i < 100 && !d.outputs().rvalid; ++i) m.step();
    ASSERT_TRUE(d.outputs().rvalid);
    m.write(0, std::vector<uint8_t>(8, 0x22));
    for (int i = 0; i < 100 && m.bresps.empty(); ++i) m.step();
    ASSERT_EQ(m.bresps.size(), 1u);
    m.hold_rready = false;
    m.run();
    EXPECT_EQ(m.rbeats.at(0).data, std::vector<uint8_t>(8, 0x11));
    EXPECT_EQ(d.read(0, 8), std::vector<uint8_t>(8, 0x22));
}

TEST(DramModel, ReadsAndWritesShareTheDataPath) {
    DramModel d(0x20000, 8, 16, 8);
    const uint64_t r = stream_cycles(true, false, d);
    const uint64_t w = stream_cycles(false, true, d);
    d.reset_counters();
    const uint64_t both = stream_cycles(true, true, d);
    // Alone, a stream moves a beat per cycle after the latency.
    EXPECT_LE(r, 1024u + 16 + 8);
    EXPECT_LE(w, 1024u + 16 + 8);
    const double ratio = double(both) / double(std::max(r, w));
    EXPECT_GT(ratio, 1.85);
    EXPECT_LT(ratio, 2.1);
    EXPECT_EQ(d.beats(), 2048u);
    EXPECT_LE(d.beats(), d.cycles());
}

TEST(DramModel, SharingIsFair) {
    DramModel d(0x20000, 8, 16, 8);
    TestMaster m(d);
    for (unsigned i = 0; i < 64; ++i) {
        m.read(i * 128, 16);
        m.write(0x10000 + i * 128, random_bytes(128, i));
    }
    m.run();
    // When both streams run, each gets half: they finish within a burst of each other.
    const uint64_t last_r = m.rbeats.back().cycle, last_w = m.w_last.back();
    EXPECT_LT(std::max(last_r, last_w) - std::min(last_r, last_w), 40u);
}

TEST(DramModel, WriteThenReadRoundTrip) {
    DramModel d(1 << 16, 16, 12, 4);
    const auto data = random_bytes(4096, 7);
    TestMaster w(d);
    for (unsigned i = 0; i < 4096 / 256; ++i) w.write(0x2000 + i * 256, slice(data, i * 256, 256));
    w.run();
    for (uint8_t b : w.bresps) EXPECT_EQ(b, DramModel::kRespOkay);
    TestMaster r(d);
    for (unsigned i = 0; i < 4096 / 64; ++i) r.read(0x2000 + i * 64, 4);
    r.run();
    std::vector<uint8_t> got;
    for (const auto& b : r.rbeats) got.insert(got.end(), b.data.begin(), b.data.end());
    EXPECT_EQ(got, data);
    EXPECT_EQ(d.bytes_written(), 4096u);
    EXPECT_EQ(d.bytes_read(), 4096u);
    EXPECT_EQ(d.write_bursts(), 16u);
    EXPECT_EQ(d.read_bursts(), 64u);
    EXPECT_EQ(d.protocol_violations(), 0u);
}

TEST(DramModel, SlverrBeyondTheEnd) {
    DramModel d(6000, 8, 4, 4);  // not a multiple of 4 KiB
    d.write(5984, std::vector<uint8_t>(16, 0xab));
    TestMaster m(d);
    m.read(5984, 2);   // ends exactly at the end: fine
    m.read(5984, 3);   // one beat past the end
    m.read(6000, 1);   // wholly past the end
    m.write(5992, std::vector<uint8_t>(16, 0x11));  // second beat past the end
    m.run();
    ASSERT_EQ(m.rbeats.size(), 6u);
    for (unsigned i = 0; i < 2; ++i) {
        EXPECT_EQ(m.rbeats[i].resp, DramModel::kRespOkay);
        EXPECT_EQ(m.rbeats[i].data, std::vector<uint8_t>(8, 0xab));
    }
    for (unsigned i = 2; i < 6; ++i) {
        EXPECT_EQ(m.rbeats[i].resp, DramModel::kRespSlverr);
        EXPECT_EQ(m.rbeats[i].data, std::vector<uint8_t>(8, 0));
    }
    EXPECT_TRUE(m.rbeats[4].last);
    EXPECT_TRUE(m.rbeats[5].last);
    ASSERT_EQ(m.bresps.size(), 1u);
    EXPECT_EQ(m.bresps[0], DramModel::kRespSlverr);
    EXPECT_EQ(d.read(5984, 16), std::vector<uint8_t>(16, 0xab));  // write discarded
    EXPECT_EQ(d.error_bursts(), 3u);
    EXPECT_EQ(d.bytes_read(), 16u);
    EXPECT_EQ(d.bytes_written(), 0u);
    EXPECT_EQ(d.protocol_violations(), 0u) << d.first_violation();  // a program error, not an RTL bug
}

TEST(DramModel, SlverrForWrappingAddresses) {
    DramModel d(4096, 8, 4, 4);
    TestMaster m(d);
    m.read(0xfffffff8u, 1);  // last beat below 2^32: just outside the memory
    m.read(0xfffffff8u, 2);  // wraps to 0
    m.write(0xfffffff0u, std::vector<uint8_t>(24, 0x5a));
    m.run();
    ASSERT_EQ(m.rbeats.size(), 3u);
    for (const auto& b : m.rbeats) EXPECT_EQ(b.resp, DramModel::kRespSlverr);
    EXPECT_EQ(m.bresps.at(0), DramModel::kRespSlverr);
    EXPECT_EQ(d.read(0, 8), std::vector<uint8_t>(8, 0));  // nothing wrapped into address 0
    // A burst past 2^32 crosses the 4 KiB boundary at 2^32: an RTL bug as well.
    EXPECT_EQ(d.protocol_violations(), 2u);
}

TEST(DramModel, MisalignedAndFourKiBCrossingAreViolations) {
    DramModel d(1 << 16, 8, 4, 4);
    d.write(0, std::vector<uint8_t>(1 << 16, 0xcc));
    TestMaster m(d);
    m.read(4, 1);               // misaligned
    m.read(4096 - 16, 4);       // crosses 4 KiB
    m.read(4096 - 32, 4);       // ends exactly at the boundary: fine
    m.write(0x2004, std::vector<uint8_t>(8, 1));   // misaligned
    m.write(0x3ff8, std::vector<uint8_t>(16, 1));  // crosses 4 KiB
    m.run();
    EXPECT_EQ(d.protocol_violations(), 4u);
    EXPECT_NE(d.first_violation().find("not a multiple"), std::string::npos) << d.first_violation();
    ASSERT_EQ(m.rbeats.size(), 9u);
    EXPECT_EQ(m.rbeats[0].resp, DramModel::kRespSlverr);
    for (unsigned i = 1; i < 5; ++i) EXPECT_EQ(m.rbeats[i].resp, DramModel::kRespSlverr);
    for (unsigned i = 5; i < 9; ++i) EXPECT_EQ(m.rbeats[i].resp, DramModel::kRespOkay);
    EXPECT_EQ(m.bresps, (std::vector<uint8_t>{2, 2}));
    EXPECT_EQ(d.read(0x3ff8, 16), std::vector<uint8_t>(16, 0xcc));
    d.reset_counters();
    EXPECT_EQ(d.protocol_violations(), 0u);
    EXPECT_TRUE(d.first_violation().empty());
}

TEST(DramModel, MasterHandshakeViolations) {
    DramModel d(4096, 8, 4, 1);
    // Fill the single read slot, then drop a waiting AR.
    MasterOut m;
    m.arvalid = true;
    m.araddr = 0;
    d.clock_edge(m);  // accepted
    m.araddr = 8;
    d.clock_edge(m);  // arready low now: waits
    EXPECT_FALSE(d.outputs().arready);
    m.arvalid = false;
    d.clock_edge(m);
    EXPECT_EQ(d.protocol_violations(), 1u);
    EXPECT_NE(d.first_violation().find("AR dropped"), std::string::npos);

    // wlast on the first beat of a two-beat burst.
    DramModel e(4096, 8, 4, 2);
    const std::vector<uint8_t> beat(8, 7);
    MasterOut w;
    w.awvalid = true;
    w.awlen = 1;
    e.clock_edge(w);
    w.awvalid = false;
    ASSERT_TRUE(e.outputs().wready);
    w.wvalid = true;
    w.wdata = beat.data();
    w.wlast = true;
    e.clock_edge(w);
    EXPECT_EQ(e.protocol_violations(), 1u);
    EXPECT_NE(e.first_violation().find("wlast"), std::string::npos);
}

TEST(DramModel, InOrderResponsesWithMixedIds) {
    DramModel d(1 << 16, 8, 9, 4);
    const auto mem = random_bytes(1 << 16, 11);
    d.write(0, mem);
    TestMaster m(d, 5, 0.3);
    std::vector<ReadReq> reqs;
    std::mt19937 rng(9);
    for (unsigned i = 0; i < 40; ++i) {
        const unsigned beats = 1 + rng() % 16;
        const uint32_t addr = (rng() % 256) * 128;  // 128-byte aligned: never crosses 4 KiB
        const uint32_t id = (i * 7 + 3) % 3;        // ids interleave and repeat
        reqs.push_back({addr, beats, id});
        m.read(addr, beats, id);
    }
    m.run();
    std::size_t k = 0;
    for (const auto& r : reqs) {
        for (unsigned b = 0; b < r.beats; ++b, ++k) {
            ASSERT_LT(k, m.rbeats.size());
            EXPECT_EQ(m.rbeats[k].id, r.id);
            EXPECT_EQ(m.rbeats[k].last, b + 1 == r.beats);
            EXPECT_EQ(m.rbeats[k].data, slice(mem, r.addr + 8 * b, 8));
        }
    }
    EXPECT_EQ(k, m.rbeats.size());
}

TEST(DramModel, RandomStallsLoseNothing) {
    for (uint32_t seed = 1; seed <= 6; ++seed) {
        const double stall = 0.1 + 0.1 * seed;  // 0.2 .. 0.7
        DramModel d(1 << 17, 8, 1 + seed * 5, 1 + seed % 4);
        const auto mem = random_bytes(1 << 16, seed);
        d.write(0, mem);
        TestMaster m(d, seed, stall);
        std::mt19937 rng(seed + 100);
        std::vector<ReadReq> reads;
        std::vector<uint8_t> expect(1 << 16, 0);
        for (unsigned i = 0; i < 60; ++i) {
            const unsigned beats = 1 + rng() % 16;
            const uint32_t addr = (rng() % 512) * 128;
            reads.push_back({addr, beats, i & 1});
            m.read(addr, beats, i & 1);
            // Writes to their own 128-byte slot each, in the upper half of memory.
            const auto data = random_bytes(beats * 8, seed * 1000 + i);
            m.write(0x10000 + i * 128, data);
            std::copy(data.begin(), data.end(), expect.begin() + i * 128);
        }
        m.run();
        std::size_t k = 0;
        for (const auto& r : reads) {
            for (unsigned b = 0; b < r.beats; ++b, ++k) {
                ASSERT_LT(k, m.rbeats.size());
                EXPECT_EQ(m.rbeats[k].data, slice(mem, r.addr + 8 * b, 8)) << "seed " << seed;
                EXPECT_EQ(m.rbeats[k].last, b + 1 == r.beats);
            }
        }
        EXPECT_EQ(k, m.rbeats.size());
        EXPECT_EQ(d.read(0x10000, 1 << 16), expect) << "seed " << seed;
        EXPECT_EQ(m.bresps, std::vector<uint8_t>(60, DramModel::kRespOkay));
        EXPECT_LE(m.max_reads_in_flight, d.max_outstanding());
        EXPECT_LE(m.max_writes_in_flight, d.max_outstanding());
        EXPECT_EQ(d.protocol_violations(), 0u) << d.first_violation();
        EXPECT_FALSE(d.busy());
        EXPECT_EQ(d.cycles(), m.cycle);
    }
}

// Backpressure, stalls and reordering (dram_faults.hpp) under a stalling master: each
// ID's beats in order and intact, writes stored, R and B held stable (check_slave), and
// some beats of ID 1 overtaking earlier bursts of ID 0.
TEST(DramModel, FaultsKeepEachIdInOrderAndLoseNothing) {
    DramModel d(1 << 17, 8, 7, 4);
    d.set_faults(parse_dram_fault_plan(
        "seed=3,backpressure=0.4,stall=0.05,stall-cycles=5-40,reorder=0.5"));
    const auto mem = random_bytes(1 << 16, 21);
    d.write(0, mem);
    TestMaster m(d, 4, 0.2);
    std::mt19937 rng(22);
    std::vector<ReadReq> reads;
    for (unsigned i = 0; i < 60; ++i) {
        const unsigned beats = 1 + rng() % 16;
        const uint32_t addr = (rng() % 512) * 128;
        reads.push_back({addr, beats, static_cast<uint32_t>(rng() % 2)});
        m.read(addr, beats, reads.back().id);
        m.write(0x10000 + i * 128, random_bytes(beats * 8, 300 + i));
    }
    m.run();
    bool overtaken = false;
    for (uint32_t id : {0u, 1u}) {
        std::vector<std::vector<uint8_t>> want, got;
        for (const ReadReq& r : reads) {
            for (unsigned b = 0; r.id == id && b < r.beats; ++b) {
                want.push_back(slice(mem, r.addr + 8 * b, 8));
            }
        }
        for (const RBeat& b : m.rbeats) {
            if (b.id == id) got.push_back(b.data);
        }
        EXPECT_EQ(got, want) << "id " << id;
    }
    for (std::size_t k = 0; k + 1 < m.rbeats.size(); ++k) {
        overtaken = overtaken || (m.rbeats[k].id != m.rbeats[k + 1].id && !m.rbeats[k].last);
    }
    EXPECT_TRUE(overtaken) << "no burst was interleaved with another ID's";
    for (unsigned i = 0; i < 60; ++i) {
        EXPECT_EQ(d.read(0x10000 + i * 128, reads[i].beats * 8), random_bytes(reads[i].beats * 8, 300 + i));
    }
    EXPECT_EQ(m.bresps, std::vector<uint8_t>(60, DramModel::kRespOkay));
    EXPECT_EQ(d.protocol_violations(), 0u) << d.first_violation();
    EXPECT_GT(d.fault_delay_cycles(), 1000u);
    EXPECT_TRUE(d.injected_errors().empty());
}

// Error faults answer the N-th burst of their direction: every beat of a read, the B of a
// write (whose data is discarded), each logged once it is answered.
TEST(DramModel, ErrorFaultsAnswerTheNamedBurst) {
    DramModel d(1 << 16, 8, 3, 2);
    d.set_faults(parse_dram_fault_plan("slverr=read:2,decerr=write:1"));
    TestMaster m(d);
    for (unsigned i = 0; i < 3; ++i) m.read(i * 128, 4, i % 2);
    m.write(0x1000, random_bytes(16, 1));
    m.write(0x2000, random_bytes(16, 2));
    m.run();
    ASSERT_EQ(m.rbeats.size(), 12u);
    for (std::size_t k = 0; k < 12; ++k) {
        EXPECT_EQ(m.rbeats[k].resp, k / 4 == 1 ? DramModel::kRespSlverr : DramModel::kRespOkay);
    }
    EXPECT_EQ(m.bresps, (std::vector<uint8_t>{3, DramModel::kRespOkay}));
    EXPECT_EQ(d.read(0x1000, 16), std::vector<uint8_t>(16, 0));
    EXPECT_EQ(d.read(0x2000, 16), random_bytes(16, 2));
    ASSERT_EQ(d.injected_errors().size(), 2u);
    const bool read_first = !d.injected_errors()[0].write;  // the two directions run at once
    const auto& r = d.injected_errors()[read_first ? 0 : 1];
    const auto& w = d.injected_errors()[read_first ? 1 : 0];
    EXPECT_TRUE(!r.write && r.id == 1 && r.addr == 128 && r.resp == 2);
    EXPECT_TRUE(w.write && w.addr == 0x1000 && w.resp == 3);
    EXPECT_EQ(d.error_bursts(), 0u);  // that counts out-of-range bursts only
}

TEST(DramModel, BusyWhileAnythingIsInFlight) {
    DramModel d(4096, 8, 5, 2);
    TestMaster m(d);
    m.write(0, std::vector<uint8_t>(8, 1));
    m.step();  // AW accepted
    EXPECT_TRUE(d.busy());
    while (m.bresps.empty()) {
        EXPECT_TRUE(d.busy());
        m.step();
    }
    EXPECT_FALSE(d.busy());
    EXPECT_EQ(d.write_beats(), 1u);
}

TEST(DramModel, ResetDropsBurstsInFlight) {
    DramModel d(4096, 8, 50, 2);
    TestMaster m(d);
    m.read(0, 4);
    m.step();
    EXPECT_TRUE(d.busy());
    d.reset();
    EXPECT_FALSE(d.busy());
    EXPECT_TRUE(d.outputs().arready);
    for (int i = 0; i < 100; ++i) d.clock_edge(MasterOut{});
    EXPECT_FALSE(d.outputs().rvalid);
}

TEST(DramModel, HostAccessOutOfRangeThrows) {
    DramModel d(1024, 8, 4, 2);
    std::vector<uint8_t> buf(16);
    EXPECT_NO_THROW(d.write(1008, buf));
    EXPECT_THROW(d.write(1010, buf), accel::Error);
    EXPECT_THROW(d.read(1020, buf), accel::Error);
    EXPECT_THROW(d.read(~uint64_t{0}, buf), accel::Error);
    EXPECT_THROW(d.read(2048, 0), accel::Error);
    EXPECT_NO_THROW(d.read(1024, 0));
    EXPECT_THROW(DramModel(1024, 3, 4, 2), accel::Error);
    EXPECT_THROW(DramModel(1024, 8, 4, 0), accel::Error);
    EXPECT_THROW(DramModel(0, 8, 4, 1), accel::Error);
}

}  // namespace
}  // namespace accel::sim
