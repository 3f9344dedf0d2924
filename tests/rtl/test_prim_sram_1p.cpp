// accel_prim_sram_1p (4 bytes x 256 words): random reads and byte-masked writes against a model;
// read data is registered and holds through idle cycles and writes.
#include <gtest/gtest.h>

#include <vector>

#include "Vaccel_prim_sram_1p.h"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

TEST(PrimSram1p, RandomByteMaskedTraffic) {
    Vaccel_prim_sram_1p m;
    constexpr uint32_t kDepth = 256;
    std::vector<uint32_t> model(kDepth);
    std::mt19937 rng(31);
    for (uint32_t a = 0; a < kDepth; ++a) {  // fill, so every read is defined
        m.en_i = 1, m.we_i = 0xF, m.addr_i = a, m.wdata_i = model[a] = rng();
        tick(m);
    }
    uint32_t expect = 0;
    bool read_once = false;
    for (int i = 0; i < 20000; ++i) {
        const bool en = rng() % 4 != 0;
        const uint32_t we = rng() % 2 ? 1 + rng() % 15 : 0, addr = rng() % kDepth, data = rng();
        m.en_i = en, m.we_i = we, m.addr_i = addr, m.wdata_i = data;
        if (en && we == 0) expect = model[addr], read_once = true;
        tick(m);
        if (read_once) ASSERT_EQ(m.rdata_o, expect) << "cycle " << i;
        if (en && we != 0) {
            for (int b = 0; b < 4; ++b) {
                if (we >> b & 1) {
                    const uint32_t mask = 0xFFu << (8 * b);
                    model[addr] = (model[addr] & ~mask) | (data & mask);
                }
            }
        }
    }
}

}  // namespace
}  // namespace accel::bench
