// accel_token_queue: the count against a C++ model under random push/pop/clear traffic that
// reaches both 0 and MAX many times: avail_o, the overflow pulse (same cycle, token
// dropped), push+pop leaving the count, clear winning over everything, and a pop of an
// empty queue (a contract violation) failing the queue's assertion and being ignored.
//
// Two models (tests/rtl/CMakeLists.txt): MAX 255 (the ISA's queues) and MAX 3; each
// bench reads MAX from its model (--public).
#include <gtest/gtest.h>

#include <algorithm>

#include "Vaccel_token_queue.h"
#include "Vaccel_token_queue___024root.h"
#include "Vaccel_token_queue_max3.h"
#include "Vaccel_token_queue_max3___024root.h"
#include "hw/hw_params.hpp"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

struct Coverage {
    int overflows = 0, push_pop_at_max = 0, push_pop_at_zero = 0, pop_empty = 0;
    int clears = 0, clear_with_push_at_max = 0, at_max = 0, at_zero = 0;
};

template <typename M, typename Root>
class TokenBench {
public:
    static constexpr uint32_t kMax = Root::accel_token_queue__DOT__MAX;

    explicit TokenBench(uint32_t seed) : rng_(seed) {
        m_.clear_i = m_.push_i = m_.pop_i = 0;
        reset(m_);
    }

    void cycle(bool clear, bool push, bool pop) {
        m_.clear_i = clear;
        m_.push_i = push;
        m_.pop_i = pop;
        m_.eval();
        const bool overflow = !clear && push && !pop && count_ == kMax;
        ASSERT_EQ(bool(m_.avail_o), count_ > 0) << "cycle " << cycle_;
        ASSERT_EQ(bool(m_.overflow_o), overflow) << "cycle " << cycle_ << " count " << count_;
        cov_.overflows += overflow;
        cov_.push_pop_at_max += !clear && push && pop && count_ == kMax;
        cov_.push_pop_at_zero += !clear && push && pop && count_ == 0;
        cov_.pop_empty += !clear && !push && pop && count_ == 0;
        cov_.clears += clear;
        cov_.clear_with_push_at_max += clear && push && count_ == kMax;
        cov_.at_max += count_ == kMax;
        cov_.at_zero += count_ == 0;
        tick(m_);
        ++cycle_;
        if (clear) {
            count_ = 0;
        } else if (push && !pop) {
            count_ = std::min(count_ + 1, kMax);
        } else if (pop && !push && count_ > 0) {
            --count_;
        }
    }

    // Phases that fill, drain or balance, with stalls on both sides; pops only when a
    // token is there or comes (the units' contract, which the queue asserts).
    void random_traffic(int cycles) {
        const double phases[][2] = {{0.1, 0.9}, {0.5, 0.5}, {0.9, 0.1}, {0.3, 0.3}};
        const int phase_len = 3 * static_cast<int>(kMax) + 50;
        std::bernoulli_distribution clear(0.002);
        for (int i = 0; i < cycles && !::testing::Test::HasFatalFailure(); ++i) {
            if (i % phase_len == 0) {
                const auto& ph = phases[(i / phase_len) % 4];
                no_push_ = Stalls(rng_(), ph[0]);
                no_pop_ = Stalls(rng_(), ph[1]);
            }
            const bool push = !no_push_();
            bool pop = !no_pop_();
            pop = pop && (count_ > 0 || push);
            cycle(clear(rng_), push, pop);
        }
    }

    const Coverage& coverage() const { return cov_; }
    uint32_t count() const { return count_; }
    M& model() { return m_; }

private:
    M m_;
    std::mt19937 rng_;
    Stalls no_push_{0, 0.5}, no_pop_{0, 0.5};
    uint32_t count_ = 0;
    Coverage cov_;
    int cycle_ = 0;
};

template <typename M, typename Root>
void random_test(uint32_t seed, int cycles) {
    TokenBench<M, Root> b(seed);
    b.random_traffic(cycles);
    if (::testing::Test::HasFatalFailure()) return;
    const Coverage& c = b.coverage();
    EXPECT_GT(c.overflows, 20);
    EXPECT_GT(c.push_pop_at_max, 5);
    EXPECT_GT(c.push_pop_at_zero, 5);
    EXPECT_GT(c.clears, 5);
    EXPECT_GT(c.at_max, 50);
    EXPECT_GT(c.at_zero, 50);
}

TEST(TokenQueue, RandomTrafficMatchesModelMax255) {
    random_test<Vaccel_token_queue, Vaccel_token_queue___024root>(11, 60000);
}
TEST(TokenQueue, RandomTrafficMatchesModelMax3) {
    random_test<Vaccel_token_queue_max3, Vaccel_token_queue_max3___024root>(12, 20000);
}

TEST(TokenQueue, DefaultIsTheIsaLimit) {
    EXPECT_EQ(Vaccel_token_queue___024root::accel_token_queue__DOT__MAX, kTokenMax);
}

// Directed: fill to MAX; a further push overflows and is dropped; push+pop at MAX is no
// overflow; clear beats a push at MAX; a pop of an empty queue fails the assertion
// and is ignored.
TEST(TokenQueue, OverflowDropsAndClearWins) {
    TokenBench<Vaccel_token_queue_max3, Vaccel_token_queue_max3___024root> b(13);
    AssertionWatch watch(b.model().contextp());
    for (int i = 0; i < 3; ++i) b.cycle(false, true, false);
    b.cycle(false, true, false);  // overflow: dropped
    b.cycle(false, true, true);   // at MAX with a pop: no overflow
    EXPECT_EQ(b.count(), 3u);
    b.cycle(true, true, false);   // clear wins, no overflow
    EXPECT_EQ(b.count(), 0u);
    b.cycle(false, false, false);
    EXPECT_FALSE(watch.failed());  // an overflow is the program's error, not the RTL's
    b.cycle(false, false, true);  // pop of an empty queue: ignored
    EXPECT_TRUE(watch.failed());
    b.cycle(false, true, false);
    EXPECT_EQ(b.count(), 1u);
    EXPECT_EQ(b.coverage().pop_empty, 1);
    EXPECT_EQ(b.coverage().overflows, 1);
}

}  // namespace
}  // namespace accel::bench
