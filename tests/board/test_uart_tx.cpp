// accel_uart_tx (CLKS_PER_BIT 8): random bytes offered with random gaps; the line is decoded
// with exact bit timing and ready_o is high only while the line is idle.
#include <gtest/gtest.h>

#include <vector>

#include "Vaccel_uart_tx.h"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

constexpr int kClocksPerBit = 8;

TEST(UartTx, RandomBytesWithGapsHaveExactFrames) {
    Vaccel_uart_tx m;
    m.valid_i = 0;
    reset(m);
    std::mt19937 rng(11);
    Stalls gap(12, 0.6);
    std::vector<uint8_t> sent, got;
    std::vector<int> line;  // tx_o, one entry per cycle
    int busy_cycles = 0;    // cycles of the frame under way, as the bench counts them
    for (int cycle = 0; cycle < 40000; ++cycle) {
        const uint8_t data = static_cast<uint8_t>(rng());
        m.valid_i = !gap();
        m.data_i = data;
        m.eval();
        if (busy_cycles > 0) ASSERT_FALSE(m.ready_o) << "ready during a frame, cycle " << cycle;
        if (m.valid_i && m.ready_o) {
            sent.push_back(data);
            busy_cycles = 10 * kClocksPerBit;
        }
        tick(m);
        line.push_back(m.tx_o);
        if (busy_cycles > 0) --busy_cycles;
    }
    // Decode: a start bit is a 1 -> 0 transition; each bit lasts exactly kClocksPerBit.
    for (size_t i = 1; i < line.size(); ++i) {
        if (!(line[i - 1] == 1 && line[i] == 0)) continue;
        if (i + 10 * kClocksPerBit > line.size()) break;
        uint8_t byte = 0;
        for (int b = 0; b < 10; ++b) {
            for (int k = 0; k < kClocksPerBit; ++k) {
                ASSERT_EQ(line[i + b * kClocksPerBit + k], line[i + b * kClocksPerBit])
                    << "bit " << b << " not held for a whole bit time";
            }
            const int v = line[i + b * kClocksPerBit];
            if (b == 0) ASSERT_EQ(v, 0);
            else if (b == 9) ASSERT_EQ(v, 1) << "stop bit";
            else byte |= static_cast<uint8_t>(v << (b - 1));
        }
        got.push_back(byte);
        i += 10 * kClocksPerBit - 1;  // the stop bit's last cycle
    }
    ASSERT_GE(sent.size(), 400u);
    sent.resize(got.size());  // the last frame may be cut off by the end of the run
    EXPECT_EQ(got, sent);
}

}  // namespace
}  // namespace accel::bench
