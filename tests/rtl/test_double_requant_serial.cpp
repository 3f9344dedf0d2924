// accel_double_requant_serial: a beat taken every LANES cycles or with gaps comes out
// whole, LATENCY cycles later, each lane bit-exact with clamp(zy +
// round_product_like_double(acc, decode_scale_word(word)), act_min, act_max). The
// arithmetic itself is accel_double_requant's, tested in its own bench; this one checks
// that the lanes go through it in turn and come back in their places, with the clamp of
// their own beat.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <vector>

#include "Vaccel_double_requant_serial.h"
#include "Vaccel_double_requant_serial___024root.h"  // the elaborated parameters (--public)
#include "bench_util.hpp"
#include "hw/hw_params.hpp"
#include "ops/double_rounding.hpp"
#include "ops/tflite_int32.hpp"

namespace accel::bench {
namespace {

using Model = Vaccel_double_requant_serial;
using Root = Vaccel_double_requant_serial___024root;
constexpr int kLanes = static_cast<int>(Root::accel_double_requant_serial__DOT__LANES);
constexpr int kLatency = static_cast<int>(Root::accel_double_requant_serial__DOT__LATENCY);

struct Beat {
    std::vector<int32_t> acc;
    std::vector<uint64_t> word;  // binary64 scale words
    int8_t zy = 0, lo = -128, hi = 127;
};

std::vector<int8_t> expected(const Beat& b) {
    std::vector<int8_t> q;
    for (int j = 0; j < kLanes; ++j) {
        const int32_t r = round_product_like_double(b.acc[j], decode_scale_word(b.word[j]));
        q.push_back(static_cast<int8_t>(std::clamp<int32_t>(wrapping_add(r, b.zy), b.lo, b.hi)));
    }
    return q;
}

// Scales of real models with accumulators whose products spread over int8, random zero
// points and clamps: each lane's result differs from its neighbours' in most beats.
Beat random_beat(std::mt19937_64& rng) {
    Beat b;
    std::uniform_real_distribution<double> decades(-4.0, -1.0);
    for (int j = 0; j < kLanes; ++j) {
        const double s = std::pow(10.0, decades(rng));
        std::uniform_real_distribution<double> acc(-150.0 / s, 150.0 / s);
        b.acc.push_back(static_cast<int32_t>(acc(rng)));
        b.word.push_back(std::bit_cast<uint64_t>(s));
    }
    b.zy = static_cast<int8_t>(rng());
    const auto x = static_cast<int8_t>(rng()), y = static_cast<int8_t>(rng());
    b.lo = rng() % 2 ? int8_t{-128} : std::min(x, y);
    b.hi = rng() % 2 ? int8_t{127} : std::max(x, y);
    return b;
}

void present(Model& m, const Beat& b) {
    for (int j = 0; j < kLanes; ++j) {
        put_bits(m.acc_i, 32 * j, 32, static_cast<uint32_t>(b.acc[j]));
        put_bits(m.scale_i, 64 * j, 64, b.word[j]);
    }
    m.zy_i = static_cast<uint8_t>(b.zy);
    m.act_min_i = static_cast<uint8_t>(b.lo);
    m.act_max_i = static_cast<uint8_t>(b.hi);
}

// Sends `beats` beats, each `kLanes` cycles or more after the one before (the extra
// cycles drawn from `gap`), with noise on the inputs between them, and checks every
// cycle's valid_o and, with it, the beat's results. Returns the beats that came out.
int run(Model& m, int beats, const std::function<int()>& gap, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::deque<std::vector<int8_t>> due(kLatency);  // empty: no beat out that cycle
    int sent = 0, out = 0, wait = 0;
    for (int cycle = 0; sent < beats || out < sent; ++cycle) {
        const bool take = sent < beats && wait == 0;
        const Beat b = random_beat(rng);
        present(m, b);
        m.valid_i = take;
        tick(m);
        due.push_front(take ? expected(b) : std::vector<int8_t>{});
        due.pop_back();
        if (take) ++sent, wait = kLanes - 1 + gap();
        else if (wait > 0) --wait;
        const std::vector<int8_t>& now = due.back();
        if ((m.valid_o != 0) == now.empty()) {
            ADD_FAILURE() << "cycle " << cycle << ": valid_o " << int{m.valid_o};
            return out;
        }
        if (now.empty()) continue;
        ++out;
        for (int j = 0; j < kLanes; ++j) {
            const auto got = static_cast<int8_t>(get_bits(m.q_o, 8 * j, 8));
            if (got != now[j]) {
                ADD_FAILURE() << "cycle " << cycle << " lane " << j << ": got " << int{got}
                              << ", expected " << int{now[j]};
                return out;
            }
        }
    }
    return out;
}

TEST(DoubleRequantSerial, LatencyIsTheLanesAfterTheLane) {
    // The drain's double-scale pipeline (rtl_timing.hpp): one accel_double_requant lane,
    // a beat's lanes a cycle each, after a cycle in the input register.
    EXPECT_EQ(kLatency, kLanes + static_cast<int>(kDoubleRequantLatency));
}

TEST(DoubleRequantSerial, BeatsBackToBack) {
    Model m;
    reset(m);
    EXPECT_EQ(run(m, 3000, [] { return 0; }, 1), 3000);
}

TEST(DoubleRequantSerial, BeatsWithGaps) {
    Model m;
    reset(m);
    std::mt19937 rng(2);
    EXPECT_EQ(run(m, 3000, [&] { return static_cast<int>(rng() % 4 == 0 ? rng() % 20 : 0); }, 3),
              3000);
}

}  // namespace
}  // namespace accel::bench
