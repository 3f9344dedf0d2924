// accel_prim_mul_reg: p_o is the exact product of the operands loaded by in_ce_i, taken
// when out_ce_i loads it, in the module's widths and signedness (read from the elaborated
// parameters). The enables come at random, so that the bench sees operands held across
// several products, products held across several loads, and both in one cycle. Built
// twice: as plain registers, and as the ECP5 MULT18X18D (ACCEL_ECP5) on the netlist
// simulation's cell model, in several widths.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "Vaccel_prim_mul_reg.h"
#include "Vaccel_prim_mul_reg___024root.h"  // the elaborated parameters (--public)
#include "bench_util.hpp"

namespace accel::bench {
namespace {

using Root = Vaccel_prim_mul_reg___024root;
constexpr int kAW = static_cast<int>(Root::accel_prim_mul_reg__DOT__A_W);
constexpr int kBW = static_cast<int>(Root::accel_prim_mul_reg__DOT__B_W);
constexpr bool kASigned = Root::accel_prim_mul_reg__DOT__A_SIGNED != 0;
constexpr bool kBSigned = Root::accel_prim_mul_reg__DOT__B_SIGNED != 0;

int64_t value(uint64_t bits, int width, bool is_signed) {
    const bool negative = is_signed && ((bits >> (width - 1)) & 1) != 0;
    return negative ? static_cast<int64_t>(bits) - (int64_t{1} << width) : static_cast<int64_t>(bits);
}

TEST(PrimMulReg, ProductOfTheLoadedOperands) {
    Vaccel_prim_mul_reg m;
    std::mt19937_64 rng(3);
    const uint64_t a_mask = (uint64_t{1} << kAW) - 1, b_mask = (uint64_t{1} << kBW) - 1;
    const uint64_t p_mask = (uint64_t{1} << (kAW + kBW)) - 1;
    // The extremes of each operand first: the sign bit alone, all ones, 0, 1.
    const uint64_t a_edges[] = {0, 1, a_mask, a_mask >> 1, (a_mask >> 1) + 1};
    const uint64_t b_edges[] = {0, 1, b_mask, b_mask >> 1, (b_mask >> 1) + 1};
    uint64_t a = 0, b = 0;  // loaded operands
    bool loaded = false, produced = false;
    uint64_t want = 0;
    int checked = 0;
    for (int i = 0; i < 100000; ++i) {
        const bool edge = i < 50;
        const bool in_ce = edge || rng() % 3 != 0;
        const bool out_ce = edge || rng() % 3 != 0;
        const uint64_t a_in = edge ? a_edges[(i / 2) % 5] : rng() & a_mask;
        const uint64_t b_in = edge ? b_edges[(i / 10) % 5] : rng() & b_mask;
        m.in_ce_i = in_ce, m.out_ce_i = out_ce, m.a_i = a_in, m.b_i = b_in;
        tick(m);
        if (out_ce && loaded) {
            want = static_cast<uint64_t>(value(a, kAW, kASigned) * value(b, kBW, kBSigned)) & p_mask;
            produced = true;
        }
        if (in_ce) a = a_in, b = b_in, loaded = true;
        if (produced) {
            ASSERT_EQ(m.p_o, want) << "cycle " << i << std::hex << ": 0x" << a << " * 0x" << b;
            ++checked;
        }
    }
    EXPECT_GT(checked, 90000);
}

}  // namespace
}  // namespace accel::bench
