// accel_drain_unit: DRAIN instructions against a C++ model of docs/isa.md. The bench plays
// the instruction queue, the cp2dr/dr2cp tokens, the ACC read port (compute takes it
// at random: acc_gnt_i low, and the read data then changes to compute's), the QUANT
// read port (synchronous read) and an AXI write slave (random awready/wready/bvalid
// stalls, B latency, W accepted only after its AW or also before it, SLVERR in an
// error window). It checks every burst (INCR <= 16 beats, beat aligned, no 4 KiB
// crossing, w_last on the last beat, valid/data held until ready, at most
// MAX_OUTSTANDING bursts awaiting B), DRAM contents (computed with accel::mbqm, left
// and right shifts), completion only after the last B, tokens, status and errors.
//
// tests/rtl/CMakeLists.txt builds this bench for several parameter sets; the bench
// reads them from the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "Vaccel_drain_unit.h"
#include "Vaccel_drain_unit___024root.h"  // the elaborated parameters (built with --public)
#include "hw/isa.hpp"
#include "ops/double_rounding.hpp"
#include "ops/quant.hpp"
#include "ops/tflite_int32.hpp"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

using Root = Vaccel_drain_unit___024root;
constexpr uint32_t kBatch = Root::accel_drain_unit__DOT__BATCH;
constexpr uint32_t kBo = Root::accel_drain_unit__DOT__BLOCK_OUT;
constexpr uint32_t kBeat = Root::accel_drain_unit__DOT__BEAT_BYTES;
constexpr uint32_t kAccDepth = Root::accel_drain_unit__DOT__ACC_DEPTH;
constexpr uint32_t kPrmDepth = Root::accel_drain_unit__DOT__PRM_DEPTH;
constexpr uint32_t kMaxOut = Root::accel_drain_unit__DOT__MAX_OUTSTANDING;
constexpr uint64_t kTimeout = 300000;
constexpr uint32_t kBusError = 4;  // ERR_BUS_ERROR: kind 3

// A channel's PRM words, as QUANT holds them: TFLite's multiplier and shift (in
// [-31, 30]), or a double-scale DRAIN's scale bits (low word in mult, high in shift).
struct Quant {
    int32_t mult;
    int32_t shift;
    uint64_t word() const {
        return uint64_t{static_cast<uint32_t>(shift)} << 32 | static_cast<uint32_t>(mult);
    }
};

// ACC and PRM contents; outputs land mostly inside int8 with a few edges.
struct Buffers {
    std::vector<std::vector<int32_t>> acc;  // [entry][b*BO + o]
    std::vector<std::vector<Quant>> quant;  // [entry][o]

    explicit Buffers(uint32_t seed) {
        std::mt19937 rng(seed);
        acc.assign(kAccDepth, std::vector<int32_t>(kBatch * kBo));
        for (auto& e : acc) {
            for (auto& v : e) {
                const uint32_t r = rng() % 100;
                if (r < 3) v = (rng() & 1) ? INT32_MIN : INT32_MAX;
                else if (r < 8) v = static_cast<int32_t>(rng());
                else v = static_cast<int32_t>(rng() % (1u << 22)) - (1 << 21);
            }
        }
        quant.assign(kPrmDepth, std::vector<Quant>(kBo));
        for (auto& e : quant) {
            for (auto& q : e) {
                const auto mantissa = static_cast<int32_t>((1u << 30) + rng() % (1u << 30));
                const uint32_t r = rng() % 32;
                if (r == 0) {
                    const auto shifts =
                        static_cast<uint32_t>(isa::kPrmShiftMax - isa::kPrmShiftMin + 1);
                    q = {static_cast<int32_t>(rng()),
                         isa::kPrmShiftMin + static_cast<int32_t>(rng() % shifts)};
                } else if (r < 6) {  // the same scales through a left shift
                    const int32_t l = 1 + static_cast<int32_t>(rng() % 8);
                    q = {mantissa >> (14 + l), l};
                } else if (r < 14) {  // a double scale of the same size, or any word
                    const uint64_t w =
                        r == 6 ? uint64_t{rng()} << 32 | rng()
                               : std::bit_cast<uint64_t>(std::ldexp(double(mantissa), -45 - int(r % 2)));
                    q = {static_cast<int32_t>(static_cast<uint32_t>(w)),
                         static_cast<int32_t>(static_cast<uint32_t>(w >> 32))};
                } else {
                    q = {mantissa, -14 - static_cast<int32_t>(rng() % 2)};
                }
            }
        }
    }
};

using Mem = std::unordered_map<uint32_t, uint8_t>;  // sparse byte-addressed DRAM

// docs/isa.md DRAIN, applied in program order.
void apply_drain(const isa::Drain& d, const Buffers& buf, Mem& mem) {
    for (uint32_t kb = 0; kb < d.n_kb; ++kb)
        for (uint32_t y = 0; y < d.n_y; ++y)
            for (uint32_t x = 0; x < d.n_x; ++x)
                for (uint32_t b = 0; b < kBatch; ++b) {
                    const uint32_t a = (d.acc_base + kb * d.acc_kb + y * d.acc_y + x * d.acc_x) % kAccDepth;
                    const auto& p = buf.quant[(d.prm_base + kb) % kPrmDepth];
                    const uint32_t addr = d.dram_base + kb * d.dram_kb + y * d.dram_y + x * d.dram_x + b * d.dram_b;
                    for (uint32_t o = 0; o < kBo; ++o) {
                        const int32_t acc = buf.acc[a][b * kBo + o];
                        // double scale: zy added wrapping in int32; else in 33 bits
                        const int64_t v =
                            d.double_scale
                                ? wrapping_add(round_product_like_double(
                                                   acc, decode_scale_word(p[o].word())),
                                               d.zy)
                                : int64_t{d.zy} + accel::mbqm(acc, p[o].mult, isa::prm_shift(p[o].shift), d.round_up);
                        mem[addr + o] = static_cast<uint8_t>(std::clamp<int64_t>(v, d.act_min, d.act_max));
                    }
                }
}

struct SlaveCfg {
    double aw_stall = 0.3, w_stall = 0.3, b_stall = 0.3;
    int min_latency = 2, max_latency = 30;  // last W beat to B
    bool w_before_aw = false;               // accept W beats ahead of their AW
    uint32_t err_lo = 0, err_hi = 0;        // a burst touching [err_lo, err_hi): SLVERR
};

// AXI write slave with protocol checks. drive() sets the slave's outputs for this
// cycle, sample() looks at both sides just before the clock edge.
class WriteSlave {
public:
    WriteSlave(const SlaveCfg& c, uint32_t seed)
        : cfg_(c), rng_(seed), aw_st_(seed + 1, c.aw_stall), w_st_(seed + 2, c.w_stall),
          b_st_(seed + 3, c.b_stall) {}

    Mem mem;
    int bursts = 0, full_bursts = 0, beats = 0, outstanding = 0, errors_sent = 0;

    void drive(Vaccel_drain_unit& m, uint64_t now) {
        m.aw_ready_i = !aw_st_();
        const bool waiting_data = std::any_of(aws_.begin(), aws_.end(),
                                              [](const Burst& b) { return !b.complete(); });
        m.w_ready_i = (cfg_.w_before_aw || waiting_data) && !w_st_();
        const bool ready = !bq_.empty() && bq_.front().at <= now;
        b_on_ = ready && (b_on_ || !b_st_());
        m.b_valid_i = b_on_;
        m.b_resp_i = b_on_ ? bq_.front().resp : 0;
    }

    void sample(const Vaccel_drain_unit& m, uint64_t now) {
        check_stable(m);
        if (m.aw_valid_o && m.aw_ready_i) {
            Burst b{m.aw_addr_o, static_cast<uint32_t>(m.aw_len_o) + 1, {}};
            EXPECT_LE(b.len, 16u) << "burst longer than 16 beats";
            EXPECT_EQ(b.addr % kBeat, 0u) << "unaligned burst";
            EXPECT_LE(b.addr % 4096 + b.len * kBeat, 4096u) << "burst crosses 4 KiB at " << b.addr;
            ++bursts, full_bursts += b.len == 16;
            ++outstanding;
            EXPECT_LE(outstanding, static_cast<int>(kMaxOut)) << "too many bursts awaiting B";
            aws_.push_back(b);
            while (!early_w_.empty() && attach(early_w_.front(), now)) early_w_.pop_front();
        }
        if (m.w_valid_o && m.w_ready_i) {
            ++beats;
            Beat w{get_bytes(m.w_data_o, kBeat), m.w_last_o != 0};
            if (!attach(w, now)) {
                EXPECT_TRUE(cfg_.w_before_aw) << "W beat accepted without an AW";
                early_w_.push_back(w);
            }
        }
        if (m.b_valid_i && m.b_ready_o) {
            errors_sent += bq_.front().resp != 0;
            bq_.pop_front();
            --outstanding;
            b_on_ = false;
        }
    }

    // Nothing accepted and not answered, nothing sent without its AW.
    bool quiet() const { return aws_.empty() && bq_.empty() && early_w_.empty(); }

private:
    struct Beat {
        std::vector<uint8_t> data;
        bool last;
    };
    struct Burst {
        uint32_t addr, len;
        std::vector<Beat> beats;
        bool complete() const { return beats.size() == len; }
    };
    struct Resp {
        uint64_t at;
        uint8_t resp;
    };

    // Gives a W beat to the oldest burst missing data; false if there is none.
    bool attach(const Beat& w, uint64_t now) {
        for (auto& b : aws_) {
            if (b.complete()) continue;
            b.beats.push_back(w);
            EXPECT_EQ(w.last, b.complete()) << "w_last on beat " << b.beats.size() << " of " << b.len;
            if (b.complete()) finish(now);
            return true;
        }
        return false;
    }

    // Completed bursts leave in order: write (or refuse) and schedule the B.
    void finish(uint64_t now) {
        while (!aws_.empty() && aws_.front().complete()) {
            const Burst& b = aws_.front();
            bool err = false;
            for (uint32_t i = 0; i < b.len * kBeat; ++i) {
                const uint32_t a = b.addr + i;
                err |= a >= cfg_.err_lo && a < cfg_.err_hi;
            }
            if (!err) {
                for (uint32_t k = 0; k < b.len; ++k)
                    for (uint32_t i = 0; i < kBeat; ++i) mem[b.addr + k * kBeat + i] = b.beats[k].data[i];
            }
            const int lat = cfg_.min_latency +
                static_cast<int>(rng_() % static_cast<uint32_t>(cfg_.max_latency - cfg_.min_latency + 1));
            const uint64_t at = std::max(bq_.empty() ? 0 : bq_.back().at, now + lat);
            bq_.push_back({at, static_cast<uint8_t>(err ? 2 : 0)});
            aws_.pop_front();
        }
    }

    // AXI: a valid stays up, with the same payload, until its handshake.
    void check_stable(const Vaccel_drain_unit& m) {
        if (aw_pend_) {
            EXPECT_TRUE(m.aw_valid_o) << "aw_valid dropped before aw_ready";
            EXPECT_EQ(m.aw_addr_o, aw_addr_);
            EXPECT_EQ(m.aw_len_o, aw_len_);
        }
        if (w_pend_) {
            EXPECT_TRUE(m.w_valid_o) << "w_valid dropped before w_ready";
            EXPECT_EQ(get_bytes(m.w_data_o, kBeat), w_data_);
            EXPECT_EQ(m.w_last_o, w_last_);
        }
        aw_pend_ = m.aw_valid_o && !m.aw_ready_i;
        aw_addr_ = m.aw_addr_o, aw_len_ = m.aw_len_o;
        w_pend_ = m.w_valid_o && !m.w_ready_i;
        w_data_ = get_bytes(m.w_data_o, kBeat), w_last_ = m.w_last_o;
    }

    SlaveCfg cfg_;
    std::mt19937 rng_;
    Stalls aw_st_, w_st_, b_st_;
    std::deque<Burst> aws_;
    std::deque<Beat> early_w_;
    std::deque<Resp> bq_;
    bool b_on_ = false;
    bool aw_pend_ = false, w_pend_ = false;
    uint32_t aw_addr_ = 0, aw_len_ = 0;
    std::vector<uint8_t> w_data_;
    bool w_last_ = false;
};

struct BenchCfg {
    SlaveCfg slave;
    double acc_deny = 0.3;  // compute takes the ACC port
    uint32_t seed = 1;
};

class Bench {
public:
    explicit Bench(const BenchCfg& c)
        : cfg_(c), buf(c.seed), slave(c.slave, c.seed + 10), deny_(c.seed + 20, c.acc_deny),
          rng_(c.seed + 30) {
        reset(m);
    }

    Vaccel_drain_unit m;
    Buffers buf;
    WriteSlave slave;
    std::deque<isa::Drain> queue;
    int tokens = 0;       // cp2dr
    int pushes = 0;       // dr2cp
    int done = 0, err_pulses = 0;
    uint32_t err_bits = 0;
    uint64_t now = 0, reads = 0, halted_reads = 0;
    uint64_t first_w = 0, last_w = 0;

    void push(const isa::Drain& d) { queue.push_back(d); }

    // One clock cycle: drive inputs, sample handshakes before the edge, then clock.
    void step() {
        m.insn_valid_i = !queue.empty();
        if (!queue.empty()) {
            const auto w = isa::encode(queue.front());
            set_wide_bytes(m.insn_i, std::vector<uint8_t>(w.begin(), w.end()));
        }
        m.prev_avail_i = tokens > 0;
        const bool gnt = !deny_();
        m.acc_gnt_i = gnt;
        slave.drive(m, now);
        m.clk_i = 0;
        m.eval();

        if (m.prev_pop_o) {
            EXPECT_GT(tokens, 0) << "token popped while none available";
            --tokens;
        }
        if (m.prev_push_o) {
            EXPECT_TRUE(m.insn_done_o) << "token pushed without completing";
            ++pushes;
        }
        if (m.err_o) {
            ++err_pulses;
            err_bits |= m.err_o;
        }
        if (m.acc_re_o && m.state_o == 3) ++halted_reads;
        if (m.w_valid_o && m.w_ready_i) {
            if (first_w == 0) first_w = now;
            last_w = now;
        }
        slave.sample(m, now);  // before insn_done: a B in this cycle counts
        if (m.insn_done_o) {
            EXPECT_FALSE(queue.empty());
            EXPECT_TRUE(slave.quiet()) << "completed before every B arrived";
            if (!queue.empty()) queue.pop_front();
            ++done;
        }
        // Next cycle's read data: the ACC word if drain's read was granted, compute's
        // (random) if compute took the port, else held; QUANT reads are drain's alone.
        std::vector<int32_t> acc_next;
        bool acc_load = false;
        if (m.acc_re_o && gnt) {
            EXPECT_LT(m.acc_raddr_o, kAccDepth);
            acc_next = buf.acc[m.acc_raddr_o % kAccDepth];
            acc_load = true;
            ++reads;
        } else if (!gnt) {
            acc_next.resize(kBatch * kBo);
            for (auto& v : acc_next) v = static_cast<int32_t>(rng_());
            acc_load = true;
        }
        std::vector<Quant> q_next;
        const bool q_load = m.quant_re_o;
        if (q_load) q_next = buf.quant[m.quant_raddr_o % kPrmDepth];

        m.clk_i = 1;
        m.eval();
        if (acc_load) {
            for (uint32_t i = 0; i < acc_next.size(); ++i)
                put_bits(m.acc_rdata_i, 32 * i, 32, static_cast<uint32_t>(acc_next[i]));
        }
        if (q_load) {
            for (uint32_t o = 0; o < kBo; ++o) {
                put_bits(m.quant_rdata_i, isa::kQuantWordLaneBits * o, isa::kQuantWordLaneBits,
                         q_next[o].word());
            }
        }
        ++now;
    }

    // Runs until `pred` holds (true) or the timeout (false).
    template <typename Pred>
    bool run_until(Pred pred, uint64_t limit = kTimeout) {
        for (uint64_t i = 0; i < limit; ++i) {
            if (pred()) return true;
            step();
        }
        return pred();
    }

    bool drained() {
        return queue.empty() && slave.quiet() && m.state_o == 0 && m.quiet_o;
    }

private:
    BenchCfg cfg_;
    Stalls deny_;
    std::mt19937 rng_;
};

// Largest ACC entry an instruction touches, for keeping random ones in range.
uint64_t max_acc(const isa::Drain& d) {
    return uint64_t{d.acc_base} + (d.n_kb - 1) * uint64_t{d.acc_kb} + (d.n_y - 1) * uint64_t{d.acc_y} +
           (d.n_x - 1) * uint64_t{d.acc_x};
}

// A dense output tile: consecutive x, then y, then kb; images dram_b apart.
isa::Drain contiguous(uint32_t n_kb, uint32_t n_y, uint32_t n_x, uint32_t base) {
    isa::Drain d;
    d.acc_base = 3, d.prm_base = 1;
    d.n_kb = n_kb, d.n_y = n_y, d.n_x = n_x;
    d.acc_x = 1, d.acc_y = n_x, d.acc_kb = n_x * n_y;
    d.dram_base = base;
    d.dram_x = kBatch * kBo, d.dram_y = n_x * d.dram_x, d.dram_kb = n_y * d.dram_y;
    d.dram_b = kBo;
    d.zy = -3, d.act_min = -128, d.act_max = 127;
    return d;
}

// A random instruction: random strides (some dense, some scattered, some negative),
// random zero point and clamp.
isa::Drain random_drain(std::mt19937& rng) {
    isa::Drain d;
    auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
    do {
        d.n_kb = 1 + pick(3), d.n_y = 1 + pick(3), d.n_x = 1 + pick(6);
        d.acc_base = pick(kAccDepth);
        d.acc_kb = pick(64), d.acc_y = pick(16), d.acc_x = pick(4);
    } while (max_acc(d) >= kAccDepth);
    d.prm_base = pick(kPrmDepth - d.n_kb + 1);
    auto stride = [&](uint32_t dense) -> uint32_t {
        switch (pick(4)) {
            case 0: return dense;
            case 1: return kBeat * pick(64);                  // scattered, maybe 0
            case 2: return 0u - kBeat * (1 + pick(64));       // backwards (mod 2^32)
            default: return dense + kBeat * pick(3);
        }
    };
    const uint32_t chunk = kBo;
    d.dram_b = stride(chunk);
    d.dram_x = stride(kBatch * chunk);
    d.dram_y = stride(d.n_x * kBatch * chunk);
    d.dram_kb = stride(d.n_y * d.n_x * kBatch * chunk);
    d.dram_base = (pick(8) == 0 ? 0u - 4096 : 0x10000u) + kBeat * pick(2048);  // some wrap past 2^32
    d.zy = static_cast<int8_t>(rng());
    const auto a = static_cast<int8_t>(rng()), b = static_cast<int8_t>(rng());
    if (pick(2)) d.act_min = -128, d.act_max = 127;
    else d.act_min = std::min(a, b), d.act_max = std::max(a, b);
    d.double_scale = pick(3) == 0;
    d.round_up = !d.double_scale && pick(2) == 0;
    return d;
}

void expect_mem_eq(const Mem& got, const Mem& want) {
    size_t bad = 0;
    for (const auto& [a, v] : want) {
        auto it = got.find(a);
        if (it == got.end() || it->second != v) {
            if (++bad <= 5) {
                ADD_FAILURE() << "DRAM byte " << a << ": got "
                              << (it == got.end() ? std::string("nothing") : std::to_string(int{int8_t(it->second)}))
                              << ", expected " << int{int8_t(v)};
            }
        }
    }
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(got.size(), want.size()) << "bytes written outside the instructions' outputs";
}

TEST(DrainUnit, IdleIsQuiet) {
    Bench t({});
    for (int i = 0; i < 5; ++i) t.step();
    EXPECT_EQ(t.m.state_o, 0);
    EXPECT_TRUE(t.m.quiet_o);
    EXPECT_FALSE(t.m.acc_re_o);
    EXPECT_FALSE(t.m.aw_valid_o);
    EXPECT_FALSE(t.m.w_valid_o);
}

TEST(DrainUnit, ContiguousTileWritesFullBursts) {
    Bench t({});
    const auto d = contiguous(2, 3, 24, 0x2000 - 83 * kBeat);  // crosses a 4 KiB page
    t.push(d);
    bool busy_seen = false;
    ASSERT_TRUE(t.run_until([&] {
        busy_seen |= t.m.state_o == 2 && !t.m.quiet_o;
        return t.drained();
    }));
    EXPECT_TRUE(busy_seen);
    Mem want;
    apply_drain(d, t.buf, want);
    expect_mem_eq(t.slave.mem, want);
    EXPECT_EQ(t.done, 1);
    const uint32_t beats = d.n_kb * d.n_y * d.n_x * kBatch * kBo / kBeat;
    EXPECT_EQ(t.slave.beats, static_cast<int>(beats));
    EXPECT_EQ(t.reads, beats) << "one granted ACC read per beat";
    // Dense: 16-beat bursts except where a page boundary or the end cuts one.
    EXPECT_LE(t.slave.bursts, static_cast<int>(beats / 16 + 3));
    std::set<uint8_t> distinct;
    for (const auto& [a, v] : want) distinct.insert(v);
    EXPECT_GE(distinct.size(), 150u) << "outputs do not exercise the int8 range";
}

TEST(DrainUnit, RandomInstructionsBackToBack) {
    for (int round = 0; round < 3; ++round) {
        BenchCfg c;
        c.seed = 100 + round;
        c.slave.w_before_aw = round == 1;
        Bench t(c);
        std::mt19937 rng(c.seed);
        Mem want;
        const int n = 12;
        for (int i = 0; i < n; ++i) {
            auto d = random_drain(rng);
            apply_drain(d, t.buf, want);
            t.push(d);
        }
        ASSERT_TRUE(t.run_until([&] { return t.drained(); })) << "round " << round;
        EXPECT_EQ(t.done, n);
        EXPECT_EQ(t.err_pulses, 0);
        expect_mem_eq(t.slave.mem, want);
    }
}

TEST(DrainUnit, BatchImagesAtDramB) {
    Bench t({});
    // Images interleaved (dram_b = BO) and images in separate planes.
    auto d1 = contiguous(2, 2, 5, 0x4000);
    auto d2 = contiguous(1, 3, 4, 0x8000);
    d2.dram_b = 0x1000, d2.dram_x = kBo, d2.dram_y = 4 * kBo;
    d2.acc_base = 40;
    Mem want;
    apply_drain(d1, t.buf, want);
    apply_drain(d2, t.buf, want);
    t.push(d1);
    t.push(d2);
    ASSERT_TRUE(t.run_until([&] { return t.drained(); }));
    EXPECT_EQ(t.done, 2);
    expect_mem_eq(t.slave.mem, want);
}

TEST(DrainUnit, WaitsForTokenAndPushes) {
    Bench t({});
    auto d1 = contiguous(1, 2, 3, 0x100 * kBeat);
    d1.tokens.pop_prev = true, d1.tokens.push_prev = true;
    auto d2 = contiguous(2, 1, 2, 0x400 * kBeat);
    d2.tokens.pop_prev = true;
    t.push(d1);
    t.push(d2);
    for (int i = 0; i < 50; ++i) {
        t.step();
        ASSERT_EQ(t.m.state_o, 1);
        ASSERT_TRUE(t.m.quiet_o);
        ASSERT_FALSE(t.m.acc_re_o);
        ASSERT_FALSE(t.m.prev_pop_o);
    }
    t.tokens = 1;
    ASSERT_TRUE(t.run_until([&] { return t.done == 1; }));
    EXPECT_EQ(t.pushes, 1);
    for (int i = 0; i < 30; ++i) {
        t.step();
        ASSERT_EQ(t.m.state_o, 1) << "second instruction must wait for its token";
        ASSERT_TRUE(t.m.quiet_o);
    }
    t.tokens = 1;
    ASSERT_TRUE(t.run_until([&] { return t.drained(); }));
    EXPECT_EQ(t.done, 2);
    EXPECT_EQ(t.pushes, 1);
    EXPECT_EQ(t.tokens, 0);
    Mem want;
    apply_drain(d1, t.buf, want);
    apply_drain(d2, t.buf, want);
    expect_mem_eq(t.slave.mem, want);
}

TEST(DrainUnit, BusErrorHaltsWithoutCompleting) {
    BenchCfg c;
    c.slave.err_lo = 0x20000, c.slave.err_hi = 0x20000 + 64 * kBeat;
    Bench t(c);
    auto ok = contiguous(1, 2, 4, 0x1000);
    ok.tokens.push_prev = true;
    auto bad = contiguous(2, 4, 8, 0x20000 - 16 * kBo);  // runs into the error window
    bad.tokens.push_prev = true;
    auto never = contiguous(1, 1, 2, 0x3000);
    t.push(ok);
    t.push(bad);
    t.push(never);
    ASSERT_TRUE(t.run_until([&] { return t.m.state_o == 3 && t.m.quiet_o; }));
    for (int i = 0; i < 200; ++i) t.step();  // stays halted
    EXPECT_EQ(t.m.state_o, 3);
    EXPECT_TRUE(t.m.quiet_o);
    EXPECT_EQ(t.done, 1);
    EXPECT_EQ(t.pushes, 1);
    EXPECT_EQ(t.err_pulses, 1);
    EXPECT_EQ(t.err_bits, kBusError);
    EXPECT_GE(t.slave.errors_sent, 1);
    EXPECT_TRUE(t.slave.quiet()) << "halted with bursts unfinished on the bus";
    EXPECT_EQ(t.slave.outstanding, 0);
    EXPECT_EQ(t.halted_reads, 0u);
    EXPECT_FALSE(t.m.aw_valid_o);
    EXPECT_FALSE(t.m.w_valid_o);
    Mem want;
    apply_drain(ok, t.buf, want);
    for (const auto& [a, v] : want) EXPECT_EQ(t.slave.mem[a], v);
}

TEST(DrainUnit, SustainsOneBeatPerCycleWithoutBackPressure) {
    BenchCfg c;
    c.acc_deny = 0.0;
    c.slave.aw_stall = c.slave.w_stall = c.slave.b_stall = 0.0;
    c.slave.min_latency = c.slave.max_latency = 8;
    Bench t(c);
    const uint32_t entries = std::min<uint32_t>(kAccDepth - 8, 1024);
    const auto d = contiguous(1, 4, entries / 4, 0);
    t.push(d);
    ASSERT_TRUE(t.run_until([&] { return t.drained(); }));
    const double beats = t.slave.beats;
    const double span = static_cast<double>(t.last_w - t.first_w + 1);
    std::printf("drain: %d beats in %.0f cycles of W traffic (%.3f beats/cycle), %llu cycles total\n",
                t.slave.beats, span, beats / span, static_cast<unsigned long long>(t.now));
    EXPECT_GE(beats / span, 0.95);
    Mem want;
    apply_drain(d, t.buf, want);
    expect_mem_eq(t.slave.mem, want);
}

}  // namespace
}  // namespace accel::bench
