// accel_double_requant: every lane bit-exact with clamp(zy + round_product_like_double(acc,
// decode_scale_word(word)), act_min, act_max), the sum wrapping in int32, through
// random en_i stalls and idle cycles, checked against a C++ shadow pipeline of LATENCY
// stages. Inputs: the scales of real models (outputs must spread over int8), products a
// few ulps from k + 1/2 (the double's own rounding must decide some), exact ties,
// results at the ends of int32 seen through the wrapping zero point, arbitrary 64-bit
// scale words (zero, subnormals, huge, infinity and NaN encodings, the sign bit set),
// and every kind of activation clamp.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "Vaccel_double_requant.h"
#include "Vaccel_double_requant___024root.h"  // the elaborated parameters (built with --public)
#include "bench_util.hpp"
#include "double_rounding_cases.hpp"
#include "hw/hw_params.hpp"
#include "ops/double_rounding.hpp"
#include "ops/tflite_int32.hpp"

namespace accel::bench {
namespace {

using Model = Vaccel_double_requant;
constexpr int kLanes = static_cast<int>(Vaccel_double_requant___024root::accel_double_requant__DOT__LANES);
constexpr int kLatency = static_cast<int>(Vaccel_double_requant___024root::accel_double_requant__DOT__LATENCY);
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();

struct Lane {
    int32_t acc = 0;
    uint64_t word = 0;  // the scale word: a binary64 encoding
};
struct Beat {
    std::vector<Lane> lanes;
    int8_t zy = 0, lo = -128, hi = 127;
};

int8_t expected(const Lane& l, const Beat& b) {
    const int32_t r = round_product_like_double(l.acc, decode_scale_word(l.word));
    return static_cast<int8_t>(std::clamp<int32_t>(wrapping_add(r, b.zy), b.lo, b.hi));
}

uint64_t word_of(double s) { return std::bit_cast<uint64_t>(s); }

// Presents one beat on the model's inputs.
void present(Model& m, const Beat& b) {
    for (int j = 0; j < kLanes; ++j) {
        put_bits(m.acc_i, 32 * j, 32, static_cast<uint32_t>(b.lanes[j].acc));
        put_bits(m.scale_i, 64 * j, 64, b.lanes[j].word);
    }
    m.zy_i = static_cast<uint8_t>(b.zy);
    m.act_min_i = static_cast<uint8_t>(b.lo);
    m.act_max_i = static_cast<uint8_t>(b.hi);
}

Beat noise(std::mt19937_64& rng) {
    Beat b;
    for (int j = 0; j < kLanes; ++j) b.lanes.push_back({static_cast<int32_t>(rng()), rng()});
    b.zy = static_cast<int8_t>(rng());
    b.lo = static_cast<int8_t>(rng());
    b.hi = static_cast<int8_t>(rng());
    return b;
}

// Sends `beats` beats from `next` with en_i low in a fraction `stall` of the cycles and
// valid_i low in a tenth; noise is presented whenever no beat is taken (valid_i is high
// on stalled cycles, which must ignore it). Compares every cycle with a shadow pipeline
// and returns each result once, in order.
std::vector<int8_t> run(Model& m, const std::function<Beat()>& next, int beats, double stall,
                        uint32_t seed) {
    std::deque<std::vector<int8_t>> shadow(kLatency);  // empty: no valid data in the stage
    Stalls stalls(seed, stall), idle(seed + 1, 0.1);
    std::mt19937_64 rng(seed + 2);
    std::vector<int8_t> out;
    int sent = 0, in_flight = 0;
    for (int cycle = 0; sent < beats || in_flight > 0; ++cycle) {
        const bool en = !stalls();
        const bool take = en && sent < beats && !idle();
        const Beat b = take ? next() : noise(rng);
        present(m, b);
        m.en_i = en;
        m.valid_i = take || !en;
        tick(m);
        if (en) {
            std::vector<int8_t> q;
            for (const Lane& l : b.lanes) {
                if (take) q.push_back(expected(l, b));
            }
            sent += take ? 1 : 0;
            in_flight += (take ? 1 : 0) - (shadow.back().empty() ? 0 : 1);
            shadow.push_front(std::move(q));
            shadow.pop_back();
        }
        const std::vector<int8_t>& last = shadow.back();
        if ((m.valid_o != 0) == last.empty()) {
            ADD_FAILURE() << "cycle " << cycle << ": valid_o " << int{m.valid_o};
            return out;
        }
        for (int j = 0; j < kLanes && !last.empty(); ++j) {
            const auto got = static_cast<int8_t>(get_bits(m.q_o, 8 * j, 8));
            if (got != last[j]) {
                ADD_FAILURE() << "cycle " << cycle << " lane " << j << ": got " << int{got}
                              << ", expected " << int{last[j]};
                return out;
            }
            if (en) out.push_back(got);
        }
    }
    return out;
}

// Activation clamps of every kind: none, ReLU and ReLU6 shapes, a single value, random.
void pick_clamp(Beat& b, std::mt19937_64& rng) {
    switch (rng() % 5) {
        case 0: b.lo = -128, b.hi = 127; break;
        case 1: b.lo = b.zy, b.hi = 127; break;
        case 2: b.lo = b.zy, b.hi = static_cast<int8_t>(std::min(127, b.zy + 60)); break;
        case 3: b.lo = b.hi = static_cast<int8_t>(rng()); break;
        default: {
            const auto x = static_cast<int8_t>(rng()), y = static_cast<int8_t>(rng());
            b.lo = std::min(x, y), b.hi = std::max(x, y);
        }
    }
}

// A model out of reset, and beats of lanes from a generator.
class DoubleRequant : public ::testing::Test {
protected:
    DoubleRequant() { reset(model_); }

    // Sends `lanes` lanes (a whole number of beats), each from `lane`, `shared` setting
    // each beat's zero point and clamp; returns every result, in order.
    std::vector<int8_t> send(int lanes, const std::function<Lane()>& lane,
                             const std::function<void(Beat&)>& shared, uint32_t seed) {
        const int beats = lanes / kLanes;
        const auto next = [&] {
            Beat b;
            for (int j = 0; j < kLanes; ++j) b.lanes.push_back(lane());
            shared(b);
            return b;
        };
        std::vector<int8_t> out = run(model_, next, beats, 0.25, seed);
        EXPECT_EQ(out.size(), static_cast<size_t>(beats) * kLanes);
        return out;
    }

    Model model_;
    std::mt19937_64 rng_{2026};
};

TEST_F(DoubleRequant, ParametersAreSane) {
    EXPECT_GE(kLanes, 1);
    EXPECT_EQ(kLatency, static_cast<int>(kDoubleRequantLatency));  // the cost model's (hw_params.hpp)
}

TEST_F(DoubleRequant, HandWorkedCases) {
    // {acc, s, zy, expected}: half away from zero, the double rounding 3 * (1/6 rounded
    // down) up to 0.5, 2^31 saturating to INT32_MIN and wrapping with the zero point.
    struct Case {
        int32_t acc;
        double s;
        int8_t zy, q;
    };
    const std::vector<Case> cases = {
        {5, 0.5, 0, 3},          {-5, 0.5, 0, -3},       {3, 0.5, 0, 2},
        {3, 0x1.5555555555555p-3, 0, 1}, {-3, 0x1.5555555555555p-3, 0, -1},
        {3, 0x1.aaaaaaaaaaaaap-1, 0, 3}, {100, 0.0, 7, 7},   {1000, 0.1, -10, 90},
        {2147483647, 1.0, 0, 127},       {2, 1073741823.75, 0, -128},
        {-2147483647, 1.0, -1, -128},    {-1, 2147483647.5, -1, 127},
        {kMin, 1.0, 0, -128},            {1, std::ldexp(1.0, -1074), 0, 0},
    };
    // Beat i: case i in lane 0 with its zero point, the next cases in the other lanes.
    size_t beat = 0, lane = 0;
    const auto next_lane = [&] {
        const Case& c = cases[(beat + lane) % cases.size()];
        lane = (lane + 1) % kLanes;
        return Lane{c.acc, word_of(c.s)};
    };
    const auto zero_point = [&](Beat& b) { b.zy = cases[beat++ % cases.size()].zy; };
    const auto out = send(static_cast<int>(cases.size()) * kLanes, next_lane, zero_point, 1);
    ASSERT_EQ(out.size(), cases.size() * kLanes);
    for (size_t c = 0; c < cases.size(); ++c) {
        EXPECT_EQ(int{out[c * kLanes]}, int{cases[c].q}) << "case " << c;
    }
}

TEST_F(DoubleRequant, ModelScalesSpreadOverInt8) {
    std::uniform_real_distribution<double> decades(-4.0, -1.0);
    const auto lane = [&] {
        const double s = std::pow(10.0, decades(rng_));
        const double spread = 150.0 / s;  // |acc * s| up to about 150
        std::uniform_real_distribution<double> acc(-spread, spread);
        return Lane{static_cast<int32_t>(acc(rng_)), word_of(s)};
    };
    const auto zero_point = [&](Beat& b) {
        b.zy = static_cast<int8_t>(static_cast<int>(rng_() % 21) - 10);
    };
    const auto out = send(40000, lane, zero_point, 3);
    ASSERT_FALSE(out.empty());
    const std::set<int8_t> distinct(out.begin(), out.end());
    const auto clipped =
        std::count_if(out.begin(), out.end(), [](int8_t v) { return v == -128 || v == 127; });
    EXPECT_GE(distinct.size(), 250u) << "outputs do not exercise the int8 range";
    EXPECT_LT(clipped, static_cast<long>(out.size() / 3)) << "mostly clipped";
}

// acc * s a few ulps from +-(k + 1/2), or exactly there, with the result inside the int8
// window (zy = 0), for accumulators of every size (large ones drop the most bits).
TEST_F(DoubleRequant, NearTiesAndExactTies) {
    int decided_by_double = 0;
    const auto lane = [&] {
        int32_t acc = test::random_acc(rng_);
        if (acc == 0) acc = 3;
        double s;
        if (rng_() % 4 == 0) {  // exact tie: odd * 2^t times an odd mantissa * 2^(-t-1)
            const int t = static_cast<int>(rng_() % 27);
            const auto odd = static_cast<int32_t>(rng_() % 32 | 1);
            acc = (acc < 0 ? -odd : odd) * (1 << t);
            s = std::ldexp(static_cast<double>(rng_() % 16 | 1), -t - 1);
        } else {
            const double k = static_cast<double>(rng_() % 120) + 0.5;
            s = test::scale_near(acc, acc < 0 ? -k : k, static_cast<int>(rng_() % 9) - 4);
        }
        const int32_t r = round_product_like_double(acc, decompose_scale(s));
        if (r != kMin && test::exact_rounding(acc, s) != r) ++decided_by_double;
        return Lane{acc, word_of(s)};
    };
    send(800000, lane, [](Beat&) {}, 5);
    EXPECT_GT(decided_by_double, 10000) << "the double's own rounding is hardly exercised";
}

// Results near +-2^31 (as the int8 output shows them: R = 2^31 - 1 and INT32_MIN differ
// for zy = 0; -2^31 + 1 and INT32_MIN for zy = -1; 2^31 - 2 and 2^31 - 1 for zy = 1).
TEST_F(DoubleRequant, Int32EdgeThroughTheZeroPoint) {
    constexpr double kEdges[] = {2147483646.5, 2147483647.0, 2147483647.5, 2147483648.0,
                                 2147483648.5};
    const auto lane = [&] {
        int32_t acc = test::random_acc(rng_);
        if (acc == 0) acc = kMin;
        const double edge = (acc < 0 ? -1.0 : 1.0) * kEdges[rng_() % std::size(kEdges)];
        return Lane{acc, word_of(test::scale_near(acc, edge, static_cast<int>(rng_() % 7) - 3))};
    };
    const auto zero_point = [&](Beat& b) {
        b.zy = static_cast<int8_t>(static_cast<int>(rng_() % 3) - 1);
    };
    const auto out = send(60000, lane, zero_point, 7);
    EXPECT_EQ(std::set<int8_t>(out.begin(), out.end()), (std::set<int8_t>{-128, 127}))
        << "both ends must occur";
}

// Arbitrary 64-bit scale words (the sign bit random): every biased exponent in turn, or
// one of the normal range (991..1053); random zero points and clamps of every kind.
TEST_F(DoubleRequant, AnyScaleWordAnyClamp) {
    uint64_t exponent = 0;
    const auto lane = [&] {
        const uint64_t e = rng_() % 2 ? exponent++ % 2048 : 991 + rng_() % 63;
        return Lane{test::random_acc(rng_), (rng_() & 0x800f'ffff'ffff'ffffULL) | e << 52};
    };
    const auto shared = [&](Beat& b) {
        b.zy = static_cast<int8_t>(rng_());
        pick_clamp(b, rng_);
    };
    send(800000, lane, shared, 9);
}

}  // namespace
}  // namespace accel::bench
