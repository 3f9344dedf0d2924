// accel_prim_fifo_sync: show-ahead behaviour, full/empty flags and data order against a C++ deque,
// under random push/pop pressure that fills and empties the FIFO many times; and the
// contract: a push while full or a pop while empty fails the FIFO's assertion, and the
// guards ignore it.
//
// Four models (tests/rtl/CMakeLists.txt): the default 512 x 8, the instruction queues
// (512 x 8 with PUSH_STAGE 1: an entry lands the cycle after its push), 40 x 3 and
// 24 x 1. Each bench reads WIDTH, DEPTH and PUSH_STAGE from its model (--public).
#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "Vaccel_prim_fifo_sync.h"
#include "Vaccel_prim_fifo_sync___024root.h"
#include "Vaccel_prim_fifo_sync_d1.h"
#include "Vaccel_prim_fifo_sync_d1___024root.h"
#include "Vaccel_prim_fifo_sync_d3.h"
#include "Vaccel_prim_fifo_sync_d3___024root.h"
#include "Vaccel_prim_fifo_sync_queue.h"
#include "Vaccel_prim_fifo_sync_queue___024root.h"
#include "bench_util.hpp"
#include "hw/hw_params.hpp"

namespace accel::bench {
namespace {

using Bytes = std::vector<uint8_t>;

template <typename T>
Bytes get_bytes(const T& s, std::size_t n) {
    if constexpr (std::is_integral_v<T>) {
        return int_bytes(s, n);
    } else {
        Bytes b = wide_bytes(s);
        b.resize(n);
        return b;
    }
}

template <typename T>
void set_bytes(T& s, const Bytes& b) {
    if constexpr (std::is_integral_v<T>) {
        uint64_t v = 0;
        for (std::size_t i = 0; i < b.size(); ++i) v |= uint64_t{b[i]} << (8 * i);
        s = static_cast<T>(v);
    } else {
        set_wide_bytes(s, b);
    }
}

// What happened over a run, to prove that the interesting cases occurred.
struct Coverage {
    int pushes = 0, pops = 0, both = 0;
    int full_cycles = 0, empty_cycles = 0;
    int push_while_full = 0, push_pop_while_full = 0;
    int pop_while_empty = 0, push_pop_while_empty = 0;
};

template <typename M, typename Root>
class FifoBench {
public:
    static constexpr unsigned kWidth = Root::accel_prim_fifo_sync__DOT__WIDTH;
    static constexpr unsigned kDepth = Root::accel_prim_fifo_sync__DOT__DEPTH;
    static constexpr bool kPushStage = Root::accel_prim_fifo_sync__DOT__PUSH_STAGE != 0;
    static constexpr std::size_t kBytes = kWidth / 8;
    static_assert(kWidth % 8 == 0, "bench assumes whole bytes");

    explicit FifoBench(uint32_t seed) : rng_(seed) {
        m_.push_i = 0;
        m_.pop_i = 0;
        reset(m_);
    }

    Bytes random_entry() {
        Bytes b(kBytes);
        for (auto& x : b) x = static_cast<uint8_t>(rng_());
        return b;
    }

    // One cycle with the given requests; checks the outputs before the edge against
    // the model and applies what the FIFO must accept.
    void cycle(bool push, bool pop) {
        const Bytes data = random_entry();
        set_bytes(m_.wdata_i, data);
        m_.push_i = push;
        m_.pop_i = pop;
        m_.eval();
        const bool full = size() == kDepth, empty = model_.empty();
        ASSERT_EQ(bool(m_.full_o), full) << "cycle " << cycle_;
        ASSERT_EQ(bool(m_.empty_o), empty) << "cycle " << cycle_;
        if (!empty) {
            ASSERT_EQ(get_bytes(m_.rdata_o, kBytes), model_.front()) << "cycle " << cycle_;
        }
        cov_.full_cycles += full;
        cov_.empty_cycles += empty;
        cov_.push_while_full += push && full && !pop;
        cov_.push_pop_while_full += push && full && pop;
        cov_.pop_while_empty += pop && empty && !push;
        cov_.push_pop_while_empty += pop && empty && push;
        const bool do_push = push && !full, do_pop = pop && !empty;
        cov_.pushes += do_push;
        cov_.pops += do_pop;
        cov_.both += do_push && do_pop;
        tick(m_);
        ++cycle_;
        if (do_pop) model_.pop_front();
        if (pending_) model_.push_back(*pending_);  // the push of the last cycle lands
        pending_.reset();
        if (do_push && kPushStage) pending_ = data;
        if (do_push && !kPushStage) model_.push_back(data);
    }

    // Random traffic in phases that lean towards filling, draining or balance, within the
    // contract (a violation would stop the simulation at the FIFO's assertion).
    void random_traffic(int cycles) {
        const double phases[][2] = {{0.2, 0.8}, {0.5, 0.5}, {0.8, 0.2}, {0.1, 0.1}, {0.9, 0.9}};
        for (int i = 0; i < cycles && !::testing::Test::HasFatalFailure(); ++i) {
            const auto& ph = phases[(i / 97) % 5];
            if (i % 97 == 0) no_push_ = Stalls(rng_(), ph[0]), no_pop_ = Stalls(rng_(), ph[1]);
            cycle(!no_push_() && size() < kDepth, !no_pop_() && !model_.empty());
        }
    }

    const Coverage& coverage() const { return cov_; }
    // Entries pushed and not popped: full_o counts an entry from the cycle after its push.
    std::size_t size() const { return model_.size() + pending_.has_value(); }
    M& model() { return m_; }

private:
    M m_;
    std::mt19937 rng_;
    Stalls no_push_{0, 0.5}, no_pop_{0, 0.5};
    std::deque<Bytes> model_;       // the entries written, head first
    std::optional<Bytes> pending_;  // PUSH_STAGE: pushed last cycle, written at this edge
    Coverage cov_;
    int cycle_ = 0;
};

template <typename M, typename Root>
void random_test(uint32_t seed) {
    FifoBench<M, Root> b(seed);
    b.random_traffic(20000);
    if (::testing::Test::HasFatalFailure()) return;
    const Coverage& c = b.coverage();
    EXPECT_GT(c.full_cycles, 100);
    EXPECT_GT(c.empty_cycles, 100);
    // with one entry, a push is taken only when empty, so never together with a pop
    if (FifoBench<M, Root>::kDepth > 1) {
        EXPECT_GT(c.both, 100);
    }
}

TEST(PrimFifoSync, RandomTrafficMatchesModel512x8) {
    random_test<Vaccel_prim_fifo_sync, Vaccel_prim_fifo_sync___024root>(1);
}
TEST(PrimFifoSync, RandomTrafficMatchesModel40x3) {
    random_test<Vaccel_prim_fifo_sync_d3, Vaccel_prim_fifo_sync_d3___024root>(2);
}
TEST(PrimFifoSync, RandomTrafficMatchesModel24x1) {
    random_test<Vaccel_prim_fifo_sync_d1, Vaccel_prim_fifo_sync_d1___024root>(3);
}

TEST(PrimFifoSync, RandomTrafficMatchesModelInstructionQueue) {
    random_test<Vaccel_prim_fifo_sync_queue, Vaccel_prim_fifo_sync_queue___024root>(5);
}

TEST(PrimFifoSync, DefaultIsTheInstructionQueuesSize) {
    EXPECT_EQ(Vaccel_prim_fifo_sync___024root::accel_prim_fifo_sync__DOT__WIDTH, 512);
    EXPECT_EQ(Vaccel_prim_fifo_sync___024root::accel_prim_fifo_sync__DOT__DEPTH, 8);
    EXPECT_EQ(Vaccel_prim_fifo_sync___024root::accel_prim_fifo_sync__DOT__PUSH_STAGE, 0);
}

// The cost model starts an instruction kQueueLatency cycles after its dispatch: the
// instruction queue's entry is the head exactly that many cycles after its push, without
// and with a pop of the head before it in the same cycle.
TEST(PrimFifoSync, TheInstructionQueuesHeadComesKQueueLatencyCyclesAfterThePush) {
    using Queue = FifoBench<Vaccel_prim_fifo_sync_queue, Vaccel_prim_fifo_sync_queue___024root>;
    static_assert(Queue::kPushStage, "the instruction queue's model registers its pushes");
    for (const bool after_a_pop : {false, true}) {
        Queue b(6);
        if (after_a_pop) {
            b.cycle(true, false);
            b.cycle(false, false);
            ASSERT_FALSE(b.model().empty_o);
        }
        b.cycle(true, after_a_pop);  // the push (and the pop of the entry before it)
        int cycles = 1;
        while (b.model().empty_o && cycles < 10) {
            b.cycle(false, false);
            ++cycles;
        }
        EXPECT_EQ(cycles, int(kQueueLatency)) << "after a pop: " << after_a_pop;
    }
}

// Directed: the head is visible the cycle after its push; fill to full, then push with
// and without a pop (both ignored); drain to empty, then pop with and without a push
// (the pop is ignored, the push is taken). Each broken request fails the FIFO's
// assertion, with its message, and the guards still hold: cycle() checks every output
// against the model.
TEST(PrimFifoSync, ContractViolationsFailAssertionsAndAreIgnored) {
    FifoBench<Vaccel_prim_fifo_sync, Vaccel_prim_fifo_sync___024root> b(4);
    AssertionWatch watch(b.model().contextp());
    auto broken = [&](bool push, bool pop, const char* message) {
        ::testing::internal::CaptureStdout();
        b.cycle(push, pop);
        const std::string printed = ::testing::internal::GetCapturedStdout();
        EXPECT_TRUE(watch.failed()) << message;
        EXPECT_NE(printed.find(message), std::string::npos) << printed;
    };
    b.cycle(false, false);
    b.cycle(true, false);
    EXPECT_FALSE(b.model().empty_o);  // head already visible
    for (int i = 0; i < 7; ++i) b.cycle(true, false);
    EXPECT_TRUE(b.model().full_o);
    EXPECT_FALSE(watch.failed());  // within the contract so far
    broken(true, false, "a_no_overflow: push_i |-> !full_o");  // ignored
    broken(true, true, "a_no_overflow: push_i |-> !full_o");   // pop only
    EXPECT_EQ(b.size(), 7u);
    for (int i = 0; i < 7; ++i) b.cycle(false, true);
    EXPECT_TRUE(b.model().empty_o);
    EXPECT_FALSE(watch.failed());
    broken(false, true, "a_no_underflow: pop_i |-> !empty_o");  // ignored
    broken(true, true, "a_no_underflow: pop_i |-> !empty_o");   // push only
    EXPECT_EQ(b.size(), 1u);
    const Coverage& c = b.coverage();
    EXPECT_EQ(c.push_while_full, 1);
    EXPECT_EQ(c.push_pop_while_full, 1);
    EXPECT_EQ(c.pop_while_empty, 1);
    EXPECT_EQ(c.push_pop_while_empty, 1);
}

}  // namespace
}  // namespace accel::bench
