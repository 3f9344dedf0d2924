// Shared helpers for the RTL module benches: clocking a Verilated model, random
// back-pressure, and byte access to wide (> 64-bit) signals.
#pragma once
#include <cstdint>
#include <random>
#include <type_traits>
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

// The RTL's assertions (`ifdef ACCEL_ASSERT, on in every bench) stop the simulation at
// their first failure. A bench that breaks a contract on purpose watches them instead:
// while a watch lives, failures are only recorded, and failed() says whether one
// occurred since the last call.
class AssertionWatch {
public:
    explicit AssertionWatch(VerilatedContext* context) : context_(context) {
        context_->fatalOnError(false);
        forget();
    }
    ~AssertionWatch() {
        forget();
        context_->fatalOnError(true);
    }
    AssertionWatch(const AssertionWatch&) = delete;
    AssertionWatch& operator=(const AssertionWatch&) = delete;

    bool failed() {
        const bool failed = context_->gotError();
        forget();
        return failed;
    }

private:
    void forget() {
        context_->gotError(false);
        context_->gotFinish(false);
        context_->errorCount(0);
    }
    VerilatedContext* context_;
};

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

// Bits [lo, lo + w) of a signal of any width (w <= 64): Verilator holds up to 64 bits in
// an integer, more in a VlWide of 32-bit words.
template <typename T>
uint64_t get_bits(const T& s, unsigned lo, unsigned w) {
    uint64_t v = 0;
    for (unsigned i = 0; i < w; ++i) {
        const unsigned b = lo + i;
        uint64_t bit;
        if constexpr (std::is_integral_v<T>) {
            bit = b < 64 ? (static_cast<uint64_t>(s) >> b) & 1u : 0;
        } else {
            bit = (s[b / 32] >> (b % 32)) & 1u;
        }
        v |= bit << i;
    }
    return v;
}

template <typename T>
void put_bits(T& s, unsigned lo, unsigned w, uint64_t v) {
    for (unsigned i = 0; i < w; ++i) {
        const unsigned b = lo + i;
        const uint32_t bit = static_cast<uint32_t>((v >> i) & 1u);
        if constexpr (std::is_integral_v<T>) {
            s = static_cast<T>((s & ~(T{1} << b)) | (T{bit} << b));
        } else {
            s[b / 32] = (s[b / 32] & ~(1u << (b % 32))) | (bit << (b % 32));
        }
    }
}

// The first n bytes of a signal, least significant first; and the signal set to n bytes
// (zero above them).
template <typename T>
std::vector<uint8_t> get_bytes(const T& s, std::size_t n) {
    std::vector<uint8_t> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(get_bits(s, 8 * i, 8));
    return out;
}

template <typename T>
void set_bytes(T& s, const uint8_t* bytes, std::size_t n) {
    if constexpr (std::is_integral_v<T>) {
        uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i) v |= uint64_t{bytes[i]} << (8 * i);
        s = static_cast<T>(v);
    } else {
        set_wide_bytes(s, std::vector<uint8_t>(bytes, bytes + n));
    }
}

// 32-bit word i of a signal; and the signal set to n words (zero above them).
template <typename T>
uint32_t word(const T& s, std::size_t i) {
    return static_cast<uint32_t>(get_bits(s, static_cast<unsigned>(32 * i), 32));
}

template <std::size_t Words>
void put_words(VlWide<Words>& s, const uint32_t* w, std::size_t n) {
    for (std::size_t i = 0; i < Words; ++i) s[i] = i < n ? w[i] : 0;
}

template <typename T>
    requires std::is_integral_v<T>
void put_words(T& s, const uint32_t* w, std::size_t n) {
    uint64_t v = n > 0 ? w[0] : 0;
    if (n > 1) v |= uint64_t{w[1]} << 32;
    s = static_cast<T>(v);
}

template <typename T>
void put_words(T& s, const std::vector<uint32_t>& w) {
    put_words(s, w.data(), w.size());
}

}  // namespace accel::bench
