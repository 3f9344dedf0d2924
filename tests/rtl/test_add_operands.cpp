// accel_add_operands: every lane's sum bit-exact with accel::rescaled_sum (the host ADD
// kernel's and fsim's add mode's arithmetic), for TFLite-like operands (x + offset in
// [-255, 255], left shift 20, input rescalings at most 1/2) and for arbitrary int32
// operands, shifts and multipliers. A beat's two operands arrive one after the other,
// with random gaps between them and between beats, and each result and its tag must
// appear exactly the module's STAGES cycles after the second operand (the latency the
// cost model takes, hw/hw_params.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "Vaccel_add_operands.h"
#include "Vaccel_add_operands___024root.h"  // the elaborated parameters (built with --public)
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"
#include "ops/quant.hpp"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

constexpr int kLanes = static_cast<int>(Vaccel_add_operands___024root::accel_add_operands__DOT__LANES);
constexpr int kLatency = static_cast<int>(Vaccel_add_operands___024root::accel_add_operands__DOT__STAGES);
static_assert(kLatency == static_cast<int>(kAddOperandsLatency), "hw_params.hpp's latency");

struct Beat {
    std::vector<int32_t> a, b;
    QuantizedMultiplier qa{}, qb{};
    int shift = 0;
    uint32_t tag = 0;
};

struct Result {
    std::vector<int32_t> sums;
    uint32_t tag;
};

Result expected(const Beat& x) {
    Result r{{}, x.tag};
    for (int j = 0; j < kLanes; ++j) r.sums.push_back(rescaled_sum(x.a[j], x.b[j], x.shift, x.qa, x.qb));
    return r;
}

// Feeds `beats` beats from `next`, each as its two operands, with idle gaps, and checks
// each output against the beat whose second operand went in kLatency cycles before.
// Returns every lane's sum.
template <typename Next>
std::vector<int32_t> run(Vaccel_add_operands& m, Next next, int beats, uint32_t seed) {
    std::deque<std::optional<Result>> shadow(kLatency);
    std::mt19937 rng(seed);
    std::vector<int32_t> out;
    Beat x = next();
    bool second = false;  // the next operand to send is x's second
    for (int sent = 0, cycle = 0;
         sent < beats || std::any_of(shadow.begin(), shadow.end(), [](const auto& s) { return s.has_value(); });
         ++cycle) {
        const bool valid = sent < beats && rng() % 4 != 0;
        // idle cycles present an operand too, with the other flag: it must be ignored
        const bool flag = valid ? second : rng() % 2 == 0;
        const std::vector<int32_t>& acc = flag ? x.b : x.a;
        const QuantizedMultiplier& q = flag ? x.qb : x.qa;
        m.valid_i = valid;
        m.second_i = flag;
        for (int j = 0; j < kLanes; ++j) put_bits(m.acc_i, 32 * j, 32, static_cast<uint32_t>(acc[j]));
        put_bits(m.quant_i, 0, isa::kQuantLaneBits, isa::quant_lane(q.multiplier, q.shift));
        m.shift_i = static_cast<uint8_t>(x.shift);
        m.tag_i = x.tag;
        tick(m);
        const bool done = valid && second;  // a beat's second operand went in
        shadow.push_front(done ? std::optional<Result>(expected(x)) : std::nullopt);
        if (valid) {
            if (second) {
                ++sent;
                x = next();
            }
            second = !second;
        }
        shadow.pop_back();
        const std::optional<Result> due = shadow.back();  // presented kLatency ticks ago, this one included
        EXPECT_EQ(m.valid_o, due.has_value()) << "cycle " << cycle;
        if (!due || !m.valid_o) continue;
        EXPECT_EQ(m.tag_o, due->tag) << "cycle " << cycle;
        for (int j = 0; j < kLanes; ++j) {
            const auto got = static_cast<int32_t>(get_bits(m.sum_o, 32 * j, 32));
            if (got != due->sums[j]) {
                ADD_FAILURE() << "cycle " << cycle << " lane " << j << ": got " << got
                              << ", expected " << due->sums[j];
                return out;
            }
            out.push_back(got);
        }
    }
    return out;
}

TEST(AddOperands, TfliteLikeOperandsMatchTheHostKernel) {
    Vaccel_add_operands m;
    reset(m);
    std::mt19937 rng(7);
    Beat x;
    auto next = [&] {
        // New rescalings now and then, as from one ADD operator to the next: TFLite's
        // are below 1/2 (each input's scale over twice the larger one).
        if (rng() % 64 == 0 || x.a.empty()) {
            x.qa = {(1 << 30) + static_cast<int32_t>(rng() % (1u << 30)), -1 - static_cast<int>(rng() % 4)};
            x.qb = {(1 << 30) + static_cast<int32_t>(rng() % (1u << 30)), -1 - static_cast<int>(rng() % 4)};
            x.shift = 20;
            x.tag = static_cast<uint32_t>(rng()) & 1u;
        }
        x.a.clear(), x.b.clear();
        for (int j = 0; j < kLanes; ++j) {
            x.a.push_back(static_cast<int32_t>(rng() % 511) - 255);
            x.b.push_back(static_cast<int32_t>(rng() % 511) - 255);
        }
        return x;
    };
    const auto out = run(m, next, 40000 / kLanes, 3);
    ASSERT_EQ(out.size(), static_cast<size_t>(40000 / kLanes) * kLanes);
    const std::set<int32_t> distinct(out.begin(), out.end());
    EXPECT_GE(distinct.size(), 10000u) << "sums do not spread";
}

TEST(AddOperands, ArbitraryOperandsShiftsAndMultipliers) {
    Vaccel_add_operands m;
    reset(m);
    std::mt19937 rng(11);
    auto next = [&] {
        Beat x;
        for (int j = 0; j < kLanes; ++j) {
            x.a.push_back(static_cast<int32_t>(rng()) >> (rng() % 32));
            x.b.push_back(static_cast<int32_t>(rng()) >> (rng() % 32));
        }
        auto any = [&]() -> QuantizedMultiplier {
            const int shifts = isa::kPrmShiftMax - isa::kPrmShiftMin + 1;
            return {static_cast<int32_t>(rng()), isa::kPrmShiftMin + static_cast<int>(rng() % shifts)};
        };
        x.qa = any(), x.qb = any();
        x.shift = static_cast<int>(rng() % 32);
        x.tag = static_cast<uint32_t>(rng()) & 1u;
        return x;
    };
    const auto out = run(m, next, 100000 / kLanes, 5);
    EXPECT_EQ(out.size(), static_cast<size_t>(100000 / kLanes) * kLanes);
}

}  // namespace
}  // namespace accel::bench
