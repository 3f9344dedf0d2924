// A random draw that gives the same numbers with every compiler and standard library
// (std::uniform_int_distribution does not): SplitMix64, and integers in [lo, hi] by
// rejection, so that "same seed, same tensor" holds everywhere.
#pragma once
#include <cstdint>

namespace accel {

class PortableRandom {
public:
    explicit PortableRandom(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    // Uniform in [lo, hi]; lo <= hi.
    int64_t uniform(int64_t lo, int64_t hi) {
        const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
        if (span == 0) return static_cast<int64_t>(next());  // the whole int64 range
        const uint64_t limit = UINT64_MAX - UINT64_MAX % span;  // no modulo bias
        uint64_t v = next();
        while (v >= limit) v = next();
        return static_cast<int64_t>(static_cast<uint64_t>(lo) + v % span);
    }

private:
    uint64_t state_;
};

}  // namespace accel
