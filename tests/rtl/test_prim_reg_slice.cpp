// accel_prim_reg_slice: under random upstream valids and downstream readies every
// transfer comes out once, in order, unchanged; the upstream ready and the downstream
// valid and data are registers (flipping the other side's inputs within a cycle moves
// none of them); and with both sides always willing it moves one transfer a cycle after
// its one cycle of latency.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>

#include "Vaccel_prim_reg_slice.h"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

using Model = Vaccel_prim_reg_slice;

// Sets the inputs for the cycle and checks that the outputs do not depend on them.
void drive(Model& m, bool s_valid, uint64_t s_data, bool m_ready) {
    m.s_valid_i = !s_valid, m.s_data_i = ~s_data, m.m_ready_i = !m_ready;
    m.eval();
    const bool ready = m.s_ready_o, valid = m.m_valid_o;
    const uint64_t data = m.m_data_o;
    m.s_valid_i = s_valid, m.s_data_i = s_data, m.m_ready_i = m_ready;
    m.eval();
    ASSERT_EQ(m.s_ready_o, ready);
    ASSERT_EQ(m.m_valid_o, valid);
    if (valid) ASSERT_EQ(m.m_data_o, data);
}

TEST(PrimRegSlice, EveryTransferOnceInOrderUnderRandomHandshakes) {
    Model m;
    m.s_valid_i = 0, m.m_ready_i = 0;
    reset(m);
    std::mt19937_64 rng(7);
    std::deque<uint64_t> sent;  // accepted upstream, not yet delivered downstream
    uint64_t offer = rng(), delivered = 0;
    bool offering = false;
    for (int i = 0; i < 200000; ++i) {
        if (!offering) offering = rng() % 3 != 0;  // an offer stays until taken
        const bool ready = rng() % 4 != 0;
        drive(m, offering, offer, ready);
        if (m.m_valid_o && ready) {
            ASSERT_FALSE(sent.empty()) << "cycle " << i << ": a transfer out of nowhere";
            ASSERT_EQ(m.m_data_o, sent.front()) << "cycle " << i;
            sent.pop_front();
            ++delivered;
        }
        if (offering && m.s_ready_o) {
            sent.push_back(offer);
            offer = rng(), offering = false;
        }
        tick(m);
        ASSERT_LE(sent.size(), 2u) << "the slice holds two transfers at most";
    }
    EXPECT_GT(delivered, 100000u);
}

TEST(PrimRegSlice, OneTransferACycleWhenBothSidesAreWilling) {
    Model m;
    m.s_valid_i = 0, m.m_ready_i = 0;
    reset(m);
    for (uint64_t i = 0; i < 100; ++i) {
        drive(m, true, 1000 + i, true);
        ASSERT_TRUE(m.s_ready_o) << "cycle " << i;
        ASSERT_EQ(m.m_valid_o != 0, i >= 1) << "cycle " << i;
        if (i >= 1) ASSERT_EQ(m.m_data_o, 1000 + i - 1) << "one cycle of latency";
        tick(m);
    }
}

}  // namespace
}  // namespace accel::bench
