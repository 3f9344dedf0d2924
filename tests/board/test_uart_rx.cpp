// accel_uart_rx (CLKS_PER_BIT 8): bytes at bit rates 3.75% off, with random idle
// gaps and random back-pressure on ready_i; bytes that complete while the holder is
// full are reported as overruns, a 0 stop bit as a framing error, a short low glitch
// is ignored.
#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "Vaccel_uart_rx.h"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

constexpr int kClocksPerBit = 8;

struct Line {
    Vaccel_uart_rx& m;
    std::vector<uint8_t> got;
    int overruns = 0, frame_errors = 0;
    Stalls stall;
    Line(Vaccel_uart_rx& model, uint32_t seed, double p) : m(model), stall(seed, p) {}

    void cycle(int level) {
        m.rx_i = level;
        m.ready_i = !stall();
        m.eval();
        if (m.valid_o && m.ready_i) got.push_back(m.data_o);
        tick(m);
        overruns += m.overrun_o;
        frame_errors += m.frame_err_o;
    }
    // One byte, the stop bit as given. `skew` -1/+1 shortens/lengthens every third bit
    // by a clock: a sender 3.75% fast or slow.
    void send(uint8_t b, int skew = 0, int stop = 1) {
        const int bits[10] = {0, b & 1, b >> 1 & 1, b >> 2 & 1, b >> 3 & 1, b >> 4 & 1,
                              b >> 5 & 1, b >> 6 & 1, b >> 7 & 1, stop};
        for (int i = 0; i < 10; ++i) {
            const int clocks = kClocksPerBit + (i % 3 == 2 ? skew : 0);
            for (int k = 0; k < clocks; ++k) cycle(bits[i]);
        }
    }
    void idle(int n) {
        for (int i = 0; i < n; ++i) cycle(1);
    }
};

TEST(UartRx, RandomBytesRatesAndBackPressure) {
    Vaccel_uart_rx m;
    m.rx_i = 1;
    reset(m);
    Line line(m, 21, 0.3);
    std::mt19937 rng(22);
    std::vector<uint8_t> sent;
    for (int i = 0; i < 600; ++i) {
        const uint8_t b = static_cast<uint8_t>(rng());
        sent.push_back(b);
        line.send(b, static_cast<int>(i % 3) - 1);  // fast, exact, slow
        line.idle(static_cast<int>(rng() % 12));
    }
    line.idle(4 * kClocksPerBit);
    EXPECT_EQ(line.overruns, 0);
    EXPECT_EQ(line.frame_errors, 0);
    EXPECT_EQ(line.got, sent);
}

TEST(UartRx, OverrunFramingErrorAndGlitch) {
    Vaccel_uart_rx m;
    m.rx_i = 1;
    reset(m);
    Line line(m, 23, 1.0);  // never ready: the first byte stays held
    line.send(0x3C);
    line.send(0x55);  // lost: the holder is full
    line.idle(kClocksPerBit);
    EXPECT_EQ(line.overruns, 1);
    Line taker(m, 24, 0.0);  // now take bytes
    taker.idle(2);
    EXPECT_EQ(taker.got, std::vector<uint8_t>{0x3C});
    taker.send(0xA7, 0, 0);  // stop bit 0
    taker.idle(kClocksPerBit);
    EXPECT_EQ(taker.frame_errors, 1);
    for (int i = 0; i < 2; ++i) taker.cycle(0);  // a glitch shorter than half a bit
    taker.idle(3 * kClocksPerBit);
    taker.send(0x81);
    taker.idle(kClocksPerBit);
    EXPECT_EQ(taker.got, (std::vector<uint8_t>{0x3C, 0x81}));
    EXPECT_EQ(taker.overruns, 0);
}

}  // namespace
}  // namespace accel::bench
