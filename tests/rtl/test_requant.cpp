// accel_requant: every lane bit-exact with accel::mbqm + clamp, in both rounding modes of
// the final shift (ties away from zero, and upward: the lane's round_up bit), for biased
// random inputs (INT32 edges, SRDHM and RDBPOT ties, every shift in [-31, 30] including
// left shifts that wrap, negative multipliers), with random en_i stalls checked against a C++
// shadow pipeline of LATENCY stages; plus a realistic distribution whose outputs must
// spread over int8.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <limits>
#include <set>
#include <vector>

#include "Vaccel_requant.h"
#include "Vaccel_requant___024root.h"  // the elaborated parameters (built with --public)
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"
#include "ops/quant.hpp"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

constexpr int kLanes = static_cast<int>(Vaccel_requant___024root::accel_requant__DOT__LANES);
constexpr int kLatency = static_cast<int>(Vaccel_requant___024root::accel_requant__DOT__LATENCY);
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
constexpr int kShifts = isa::kPrmShiftMax - isa::kPrmShiftMin + 1;

struct Lane {
    int32_t acc, mult;
    int shift;  // TFLite's, in [-31, 30]; the bench presents isa::quant_lane of it
    bool up = false;  // the final shift's ties upward (accel::mbqm_up)
};
struct Beat {
    std::vector<Lane> lanes;
    int8_t zy, lo, hi;
};

int8_t expected(const Lane& l, int8_t zy, int8_t lo, int8_t hi) {
    const int64_t v = int64_t{zy} + accel::mbqm(l.acc, l.mult, l.shift, l.up);
    return static_cast<int8_t>(std::clamp<int64_t>(v, lo, hi));
}

// Edge-heavy inputs: INT32 extremes, SRDHM ties (m = 2^30, odd acc), RDBPOT ties
// (x = k*2^e + 2^(e-1) via m = 2^30), special multipliers, negative values; left
// shifts of accumulators that wrap, and that land exactly on INT32_MIN.
class EdgeGen {
public:
    explicit EdgeGen(uint32_t seed) : rng_(seed) {}

    Lane lane() {
        Lane l{};
        // Every shift, evenly; now and then a random one.
        l.shift = isa::kPrmShiftMin + static_cast<int>(shift_cycle_++ % kShifts);
        if (pick(8) == 0) l.shift = isa::kPrmShiftMin + static_cast<int>(pick(kShifts));
        const int e = -l.shift;  // the right shift
        switch (pick(7)) {
            case 0:  // RDBPOT tie at this shift (and its neighbours)
                l.mult = 1 << 30;
                if (e > 0) {
                    const int64_t k = static_cast<int32_t>(rng_()) >> (e + 1);
                    const int64_t x = k * (int64_t{1} << e) + (int64_t{1} << (e - 1)) +
                                      static_cast<int64_t>(pick(3)) - 1;
                    l.acc = static_cast<int32_t>(std::clamp<int64_t>(2 * x, kMin, kMax));
                } else {
                    l.acc = value();
                }
                break;
            case 1:  // SRDHM tie: m = 2^30 halves acc; odd acc is exactly .5
                l.mult = (1 << 30) + static_cast<int32_t>(pick(3)) - 1;
                l.acc = static_cast<int32_t>(rng_() | 1u);
                break;
            case 2:  // a left shift onto INT32_MIN (x * 2^l wraps there from +-2^(31-l))
                l.shift = 1 + static_cast<int>(pick(isa::kPrmShiftMax));
                l.acc = static_cast<int32_t>((pick(2) ? 1u : 3u) << (31 - l.shift)) +
                        static_cast<int32_t>(pick(3)) - 1;
                l.mult = pick(2) ? kMin : value();
                break;
            default:
                l.acc = value();
                l.mult = value();
        }
        l.up = pick(2) == 0;
        return l;
    }

    Beat beat() {
        Beat b;
        for (int j = 0; j < kLanes; ++j) b.lanes.push_back(lane());
        b.zy = static_cast<int8_t>(rng_());
        if (pick(2) == 0) {
            b.lo = -128, b.hi = 127;
        } else {
            int8_t x = static_cast<int8_t>(rng_()), y = static_cast<int8_t>(rng_());
            b.lo = std::min(x, y), b.hi = std::max(x, y);
        }
        return b;
    }

private:
    uint32_t pick(uint32_t n) { return rng_() % n; }
    int32_t value() {
        static constexpr std::array<int32_t, 12> kEdges = {
            kMin, kMax, 0, 1, -1, 1 << 30, -(1 << 30), kMin + 1, kMax - 1, 2, -2, 1 << 16};
        switch (pick(5)) {
            case 0: return kEdges[pick(kEdges.size())];
            case 1: return static_cast<int32_t>(rng_()) >> pick(32);  // every magnitude
            default: return static_cast<int32_t>(rng_());
        }
    }
    std::mt19937 rng_;
    uint32_t shift_cycle_ = 0;
};

Beat garbage(std::mt19937& rng) {
    Beat b;
    for (int j = 0; j < kLanes; ++j) {
        b.lanes.push_back({static_cast<int32_t>(rng()), static_cast<int32_t>(rng()),
                           isa::kPrmShiftMin + static_cast<int>(rng() % kShifts), rng() % 2 == 0});
    }
    b.zy = static_cast<int8_t>(rng()), b.lo = static_cast<int8_t>(rng()), b.hi = static_cast<int8_t>(rng());
    return b;
}

// Drives the model for `cycles` cycles: inputs from `next`, en_i stalled with
// probability `stall`, garbage presented on stalled cycles. Checks every cycle
// against a shadow pipeline and returns the outputs produced.
template <typename Next>
std::vector<int8_t> run(Vaccel_requant& m, Next next, int beats, double stall, uint32_t seed) {
    struct Slot {
        bool valid = false;
        std::vector<int8_t> q;
    };
    std::deque<Slot> shadow(kLatency);
    Stalls stalls(seed, stall), idle(seed + 1, 0.1);
    std::mt19937 rng(seed + 2);
    std::vector<int8_t> out;
    int sent = 0;
    for (int cycle = 0; sent < beats || std::any_of(shadow.begin(), shadow.end(),
                                                     [](const Slot& s) { return s.valid; });
         ++cycle) {
        const bool en = !stalls();
        const bool valid = sent < beats && !idle();
        // Only a consumed beat comes from `next`; a stalled or idle cycle shows garbage.
        Beat b = (en && valid) ? next() : garbage(rng);
        m.en_i = en;
        m.valid_i = valid || !en;  // a stalled cycle must ignore whatever is presented
        for (int j = 0; j < kLanes; ++j) {
            const Lane& l = b.lanes[j];
            put_bits(m.acc_i, 32 * j, 32, static_cast<uint32_t>(l.acc));
            put_bits(m.quant_i, isa::kQuantLaneBits * j, isa::kQuantLaneBits,
                     isa::quant_lane(l.mult, l.shift, l.up));
        }
        m.zy_i = static_cast<uint8_t>(b.zy);
        m.act_min_i = static_cast<uint8_t>(b.lo);
        m.act_max_i = static_cast<uint8_t>(b.hi);
        tick(m);
        if (en) {
            Slot s;
            s.valid = valid;
            if (valid) {
                ++sent;
                for (const Lane& l : b.lanes) s.q.push_back(expected(l, b.zy, b.lo, b.hi));
            }
            shadow.push_front(std::move(s));
            shadow.pop_back();
        }
        const Slot& last = shadow.back();
        EXPECT_EQ(m.valid_o, last.valid) << "cycle " << cycle;
        if (!last.valid || !m.valid_o) continue;
        for (int j = 0; j < kLanes; ++j) {
            const auto got = static_cast<int8_t>(get_bits(m.q_o, 8 * j, 8));
            if (got != last.q[j]) {
                ADD_FAILURE() << "cycle " << cycle << " lane " << j << ": got " << int{got}
                              << ", expected " << int{last.q[j]};
                return out;
            }
            if (en) out.push_back(got);  // count each result once
        }
    }
    return out;
}

TEST(Requant, ParametersAreSane) {
    EXPECT_GE(kLanes, 1);
    EXPECT_EQ(kLatency, static_cast<int>(kRequantLatency));  // the cost model's (hw_params.hpp)
}

TEST(Requant, GoldenEdgeCasesOneAtATime) {
    Vaccel_requant m;
    reset(m);
    // docs/semantics.md's worked cases, each in lane 0 with a trivial clamp
    // (zy = 0, full range), checked through the int8 window by a small multiplier;
    // then left shifts: wrapping, onto INT32_MIN (saturating with it), by 30.
    const std::vector<Lane> cases = {
        {5, 1 << 30, 0},         {-5, 1 << 30, 0},       {-3, 1 << 30, 0},
        {-3, (1 << 30) + 1, 0},  {kMin, kMin, -31},      {kMin, kMax, -31},
        {kMax, kMax, -31},       {kMin, kMin, 0},        {10, 1 << 30, -1},
        {-10, 1 << 30, -1},      {-12, 1 << 30, -2},     {-10, 1 << 30, -2},
        {kMin, 0, 0},            {kMin, kMin + 1, -24},  {kMax, kMin, -24},
        {3, 1 << 20, 1},         {-3, 1 << 20, 4},       {1, 1 << 20, 30},
        {-1, 1 << 20, 30},       {3, 1 << 20, 30},       {kMin, 1 << 20, 1},
        {kMax, 1 << 20, 1},      {1 << 30, kMin, 1},     {-(1 << 30), kMin, 1},
        {1, kMin, 30},           {2, kMin, 30},          {kMin, kMin, 30},
        {(1 << 16) + 1, 1 << 8, 15}, {-(1 << 16) - 1, 1 << 8, 15},
        {-100, 1 << 28, 3},      {77, 1 << 29, 2},       {-5, 1 << 26, 4},
    };
    // Each case in both modes, and final-shift ties where they differ: -6 * 2^30 / 2^31
    // is -3, then -3 / 2 is -1.5: -2 away from zero, -1 upward.
    std::vector<Lane> both;
    for (Lane l : cases) {
        both.push_back(l);
        l.up = true;
        both.push_back(l);
    }
    for (bool up : {false, true}) {
        both.push_back({-6, 1 << 30, -1, up});
        both.push_back({6, 1 << 30, -1, up});
        both.push_back({-(3 << 20), 1 << 30, -20, up});
        both.push_back({kMin, 1 << 30, -31, up});
    }
    const std::vector<Lane>& all = both;
    size_t i = 0;
    auto next = [&] {
        Beat b;
        for (int j = 0; j < kLanes; ++j) b.lanes.push_back(all[(i + j) % all.size()]);
        ++i;
        b.zy = 0, b.lo = -128, b.hi = 127;
        return b;
    };
    const auto out = run(m, next, static_cast<int>(all.size()), 0.3, 11);
    EXPECT_EQ(out.size(), all.size() * kLanes);
}

TEST(Requant, RandomEdgeBiasedLanesMatchGolden) {
    Vaccel_requant m;
    reset(m);
    EdgeGen gen(2024);
    const int beats = 200000 / kLanes;
    const auto out = run(m, [&] { return gen.beat(); }, beats, 0.25, 5);
    EXPECT_EQ(out.size(), static_cast<size_t>(beats) * kLanes);
}

TEST(Requant, RealisticScalesSpreadOverInt8) {
    Vaccel_requant m;
    reset(m);
    std::mt19937 rng(99);
    auto next = [&] {
        Beat b;
        for (int j = 0; j < kLanes; ++j) {
            Lane l;
            l.acc = static_cast<int32_t>(rng() % (1u << 21)) - (1 << 20);
            l.mult = (1 << 30) + static_cast<int32_t>(rng() % (1u << 30));  // [0.5, 1)
            l.shift = (rng() % 4 == 0) ? -12 : -13;
            b.lanes.push_back(l);
        }
        b.zy = static_cast<int8_t>(static_cast<int>(rng() % 21) - 10);
        b.lo = -128, b.hi = 127;
        return b;
    };
    const auto out = run(m, next, 40000 / kLanes, 0.2, 6);
    ASSERT_FALSE(out.empty());
    std::set<int8_t> distinct(out.begin(), out.end());
    const auto clipped = std::count_if(out.begin(), out.end(), [](int8_t v) { return v == -128 || v == 127; });
    EXPECT_GE(distinct.size(), 230u) << "outputs do not exercise the int8 range";
    EXPECT_LT(clipped, static_cast<long>(out.size() / 5)) << "mostly clipped";
}

}  // namespace
}  // namespace accel::bench
