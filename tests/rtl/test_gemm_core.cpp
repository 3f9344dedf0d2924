// accel_gemm_core: a stream of random operand sets (with random idle cycles) against a C++
// dot-product model, the int8 extremes in every lane, and the fixed latency.
//
// The bench is built for several parameter sets (tests/rtl/CMakeLists.txt) and reads
// them, and the core's LATENCY, from the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vaccel_gemm_core.h"
#include "Vaccel_gemm_core___024root.h"  // the elaborated parameters (built with --public)
#include "bench_util.hpp"

namespace accel::bench {
namespace {

// ---- the elaborated parameters (the model is built with --public)
using Root = Vaccel_gemm_core___024root;
constexpr int kBatch = Root::accel_gemm_core__DOT__BATCH;
constexpr int kBlockIn = Root::accel_gemm_core__DOT__BLOCK_IN;
constexpr int kBlockOut = Root::accel_gemm_core__DOT__BLOCK_OUT;
constexpr int kLatency = Root::accel_gemm_core__DOT__LATENCY;
constexpr std::size_t kInpBytes = std::size_t(kBatch) * kBlockIn;
constexpr std::size_t kWgtBytes = std::size_t(kBlockOut) * kBlockIn;
constexpr std::size_t kLanes = std::size_t(kBatch) * kBlockOut;
static_assert(kLatency >= 1);

struct Operands {
    std::vector<int8_t> inp;  // [b][i]
    std::vector<int8_t> wgt;  // [o][i]
};

std::vector<uint32_t> pack(const std::vector<int8_t>& bytes) {
    std::vector<uint32_t> w((bytes.size() + 3) / 4, 0);
    for (std::size_t k = 0; k < bytes.size(); ++k) {
        w[k / 4] |= uint32_t{static_cast<uint8_t>(bytes[k])} << (8 * (k % 4));
    }
    return w;
}

std::vector<int32_t> model(const Operands& x) {
    std::vector<int32_t> sum(kLanes, 0);
    for (int b = 0; b < kBatch; ++b)
        for (int o = 0; o < kBlockOut; ++o)
            for (int i = 0; i < kBlockIn; ++i)
                sum[b * kBlockOut + o] += int32_t{x.inp[b * kBlockIn + i]} * x.wgt[o * kBlockIn + i];
    return sum;
}

// Mostly uniform bytes, sometimes the extremes, so that sums reach their limits.
int8_t random_byte(std::mt19937& rng) {
    switch (rng() % 8) {
        case 0: return -128;
        case 1: return 127;
        default: return static_cast<int8_t>(rng());
    }
}

Operands random_operands(std::mt19937& rng) {
    Operands x{std::vector<int8_t>(kInpBytes), std::vector<int8_t>(kWgtBytes)};
    for (auto& v : x.inp) v = random_byte(rng);
    for (auto& v : x.wgt) v = random_byte(rng);
    return x;
}

// Value-parameterised only to put the parameter set into the test names, which must
// differ between the bench's executables.
class GemmCore : public ::testing::TestWithParam<int> {
protected:
    Vaccel_gemm_core m;
    int cycle = 0;
    // Sums expected, with the cycle whose tick makes them visible.
    std::deque<std::pair<int, std::vector<int32_t>>> expected;

    void SetUp() override {
        m.valid_i = 0;
        reset(m);
    }

    // One cycle: present `x` (or nothing), clock, then check the outputs of the next
    // cycle against the model.
    void step(const Operands* x) {
        m.valid_i = x != nullptr;
        if (x) {
            put_words(m.inp_i, pack(x->inp));
            put_words(m.wgt_i, pack(x->wgt));
            // Presented in this cycle: valid_o in cycle + kLatency, visible after the
            // tick of cycle + kLatency - 1.
            expected.emplace_back(cycle + kLatency - 1, model(*x));
        }
        tick(m);
        const bool due = !expected.empty() && expected.front().first == cycle;
        ASSERT_EQ(m.valid_o, due) << "cycle " << cycle;
        if (due) {
            for (std::size_t l = 0; l < kLanes; ++l) {
                ASSERT_EQ(static_cast<int32_t>(word(m.sum_o, l)), expected.front().second[l])
                    << "cycle " << cycle << " lane " << l;
            }
            expected.pop_front();
        }
        ++cycle;
    }

    void drain() {
        for (int i = 0; i < kLatency + 1; ++i) step(nullptr);
        EXPECT_TRUE(expected.empty());
    }
};

TEST_P(GemmCore, RandomStreamMatchesModel) {
    std::mt19937 rng(11);
    Stalls idle(12, 0.3);
    int32_t lo = 0, hi = 0;
    for (int n = 0; n < 3000; ++n) {
        if (idle()) {
            step(nullptr);
        } else {
            const Operands x = random_operands(rng);
            for (int32_t s : model(x)) lo = std::min(lo, s), hi = std::max(hi, s);
            step(&x);
        }
        if (HasFatalFailure()) return;
    }
    drain();
    // The data exercised the arithmetic: sums of both signs, of a large magnitude.
    EXPECT_LT(lo, -kBlockIn * 4000);
    EXPECT_GT(hi, kBlockIn * 4000);
}

TEST_P(GemmCore, ExtremesInEveryLane) {
    const int8_t values[] = {-128, 127, -1, 0, 1};
    for (int8_t a : values) {
        for (int8_t w : values) {
            Operands x{std::vector<int8_t>(kInpBytes, a), std::vector<int8_t>(kWgtBytes, w)};
            step(&x);
            if (HasFatalFailure()) return;
        }
    }
    drain();
    // -128 * -128 in all lanes: the largest sum, BLOCK_IN * 16384.
    Operands x{std::vector<int8_t>(kInpBytes, -128), std::vector<int8_t>(kWgtBytes, -128)};
    step(&x);
    for (int i = 1; i < kLatency; ++i) step(nullptr);
    ASSERT_TRUE(m.valid_o);
    for (std::size_t l = 0; l < kLanes; ++l) EXPECT_EQ(static_cast<int32_t>(word(m.sum_o, l)), kBlockIn * 16384);
    expected.clear();
}

TEST_P(GemmCore, LanesAreIndependent) {
    // One non-zero input and one non-zero weight at a time: exactly one lane (b, o)
    // sees their product.
    std::mt19937 rng(5);
    for (int n = 0; n < 200; ++n) {
        Operands x{std::vector<int8_t>(kInpBytes, 0), std::vector<int8_t>(kWgtBytes, 0)};
        x.inp[rng() % kInpBytes] = random_byte(rng);
        x.wgt[rng() % kWgtBytes] = random_byte(rng);
        step(&x);
        if (HasFatalFailure()) return;
    }
    drain();
}

TEST_P(GemmCore, FixedLatencyAndHeldOutput) {
    std::mt19937 rng(3);
    const Operands x = random_operands(rng);
    const auto sum = model(x);
    step(&x);  // step() checks valid_o low until kLatency cycles have passed, then high
    for (int i = 1; i < kLatency; ++i) step(nullptr);
    ASSERT_FALSE(HasFatalFailure());
    ASSERT_TRUE(expected.empty());
    // Without valid_i the sums stay; valid_o drops.
    for (int i = 0; i < 4; ++i) {
        step(nullptr);
        ASSERT_FALSE(HasFatalFailure());
        for (std::size_t l = 0; l < kLanes; ++l) EXPECT_EQ(static_cast<int32_t>(word(m.sum_o, l)), sum[l]);
    }
}

TEST_P(GemmCore, ResetClearsValid) {
    std::mt19937 rng(4);
    const Operands x = random_operands(rng);
    m.valid_i = 1;
    put_words(m.inp_i, pack(x.inp));
    put_words(m.wgt_i, pack(x.wgt));
    tick(m);
    m.valid_i = 0;
    reset(m, 1);
    for (int i = 0; i < 3; ++i) {
        tick(m);
        EXPECT_FALSE(m.valid_o);
    }
}

std::string params_name(const ::testing::TestParamInfo<int>&) {
    return "B" + std::to_string(kBatch) + "_I" + std::to_string(kBlockIn) + "_O" + std::to_string(kBlockOut);
}
INSTANTIATE_TEST_SUITE_P(Params, GemmCore, ::testing::Values(0), params_name);

}  // namespace
}  // namespace accel::bench
