// accel_load_unit: LOAD instructions against a C++ model of docs/isa.md. The bench plays
// the instruction queue, the token queues, an AXI read slave (latency, a limit of
// bursts in flight, random arready/rvalid stalls, in-order responses, SLVERR past the
// end of its memory) and the four SRAM write ports. It checks every AR burst (INCR
// rules, and that the bursts tile exactly the data segments of the instructions in
// order: a row, or each entry of a row whose entries lie apart), the buffer contents,
// completion and token pulses, status and errors.
//
// tests/rtl/CMakeLists.txt builds this bench twice, for the default and the tiny
// parameter sets; the bench reads them from the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "Vaccel_load_unit.h"
#include "Vaccel_load_unit___024root.h"  // the elaborated parameters (built with --public)
#include "hw/dram_bus.hpp"
#include "hw/isa.hpp"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

// The elaborated parameters (the model is built with --public).
using Root = Vaccel_load_unit___024root;
struct Cfg {
    uint32_t batch = Root::accel_load_unit__DOT__BATCH;
    uint32_t block_in = Root::accel_load_unit__DOT__BLOCK_IN;
    uint32_t block_out = Root::accel_load_unit__DOT__BLOCK_OUT;
    uint32_t beat_bytes = Root::accel_load_unit__DOT__BEAT_BYTES;
    uint32_t inp_depth = Root::accel_load_unit__DOT__INP_DEPTH;
    uint32_t wgt_depth = Root::accel_load_unit__DOT__WGT_DEPTH;
    uint32_t prm_depth = Root::accel_load_unit__DOT__PRM_DEPTH;
    uint32_t max_outstanding = Root::accel_load_unit__DOT__MAX_OUTSTANDING;
    constexpr uint32_t inp_eb() const { return batch * block_in; }
    constexpr uint32_t wgt_eb() const { return block_out * block_in; }
    constexpr uint32_t prm_eb() const { return 12 * block_out; }
    std::string name() const {
        return "B" + std::to_string(batch) + "_BI" + std::to_string(block_in) + "_BO" +
               std::to_string(block_out) + "_beat" + std::to_string(beat_bytes) + "_out" +
               std::to_string(max_outstanding);
    }
};
constexpr Cfg kCfg{};

constexpr uint32_t kMemBytes = 1u << 20;  // the slave's DRAM; beyond it: SLVERR
constexpr uint64_t kTimeout = 400000;

uint32_t entry_bytes(isa::Buffer b) {
    switch (b) {
        case isa::Buffer::Inp: return kCfg.inp_eb();
        case isa::Buffer::Wgt: return kCfg.wgt_eb();
        default: return kCfg.prm_eb();
    }
}

// The DRAM bytes between a row's entries (docs/isa.md, LOAD: 0 means one entry).
uint32_t x_stride(const isa::Load& ld) {
    return ld.dram_x_stride != 0 ? ld.dram_x_stride : entry_bytes(ld.buffer);
}

// What accel_load_segment_head hands the unit with each LOAD (docs/isa.md, LOAD): its
// entries lie apart (a segment per entry), and a segment's beats saturated at a burst
// plus one.
bool segments_apart(const isa::Load& ld) { return x_stride(ld) != entry_bytes(ld.buffer); }
uint32_t segment_head(const isa::Load& ld) {
    const uint64_t beats = uint64_t{segments_apart(ld) ? 1u : ld.x_size} *
                           (entry_bytes(ld.buffer) / kCfg.beat_bytes);
    return static_cast<uint32_t>(std::min<uint64_t>(beats, dram_bus::kMaxBurstBeats + 1));
}

uint32_t rd32(const uint8_t* p) { return p[0] | p[1] << 8 | p[2] << 16 | uint32_t{p[3]} << 24; }

// A PRM entry as the SRAM ports see it: per lane o, bias (4 bytes LE), then the QUANT
// lane (multiplier, shift: the words unchanged) in kQuantBytes bytes LE.
constexpr unsigned kQuantBytes = isa::kQuantWordLaneBits / 8;
constexpr unsigned kPrmLaneBytes = 4 + kQuantBytes;
std::vector<uint8_t> prm_view(const uint8_t* e) {
    const uint32_t bo = kCfg.block_out;
    std::vector<uint8_t> v;
    for (uint32_t o = 0; o < bo; ++o) {
        for (uint32_t word : {o, bo + o, 2 * bo + o}) {
            for (uint32_t k = 0; k < 4; ++k) v.push_back(e[4 * word + k]);
        }
    }
    return v;
}

struct SlaveCfg {
    int latency = 20;             // cycles from AR accepted to the first beat
    size_t max_bursts = 16;       // bursts the slave holds at most
    double ar_stall = 0.0, r_stall = 0.0;
};

// AXI read slave: in-order bursts, each readable `latency` cycles after its AR.
class AxiSlave {
public:
    AxiSlave(const SlaveCfg& c, const std::vector<uint8_t>& mem, uint32_t seed)
        : cfg_(c), mem_(mem), ar_stall_(seed, c.ar_stall), r_stall_(seed + 1, c.r_stall) {}

    void drive(Vaccel_load_unit& m, uint64_t now) {
        m.ar_ready_i = bursts_.size() < cfg_.max_bursts && !ar_stall_();
        if (!r_hold_) {
            r_valid_ = !bursts_.empty() && bursts_.front().ready_at <= now && !r_stall_();
        }
        m.r_valid_i = r_valid_;
        if (!r_valid_) return;
        const Burst& b = bursts_.front();
        const uint64_t a = uint64_t{b.addr} + uint64_t{b.beat} * kCfg.beat_bytes;
        uint8_t junk[256] = {};
        set_bytes(m.r_data_i, b.err ? junk : &mem_[a], kCfg.beat_bytes);
        m.r_resp_i = b.err ? 2 : 0;
        m.r_last_i = b.beat == b.len;
    }

    // After eval: the handshakes of this cycle. Returns the accepted AR, if any.
    bool sample(Vaccel_load_unit& m, uint64_t now, uint32_t* addr, unsigned* len) {
        if (r_valid_ && m.r_ready_o) {
            ++beats_;
            if (bursts_.front().err && !seen_err_) {
                seen_err_ = true;
                ar_pending_at_err_ = m.ar_valid_o && !m.ar_ready_i;
            }
            if (bursts_.front().beat++ == bursts_.front().len) {
                bursts_.pop_front();
                --in_flight_;
            }
            r_hold_ = false;
        } else {
            r_hold_ = r_valid_;  // AXI: a raised rvalid stays until taken
        }
        if (ar_pending_) {
            EXPECT_TRUE(m.ar_valid_o) << "ar_valid withdrawn at " << now;
            EXPECT_EQ(m.ar_addr_o, ar_addr_) << "ar_addr changed while pending at " << now;
            EXPECT_EQ(m.ar_len_o, ar_len_) << "ar_len changed while pending at " << now;
        }
        ar_pending_ = m.ar_valid_o && !m.ar_ready_i;
        ar_addr_ = m.ar_addr_o, ar_len_ = m.ar_len_o;
        if (!(m.ar_valid_o && m.ar_ready_i)) return false;
        const bool err = uint64_t{m.ar_addr_o} + (m.ar_len_o + 1u) * kCfg.beat_bytes > mem_.size();
        bursts_.push_back({m.ar_addr_o, m.ar_len_o, now + cfg_.latency, 0, err});
        ++in_flight_;
        max_in_flight_ = std::max(max_in_flight_, in_flight_);
        *addr = m.ar_addr_o, *len = m.ar_len_o;
        return true;
    }

    size_t in_flight() const { return in_flight_; }  // AR accepted, last beat not taken
    size_t max_in_flight() const { return max_in_flight_; }
    uint64_t beats() const { return beats_; }
    bool ar_pending_at_error() const { return ar_pending_at_err_; }

private:
    struct Burst {
        uint32_t addr;
        unsigned len;
        uint64_t ready_at;
        unsigned beat;
        bool err;
    };
    SlaveCfg cfg_;
    const std::vector<uint8_t>& mem_;
    Stalls ar_stall_, r_stall_;
    std::deque<Burst> bursts_;
    bool r_valid_ = false, r_hold_ = false;
    bool ar_pending_ = false;
    uint32_t ar_addr_ = 0;
    unsigned ar_len_ = 0;
    size_t in_flight_ = 0, max_in_flight_ = 0;
    uint64_t beats_ = 0;
    bool seen_err_ = false, ar_pending_at_err_ = false;
};

// An SRAM model: entries never written stay empty.
using Sram = std::vector<std::vector<uint8_t>>;

class Bench {
public:
    explicit Bench(const SlaveCfg& sc = {}, uint32_t seed = 1)
        : mem(kMemBytes), slave(sc, mem, seed), inp(kCfg.inp_depth), wgt(kCfg.wgt_depth),
          prm(kCfg.prm_depth), exp_inp(kCfg.inp_depth), exp_wgt(kCfg.wgt_depth),
          exp_prm(kCfg.prm_depth) {
        std::mt19937 rng(seed * 977u + 3u);
        for (auto& b : mem) b = static_cast<uint8_t>(rng());
        m.insn_valid_i = 0, m.next_avail_i = 0, m.ar_ready_i = 0, m.r_valid_i = 0;
        reset(m);
    }

    // Queues a LOAD; records what it must read and write.
    void push(const isa::Load& ld) {
        const auto w = isa::encode(ld);
        queue.emplace_back(w.begin(), w.end());
        heads.push_back({segments_apart(ld), segment_head(ld)});
        const uint32_t eb = entry_bytes(ld.buffer), xs = x_stride(ld);
        const uint32_t segments = xs == eb ? 1 : ld.x_size;  // per row
        for (uint32_t z = 0; z < ld.z_size; ++z) {
            for (uint32_t y = 0; y < ld.y_size; ++y) {
                for (uint32_t x = 0; x < segments; ++x) {
                    rows.push_back({ld.dram_base + z * ld.dram_z_stride + y * ld.dram_y_stride +
                                        x * xs,
                                    ld.x_size / segments * eb});
                }
            }
        }
        apply(ld);
    }

    // One clock cycle.
    void step() {
        m.insn_valid_i = !queue.empty();
        if (!queue.empty()) {
            set_wide_bytes(m.insn_i, queue.front());
            m.seg_apart_i = heads.front().apart;
            m.seg_head_i = heads.front().head;
        }
        m.next_avail_i = tokens_in > 0;
        slave.drive(m, now);
        m.eval();
        check_status();
        if (m.next_pop_o) {
            EXPECT_TRUE(m.insn_valid_i && tokens_in > 0) << "pop without token at " << now;
            --tokens_in;
            ++pops;
            start_cycles.push_back(now);
        }
        EXPECT_TRUE(!m.next_push_o || m.insn_done_o) << "push without done at " << now;
        if (m.next_push_o) ++tokens_out;
        if (m.insn_done_o) {
            EXPECT_FALSE(queue.empty());
            EXPECT_EQ(slave.in_flight(), 0u) << "done with beats outstanding at " << now;
            if (!queue.empty()) queue.pop_front(), heads.pop_front();
            done_cycles.push_back(now);
        }
        if (m.err_o != 0) err_pulses.push_back({now, m.err_o});
        capture_writes();
        uint32_t addr;
        unsigned len;
        if (slave.sample(m, now, &addr, &len)) check_burst(addr, len);
        EXPECT_LE(slave.in_flight(), kCfg.max_outstanding) << "at " << now;
        tick(m);
        ++now;
    }

    // Runs until every queued instruction completed (or a deadline).
    void run_to_completion() {
        while (!queue.empty() && now < kTimeout && !::testing::Test::HasFailure()) step();
        ASSERT_TRUE(queue.empty()) << "timeout at cycle " << now;
        for (int i = 0; i < 5; ++i) step();
    }

    void expect_buffers_match() {
        EXPECT_EQ(next_row, rows.size()) << "not every data row was requested";
        for (uint32_t a = 0; a < kCfg.inp_depth; ++a) ASSERT_EQ(inp[a], exp_inp[a]) << "INP " << a;
        for (uint32_t a = 0; a < kCfg.wgt_depth; ++a) ASSERT_EQ(wgt[a], exp_wgt[a]) << "WGT " << a;
        for (uint32_t a = 0; a < kCfg.prm_depth; ++a) ASSERT_EQ(prm[a], exp_prm[a]) << "PRM " << a;
        EXPECT_EQ(writes, expected_writes);
    }

    Vaccel_load_unit m;
    std::vector<uint8_t> mem;
    AxiSlave slave;
    Sram inp, wgt, prm, exp_inp, exp_wgt, exp_prm;
    std::deque<std::vector<uint8_t>> queue;
    // Beside each queued LOAD, what accel_load_segment_head works out of it in accel_top.
    struct SegmentHead {
        bool apart;
        uint32_t head;
    };
    std::deque<SegmentHead> heads;
    uint64_t now = 0;
    int tokens_in = 0, tokens_out = 0, pops = 0;
    std::vector<uint64_t> done_cycles, start_cycles, ar_cycles;
    std::vector<std::pair<uint64_t, int>> err_pulses;
    uint64_t writes = 0, expected_writes = 0, last_write = 0;

private:
    struct Row {
        uint32_t addr, bytes;
    };

    // The semantics of docs/isa.md, LOAD: each padded row is a stream of W entries,
    // written as it is or, packing, as W - P + 1 entries of P entries' first C bytes.
    void apply(const isa::Load& ld) {
        const uint32_t eb = entry_bytes(ld.buffer);
        const uint32_t W = ld.pad_left + ld.x_size + ld.pad_right;
        const uint32_t H = ld.pad_top + ld.y_size + ld.pad_bottom;
        const uint32_t P = ld.pack_taps, C = ld.pack_bytes;
        const uint32_t written = P == 0 ? W : W - P + 1;
        Sram& buf = ld.buffer == isa::Buffer::Inp   ? exp_inp
                    : ld.buffer == isa::Buffer::Wgt ? exp_wgt
                                                    : exp_prm;
        for (uint32_t z = 0; z < ld.z_size; ++z) {
            for (uint32_t y = 0; y < H; ++y) {
                std::vector<std::vector<uint8_t>> row;
                for (uint32_t x = 0; x < W; ++x) {
                    std::vector<uint8_t> e(eb, static_cast<uint8_t>(ld.pad_value));
                    if (y >= ld.pad_top && y < ld.pad_top + ld.y_size && x >= ld.pad_left &&
                        x < ld.pad_left + ld.x_size) {
                        const uint32_t a = ld.dram_base + z * ld.dram_z_stride +
                                           (y - ld.pad_top) * ld.dram_y_stride +
                                           (x - ld.pad_left) * x_stride(ld);
                        if (uint64_t{a} + eb <= mem.size()) {
                            e.assign(mem.begin() + a, mem.begin() + a + eb);
                        }
                    }
                    row.push_back(e);
                }
                for (uint32_t x = 0; x < written; ++x) {
                    std::vector<uint8_t> e = row[x];
                    if (P != 0) {
                        std::fill(e.begin(), e.end(), 0);
                        for (uint32_t b = 0; b < kCfg.batch; ++b)
                            for (uint32_t k = 0; k < P; ++k)
                                for (uint32_t c = 0; c < C; ++c)
                                    e[b * kCfg.block_in + k * C + c] = row[x + k][b * kCfg.block_in + c];
                    }
                    const uint32_t dst = ld.sram_base + (z * H + y) * written + x;
                    buf.at(dst) = ld.buffer == isa::Buffer::Prm ? prm_view(e.data()) : e;
                    ++expected_writes;
                }
            }
        }
    }

    void capture_writes() {
        const int n = m.inp_we_o + m.wgt_we_o + m.bias_we_o;
        EXPECT_LE(n, 1) << "two buffers written at " << now;
        EXPECT_EQ(m.bias_we_o, m.quant_we_o) << "at " << now;
        if (n == 0) return;
        ++writes;
        last_write = now;
        if (m.inp_we_o) inp.at(m.inp_waddr_o) = get_bytes(m.inp_wdata_o, kCfg.inp_eb());
        if (m.wgt_we_o) wgt.at(m.wgt_waddr_o) = get_bytes(m.wgt_wdata_o, kCfg.wgt_eb());
        if (m.bias_we_o) {
            EXPECT_EQ(m.bias_waddr_o, m.quant_waddr_o) << "at " << now;
            std::vector<uint8_t> v;
            for (uint32_t o = 0; o < kCfg.block_out; ++o) {
                for (unsigned k = 0; k < 4; ++k) v.push_back(get_bits(m.bias_wdata_o, 32 * o + 8 * k, 8));
                for (unsigned k = 0; k < kQuantBytes; ++k) {
                    v.push_back(get_bits(m.quant_wdata_o, isa::kQuantWordLaneBits * o + 8 * k, 8));
                }
            }
            prm.at(m.bias_waddr_o) = v;
        }
    }

    // AXI rules, and the bursts tile the data rows exactly, in order.
    void check_burst(uint32_t addr, unsigned len) {
        ar_cycles.push_back(now);
        const uint32_t bytes = (len + 1) * kCfg.beat_bytes;
        EXPECT_LE(len, 15u) << "burst longer than 16 beats at " << now;
        EXPECT_EQ(addr % kCfg.beat_bytes, 0u);
        EXPECT_LE(addr % 4096 + bytes, 4096u) << "burst crosses 4 KiB at " << std::hex << addr;
        ASSERT_LT(next_row, rows.size()) << "burst beyond the instructions' rows";
        const Row& r = rows[next_row];
        EXPECT_EQ(addr, r.addr + row_off) << "row " << next_row;
        EXPECT_LE(row_off + bytes, r.bytes) << "burst spans two rows, row " << next_row;
        row_off += bytes;
        if (row_off >= r.bytes) ++next_row, row_off = 0;
    }

    void check_status() {
        const int st = m.state_o;
        ASSERT_LE(st, 3);
        bool quiet = false;
        if (st == 0) quiet = !m.insn_valid_i;
        if (st == 1) quiet = !m.next_avail_i;
        if (st == 3) quiet = slave.in_flight() == 0 && !m.ar_valid_o;
        EXPECT_EQ(m.quiet_o, quiet) << "state " << st << " at " << now;
        if (st != 2) EXPECT_FALSE(m.ar_valid_o && st != 3) << "AR while not busy at " << now;
    }

    std::vector<Row> rows;
    size_t next_row = 0;
    uint32_t row_off = 0;
};

void PrintTo(const Cfg& c, std::ostream* os) { *os << c.name(); }

class LoadUnit : public ::testing::TestWithParam<Cfg> {};

isa::Load inp_load(uint32_t sram, uint32_t dram, uint32_t z, uint32_t y, uint32_t x,
                   uint32_t pt, uint32_t pb, uint32_t pl, uint32_t pr, int8_t pv) {
    isa::Load ld;
    ld.buffer = isa::Buffer::Inp;
    ld.sram_base = sram, ld.dram_base = dram;
    ld.z_size = z, ld.y_size = y, ld.x_size = x;
    ld.dram_y_stride = (x + 3) * kCfg.inp_eb();
    ld.dram_z_stride = (y + 1) * ld.dram_y_stride;
    ld.pad_top = pt, ld.pad_bottom = pb, ld.pad_left = pl, ld.pad_right = pr;
    ld.pad_value = pv;
    return ld;
}

// All 16 combinations of the four paddings, several planes, random stalls.
TEST_P(LoadUnit, InpPaddingCombinations) {
    Bench b({.latency = 13, .max_bursts = 6, .ar_stall = 0.3, .r_stall = 0.3}, 11);
    uint32_t sram = 0;
    for (int mask = 0; mask < 16; ++mask) {
        const uint32_t pt = (mask & 1) ? 2 : 0, pb = (mask & 2) ? 1 : 0;
        const uint32_t pl = (mask & 4) ? 3 : 0, pr = (mask & 8) ? 1 : 0;
        const uint32_t z = 1 + mask % 3, y = 2 + mask % 2, x = 3 + mask % 4;
        const uint32_t n = z * (pt + y + pb) * (pl + x + pr);
        if (sram + n > kCfg.inp_depth) sram = 0;  // later loads overwrite earlier ones
        b.push(inp_load(sram, 4096 * mask + 8 * kCfg.beat_bytes, z, y, x, pt, pb, pl, pr,
                        static_cast<int8_t>(-mask - 1)));
        sram += n;
    }
    b.run_to_completion();
    b.expect_buffers_match();
    EXPECT_EQ(b.done_cycles.size(), 16u);
    EXPECT_TRUE(b.err_pulses.empty());
}

// Many padded planes and rows with wide padding: padding and data interleave.
TEST_P(LoadUnit, InpWidePaddingManyPlanes) {
    Bench b({.latency = 40, .max_bursts = 8, .ar_stall = 0.2, .r_stall = 0.4}, 12);
    b.push(inp_load(5, 0x2000, 2, 5, 9, 3, 2, 4, 5, 127));  // 360 entries
    b.push(inp_load(400, 0x8000, 2, 1, 1, 0, 0, 7, 0, -128));
    b.run_to_completion();
    b.expect_buffers_match();
}

// WGT entries are many beats (32 at default): bursts > 16 beats and 4 KiB crossings.
TEST_P(LoadUnit, WgtLongRowsCross4K) {
    Bench b({.latency = 25, .max_bursts = 5, .ar_stall = 0.3, .r_stall = 0.3}, 13);
    isa::Load ld;
    ld.buffer = isa::Buffer::Wgt;
    ld.sram_base = 3;
    ld.dram_base = 0x3000 - 5 * kCfg.beat_bytes;  // the first row crosses 0x3000
    ld.z_size = 2, ld.y_size = 3, ld.x_size = 7;
    ld.dram_y_stride = 0x1000 + 3 * kCfg.beat_bytes;  // later rows cross at other offsets
    ld.dram_z_stride = 0x5000 - kCfg.beat_bytes;
    b.push(ld);
    b.run_to_completion();
    b.expect_buffers_match();
}

// PRM: bias, multiplier, shift; shifts inside and outside [-31, 30], kept unchanged.
TEST_P(LoadUnit, PrmShiftsAnyValue) {
    Bench b({.latency = 17, .max_bursts = 4, .ar_stall = 0.3, .r_stall = 0.3}, 14);
    const int32_t shifts[] = {0, -1, -31, -32, -33, 1, 31, 30, INT32_MIN, INT32_MAX, -7, 100};
    const uint32_t bo = kCfg.block_out, eb = kCfg.prm_eb(), base = 0x10000;
    const uint32_t n = 9;
    for (uint32_t e = 0; e < n; ++e) {
        for (uint32_t o = 0; o < bo; ++o) {
            const uint32_t s = static_cast<uint32_t>(shifts[(e * bo + o) % 12]);
            for (int k = 0; k < 4; ++k) b.mem[base + e * eb + 4 * (2 * bo + o) + k] = s >> (8 * k);
        }
    }
    isa::Load ld;
    ld.buffer = isa::Buffer::Prm;
    ld.sram_base = 50, ld.dram_base = base;
    ld.z_size = 1, ld.y_size = 3, ld.x_size = 3;
    ld.dram_y_stride = 3 * eb;
    b.push(ld);
    ld.sram_base = 1, ld.dram_base = base + eb, ld.z_size = 2, ld.y_size = 1, ld.x_size = 2;
    ld.dram_z_stride = 5 * eb;
    b.push(ld);
    b.run_to_completion();
    b.expect_buffers_match();
    std::set<int> shift_bits;  // the shift word's low byte, above the multiplier
    for (const auto& e : b.prm) {
        for (size_t o = 0; !e.empty() && o < bo; ++o) shift_bits.insert(e[kPrmLaneBytes * o + 8]);
    }
    EXPECT_GE(shift_bits.size(), 5u);  // the shifts are varied, not all zero
}

// Strides wrap modulo 2^32 (a "negative" row stride walks down through memory).
TEST_P(LoadUnit, AddressesWrapModulo2To32) {
    Bench b({.latency = 10, .max_bursts = 8, .ar_stall = 0.2, .r_stall = 0.2}, 15);
    isa::Load ld = inp_load(0, 0x4000 + 2 * kCfg.inp_eb(), 2, 4, 5, 1, 0, 0, 1, 9);
    ld.dram_y_stride = 0u - 0x300u;
    ld.dram_z_stride = 0u - 0x1000u;
    b.push(ld);
    b.run_to_completion();
    b.expect_buffers_match();
}

// Entries apart in DRAM (a strided read, e.g. every other pixel): one burst per entry,
// long WGT entries split at 4 KiB, overlapping entries (a stride below the entry size),
// padding around them, and an entry stride exactly one entry (contiguous again).
TEST_P(LoadUnit, EntriesApartOneBurstEach) {
    Bench b({.latency = 21, .max_bursts = 6, .ar_stall = 0.3, .r_stall = 0.3}, 17);
    isa::Load inp = inp_load(0, 0x1000, 2, 3, 5, 1, 0, 2, 1, -5);
    inp.dram_x_stride = 2 * kCfg.inp_eb();  // every other pixel
    inp.dram_y_stride = 2 * 11 * kCfg.inp_eb();  // every other row of 11 pixels
    inp.dram_z_stride = 0x2000;
    b.push(inp);
    isa::Load wgt;
    wgt.buffer = isa::Buffer::Wgt;
    wgt.sram_base = 7, wgt.dram_base = 0x7000 - 3 * kCfg.beat_bytes;  // entry 0 crosses 4 KiB
    wgt.z_size = 2, wgt.y_size = 2, wgt.x_size = 3;
    wgt.dram_x_stride = 0x1000 + kCfg.beat_bytes;
    wgt.dram_y_stride = 0x4000, wgt.dram_z_stride = 0x9000;
    b.push(wgt);
    isa::Load overlap = inp_load(100, 0x20000, 1, 2, 6, 0, 1, 0, 0, 4);
    overlap.dram_x_stride = kCfg.beat_bytes;
    b.push(overlap);
    isa::Load prm;
    prm.buffer = isa::Buffer::Prm;
    prm.sram_base = 3, prm.dram_base = 0x30000, prm.x_size = 4;
    prm.dram_x_stride = 3 * kCfg.prm_eb();
    b.push(prm);
    isa::Load one = inp_load(300, 0x40000, 1, 2, 4, 0, 0, 0, 0, 0);
    one.dram_x_stride = kCfg.inp_eb();  // contiguous: one burst run per row
    b.push(one);
    b.run_to_completion();
    b.expect_buffers_match();
    EXPECT_EQ(b.done_cycles.size(), 5u);
    EXPECT_TRUE(b.err_pulses.empty());
}

// A strided read's entries stream as the short rows do: MAX_OUTSTANDING bursts per
// round trip.
TEST_P(LoadUnit, ThroughputEntriesApart) {
    const int lat = 30;
    Bench b({.latency = lat, .max_bursts = 64}, 18);
    const uint32_t n = 64, bpe = kCfg.inp_eb() / kCfg.beat_bytes;
    isa::Load ld = inp_load(0, 0, 1, 1, n, 0, 0, 0, 0, 0);
    ld.dram_x_stride = 2 * kCfg.inp_eb();
    b.push(ld);
    b.run_to_completion();
    b.expect_buffers_match();
    ASSERT_EQ(b.ar_cycles.size(), size_t{n});  // one burst per entry
    const uint64_t rounds = (n + kCfg.max_outstanding - 1) / kCfg.max_outstanding;
    EXPECT_LE(b.done_cycles.at(0) + 1 - b.ar_cycles[0], rounds * (lat + bpe + 1) + 8);
}

// Channel packing as a first layer uses it: C bytes of each pixel (RGB), P pixels per
// entry, padded rows; and the packed LOAD takes exactly the cycles of the same LOAD
// unpacked (one cycle per entry of the stream, written or not).
TEST_P(LoadUnit, PackingTakesTheCyclesOfThePlainLoad) {
    const uint32_t C = std::max(1u, kCfg.block_in / 5), P = kCfg.block_in / C;
    uint64_t cycles[2] = {};
    for (int packed = 0; packed < 2; ++packed) {
        Bench b({.latency = 20, .max_bursts = 16}, 7);
        isa::Load ld = inp_load(3, 0x2000, 2, 3, 9, 1, 2, 3, 2, -7);
        if (packed) ld.pack_taps = P, ld.pack_bytes = C;
        b.push(ld);
        b.run_to_completion();
        b.expect_buffers_match();
        cycles[packed] = b.done_cycles.at(0);
    }
    EXPECT_EQ(cycles[1], cycles[0]);
}

isa::Load random_load(std::mt19937& rng, uint32_t* sram_next) {
    auto pick = [&](uint32_t lo, uint32_t hi) { return lo + rng() % (hi - lo + 1); };
    isa::Load ld;
    ld.buffer = static_cast<isa::Buffer>(pick(0, 2));
    const uint32_t eb = entry_bytes(ld.buffer);
    ld.z_size = pick(1, 3), ld.y_size = pick(1, 4), ld.x_size = pick(1, 6);
    if (ld.buffer == isa::Buffer::Prm) ld.z_size = 1, ld.y_size = pick(1, 2);
    if (ld.buffer == isa::Buffer::Inp) {
        ld.pad_top = pick(0, 2), ld.pad_bottom = pick(0, 2);
        ld.pad_left = pick(0, 3), ld.pad_right = pick(0, 3);
        ld.pad_value = static_cast<int8_t>(rng());
        if (pick(0, 2) == 0) {  // channel packing
            ld.pack_taps = pick(1, std::min(kCfg.block_in, ld.pad_left + ld.x_size + ld.pad_right));
            ld.pack_bytes = pick(1, kCfg.block_in / ld.pack_taps);
        }
    }
    if (pick(0, 3) == 0) ld.dram_x_stride = eb + pick(0, 3) * kCfg.beat_bytes;
    ld.dram_y_stride = ld.x_size * x_stride(ld) + pick(0, 40) * kCfg.beat_bytes;
    ld.dram_z_stride = ld.y_size * ld.dram_y_stride + pick(0, 600) * kCfg.beat_bytes;
    ld.dram_base = pick(0, 0x40000 / kCfg.beat_bytes) * kCfg.beat_bytes;
    const uint32_t n = ld.z_size * (ld.pad_top + ld.y_size + ld.pad_bottom) *
                       static_cast<uint32_t>(isa::load_row_entries(ld));
    const uint32_t depth = ld.buffer == isa::Buffer::Inp   ? kCfg.inp_depth
                           : ld.buffer == isa::Buffer::Wgt ? kCfg.wgt_depth
                                                           : kCfg.prm_depth;
    const uint32_t base = sram_next[static_cast<int>(ld.buffer)];
    ld.sram_base = base + n <= depth ? base : 0;
    sram_next[static_cast<int>(ld.buffer)] = ld.sram_base + n;
    ld.tokens.push_next = rng() & 1;
    return ld;
}

// Random instruction streams back to back, under varied latency and stalls.
TEST_P(LoadUnit, RandomStreams) {
    for (uint32_t seed = 1; seed <= 6; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const double p = 0.1 * (seed % 5);
        Bench b({.latency = 10 + static_cast<int>(seed * 9) % 55,
                 .max_bursts = seed % 2 ? 64 : 2 + seed % 7, .ar_stall = p, .r_stall = 0.5 - p * 0.8},
                seed);
        std::mt19937 rng(seed);
        uint32_t sram_next[3] = {0, 0, 0};
        int pushes = 0;
        for (int i = 0; i < 14; ++i) {
            const auto ld = random_load(rng, sram_next);
            pushes += ld.tokens.push_next;
            b.push(ld);
        }
        b.run_to_completion();
        b.expect_buffers_match();
        EXPECT_EQ(b.tokens_out, pushes);
        EXPECT_TRUE(b.err_pulses.empty());
    }
}

// Back to back with no stalls: the next instruction's reads start right after done.
TEST_P(LoadUnit, BackToBackStartsNextCycle) {
    Bench b({.latency = 12, .max_bursts = 16}, 16);
    for (int i = 0; i < 4; ++i) b.push(inp_load(40 * i, 0x1000 * i, 1, 2, 3, 1, 1, 1, 1, 3));
    b.run_to_completion();
    b.expect_buffers_match();
    ASSERT_EQ(b.done_cycles.size(), 4u);
    ASSERT_EQ(b.ar_cycles.size(), 8u);  // one burst per row
    for (int i = 0; i < 3; ++i) {
        // done at d; the next instruction starts at d+1 and requests at d+2.
        EXPECT_EQ(b.ar_cycles[2 * (i + 1)], b.done_cycles[i] + 2) << "instruction " << i + 1;
    }
}

// pop_next waits for the token (state 1, quiet), pops it once, pushes on done.
TEST_P(LoadUnit, TokenWaitPopAndPush) {
    Bench b({.latency = 15, .max_bursts = 8, .ar_stall = 0.2, .r_stall = 0.2}, 17);
    isa::Load ld = inp_load(0, 0x800, 1, 2, 2, 0, 0, 0, 0, 0);
    ld.tokens.pop_next = true, ld.tokens.push_next = true;
    b.push(ld);
    for (int i = 0; i < 50; ++i) b.step();
    EXPECT_EQ(b.m.state_o, 1);
    EXPECT_TRUE(b.m.quiet_o);
    EXPECT_EQ(b.pops, 0);
    EXPECT_TRUE(b.ar_cycles.empty());
    EXPECT_EQ(b.writes, 0u);
    b.tokens_in = 2;
    b.push(ld);  // the second one finds a token already there
    b.run_to_completion();
    b.expect_buffers_match();
    EXPECT_EQ(b.pops, 2);
    EXPECT_EQ(b.tokens_in, 0);
    EXPECT_EQ(b.tokens_out, 2);
    ASSERT_EQ(b.start_cycles.size(), 2u);
    EXPECT_EQ(b.start_cycles[0], 50u);  // the cycle the token came
    EXPECT_EQ(b.m.state_o, 0);
    EXPECT_TRUE(b.m.quiet_o);
}

// SLVERR: one err pulse, the outstanding beats are drained, no completion, halted and
// quiet for good; the next instruction never starts. Returns whether an AR was pending
// (valid, not ready) when the bad beat was taken: it must then stay valid.
bool bus_error_run(const SlaveCfg& sc, uint32_t seed) {
    Bench b(sc, seed);
    isa::Load ld;
    ld.buffer = isa::Buffer::Wgt;
    ld.dram_base = kMemBytes - 3 * 4096, ld.z_size = 1, ld.y_size = 12, ld.x_size = 2;
    ld.dram_y_stride = 4096;  // rows 3.. are past the end of the DRAM
    ld.tokens.push_next = true;
    b.push(ld);
    isa::Load next = inp_load(0, 0x100, 1, 1, 1, 0, 0, 0, 0, 0);
    next.tokens.pop_next = true;
    b.push(next);
    b.tokens_in = 1;
    while (b.err_pulses.empty() && b.now < 20000) b.step();
    EXPECT_EQ(b.err_pulses.size(), 1u);
    if (b.err_pulses.empty()) return false;
    EXPECT_EQ(b.err_pulses[0].second, 4);  // accel_isa_pkg::ERR_BUS_ERROR
    const uint64_t writes_at_err = b.writes;
    const size_t ars_at_err = b.ar_cycles.size();
    for (int i = 0; i < 2000; ++i) b.step();
    EXPECT_EQ(b.err_pulses.size(), 1u);
    EXPECT_TRUE(b.done_cycles.empty());
    EXPECT_EQ(b.tokens_out, 0);
    EXPECT_EQ(b.pops, 0);
    EXPECT_EQ(b.writes, writes_at_err) << "writes after the error";
    EXPECT_LE(b.ar_cycles.size(), ars_at_err + 1);  // only an AR already pending
    EXPECT_EQ(b.slave.in_flight(), 0u);
    EXPECT_EQ(b.m.state_o, 3);
    EXPECT_TRUE(b.m.quiet_o);
    EXPECT_FALSE(b.m.ar_valid_o);
    // Rows before the bad one arrived intact.
    for (uint32_t a = 0; a < 6; ++a) EXPECT_EQ(b.wgt[a], b.exp_wgt[a]) << "WGT " << a;
    return b.slave.ar_pending_at_error();
}

TEST_P(LoadUnit, BusErrorHalts) {
    int pending = 0;
    for (uint32_t seed = 1; seed <= 8; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const double ar = seed <= 4 ? 0.2 : 0.8;  // mostly stalled AR: pending at the error
        pending += bus_error_run({.latency = 10 + 5 * static_cast<int>(seed), .max_bursts = 64,
                                  .ar_stall = ar, .r_stall = 0.3},
                                 seed);
    }
    EXPECT_GE(pending, 1) << "no run had an AR pending when the error arrived";
}

// A long WGT load, no stalls: one beat per cycle once MAX_OUTSTANDING bursts of 16
// beats cover the latency (default at 64 cycles; tiny at its own 16). Bursts are
// counted in flight until their last beat, so a burst holds its slot for latency + 16
// cycles: tiny's 4 bursts can carry at most 64 beats per 80 cycles at latency 64.
double wgt_rate(int latency, size_t* max_in_flight) {
    Bench b({.latency = latency, .max_bursts = 64}, 19);
    isa::Load ld;
    ld.buffer = isa::Buffer::Wgt;
    ld.z_size = 1, ld.y_size = 2, ld.x_size = kCfg.wgt_depth / 4;
    ld.dram_y_stride = ld.x_size * kCfg.wgt_eb() + 4096;
    b.push(ld);
    const uint64_t start = b.now;
    b.run_to_completion();
    b.expect_buffers_match();
    EXPECT_EQ(b.done_cycles.size(), 1u);
    if (b.done_cycles.empty()) return 0;
    const uint64_t beats = uint64_t{ld.y_size} * ld.x_size * kCfg.wgt_eb() / kCfg.beat_bytes;
    const uint64_t cycles = b.done_cycles[0] + 1 - start;
    const double rate = static_cast<double>(beats) / static_cast<double>(cycles - latency);
    std::printf("[ %s ] WGT load, %llu beats, latency %d: %llu cycles, %.3f beats/cycle "
                "after the latency, %zu bursts in flight at most\n",
                kCfg.name().c_str(), static_cast<unsigned long long>(beats), latency,
                static_cast<unsigned long long>(cycles), rate, b.slave.max_in_flight());
    *max_in_flight = b.slave.max_in_flight();
    return rate;
}

TEST_P(LoadUnit, ThroughputWgtBeatPerCycle) {
    size_t in_flight = 0;
    const int hidden = kCfg.max_outstanding * 16 >= 64 + 17 ? 64 : 16;
    EXPECT_GE(wgt_rate(hidden, &in_flight), 0.9);
    EXPECT_EQ(in_flight, kCfg.max_outstanding);
    if (hidden == 64) return;
    const double at64 = wgt_rate(64, &in_flight);
    const double bound = std::min(1.0, kCfg.max_outstanding * 16.0 / (64 + 16));
    EXPECT_GE(at64, 0.95 * bound);
}

// Rows of one entry (one short burst per row): bounded by MAX_OUTSTANDING bursts per
// latency + burst cycles. Padding costs a cycle per entry.
TEST_P(LoadUnit, ThroughputShortRowsAndPadding) {
    const int lat = 16;
    Bench b({.latency = lat, .max_bursts = 64}, 20);
    const uint32_t rows = 64, bpr = kCfg.inp_eb() / kCfg.beat_bytes;
    isa::Load ld = inp_load(0, 0, 1, rows, 1, 0, 0, 0, 0, 0);
    ld.dram_y_stride = 64;
    b.push(ld);
    b.run_to_completion();
    b.expect_buffers_match();
    const uint64_t t1 = b.done_cycles[0] + 1 - b.ar_cycles[0];
    const uint64_t bound = (rows + kCfg.max_outstanding - 1) / kCfg.max_outstanding * (lat + bpr + 1);
    EXPECT_LE(t1, bound + 8);
    // Padding only, plus one data entry in the middle.
    b.push(inp_load(100, 0, 1, 1, 1, 10, 10, 5, 5, 1));
    const uint64_t start = b.now;
    b.run_to_completion();
    b.expect_buffers_match();
    const uint64_t entries = 21 * 11;
    const uint64_t t2 = b.done_cycles[1] + 1 - start;
    std::printf("[ %s ] %u one-entry rows (%u beats each), latency %d: %llu cycles "
                "(outstanding-limited bound %llu); %llu entries, one of data: %llu cycles\n",
                kCfg.name().c_str(), rows, bpr, lat, static_cast<unsigned long long>(t1),
                static_cast<unsigned long long>(bound), static_cast<unsigned long long>(entries),
                static_cast<unsigned long long>(t2));
    EXPECT_LE(t2, entries + 4);
}

INSTANTIATE_TEST_SUITE_P(Params, LoadUnit, ::testing::Values(kCfg),
                         [](const ::testing::TestParamInfo<Cfg>& i) { return i.param.name(); });

}  // namespace
}  // namespace accel::bench
