// accel_prim_sram_1r1w: synchronous read, read-old-data on a same-address write, data held
// while re_i is low; random traffic against a C++ model.
#include <gtest/gtest.h>

#include <vector>

#include "Vaccel_prim_sram_1r1w.h"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

TEST(PrimSram1r1w, RandomTrafficMatchesModel) {
    Vaccel_prim_sram_1r1w m;  // WIDTH 32, DEPTH 64 (the module defaults)
    std::vector<uint32_t> model(64, 0);
    std::mt19937 rng(7);
    // Fill, so that every later read has a defined value.
    for (uint32_t a = 0; a < 64; ++a) {
        m.we_i = 1, m.waddr_i = a, m.wdata_i = model[a] = rng();
        m.re_i = 0;
        tick(m);
    }
    uint32_t expect = 0;
    bool pending = false;
    for (int i = 0; i < 5000; ++i) {
        const bool we = rng() & 1, re = rng() & 1;
        const uint32_t wa = rng() % 64, ra = rng() % 64, wd = rng();
        m.we_i = we, m.waddr_i = wa, m.wdata_i = wd, m.re_i = re, m.raddr_i = ra;
        const uint32_t old = model[ra];  // read-first: a same-address write is not seen
        tick(m);
        if (re) expect = old, pending = true;
        if (pending) ASSERT_EQ(m.rdata_o, expect) << "cycle " << i;
        if (we) model[wa] = wd;
    }
}

}  // namespace
}  // namespace accel::bench
