// accel_prim_count_last: the value counts 0 .. count - 1 and starts again, last_o is a
// register that says value == count - 1, for counts of 1, 2, small and near the top of
// W bits; load_i restarts mid-count and wins over step_i. Random traffic against a C++
// model (the module's default W of 16).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "Vaccel_prim_count_last.h"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

TEST(PrimCountLast, RandomLoadsAndStepsMatchModel) {
    Vaccel_prim_count_last m;
    reset(m);
    std::mt19937 rng(11);
    uint32_t count = 1, value = 0;
    bool loaded = false;
    int wraps = 0;
    for (int i = 0; i < 200000; ++i) {
        const bool load = !loaded || rng() % 500 == 0;
        const bool step = rng() % 4 != 0;
        uint32_t next_count = count;
        if (load) {
            switch (rng() % 4) {
                case 0: next_count = 1 + rng() % 2; break;      // 1 and 2: the edge cases
                case 1: next_count = 1 + rng() % 20; break;
                case 2: next_count = 65535 - rng() % 3; break;  // the top of 16 bits
                default: next_count = 1 + rng() % 65535;
            }
        }
        m.load_i = load, m.count_i = next_count, m.step_i = step;
        tick(m);
        if (load) {
            count = next_count, value = 0, loaded = true;
        } else if (step) {
            wraps += value == count - 1 ? 1 : 0;
            value = value == count - 1 ? 0 : value + 1;
        }
        ASSERT_EQ(m.value_o, value) << "cycle " << i;
        ASSERT_EQ(m.last_o != 0, value == count - 1) << "cycle " << i << " count " << count;
    }
    EXPECT_GT(wraps, 1000) << "the counter rarely came back to 0";
}

}  // namespace
}  // namespace accel::bench
