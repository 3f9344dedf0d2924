// Shared helpers for the RTL module benches: clocking a Verilated model, random
// back-pressure, and byte access to wide (> 64-bit) signals.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "verilated.h"

namespace accel::bench {

// One rising edge: inputs set before the call are sampled at the edge.
template <typename Model>
void tick(Model& m) {
    m.clk_i = 0;
    m.eval();
    m.clk_i = 1;
    m.eval();
}

template <typename Model>
void reset(Model& m, int cycles = 3) {
    m.rst_i = 1;
    for (int i = 0; i < cycles; ++i) tick(m);
    m.rst_i = 0;
}

// Random back-pressure: true with probability `p` (a stalled cycle), fixed seed.
class Stalls {
public:
    Stalls(uint32_t seed, double p) : rng_(seed), p_(p) {}
    bool operator()() { return std::bernoulli_distribution(p_)(rng_); }

private:
    std::mt19937 rng_;
    double p_;
};

// Bytes of a wide signal, least significant first (lane j of N-bit lanes starts at
// byte j*N/8).
template <std::size_t Words>
std::vector<uint8_t> wide_bytes(const VlWide<Words>& w) {
    std::vector<uint8_t> out(Words * 4);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(w[i / 4] >> (8 * (i % 4)));
    return out;
}

template <std::size_t Words>
void set_wide_bytes(VlWide<Words>& w, const std::vector<uint8_t>& bytes) {
    for (std::size_t i = 0; i < Words; ++i) w[i] = 0;
    for (std::size_t i = 0; i < bytes.size() && i < Words * 4; ++i) {
        w[i / 4] |= static_cast<uint32_t>(bytes[i]) << (8 * (i % 4));
    }
}

// For signals of 64 bits or fewer, Verilator uses plain integers.
inline std::vector<uint8_t> int_bytes(uint64_t v, std::size_t n) {
    std::vector<uint8_t> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
    return out;
}

}  // namespace accel::bench
