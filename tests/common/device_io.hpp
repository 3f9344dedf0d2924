// Programs and bytes in and out of a device's DRAM, for tests that build programs by hand.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "devices/device.hpp"
#include "hw/isa.hpp"

namespace accel::test {

// Writes the stream at `addr`; returns the instruction count.
inline uint32_t write_program(Device& dev, uint32_t addr, const std::vector<isa::Insn>& insns) {
    for (size_t i = 0; i < insns.size(); ++i) {
        dev.write_dram(addr + i * isa::kInsnBytes, isa::encode(insns[i]));
    }
    return static_cast<uint32_t>(insns.size());
}

// The `n` bytes of DRAM at `addr`.
inline std::vector<uint8_t> read(const Device& dev, uint64_t addr, size_t n) {
    std::vector<uint8_t> out(n);
    dev.read_dram(addr, out);
    return out;
}

// `v` stored little-endian at `bytes[at]`, as the device reads its words.
template <typename T>
void write_le(std::vector<uint8_t>& bytes, size_t at, T v) {
    std::memcpy(&bytes[at], &v, sizeof v);
}

}  // namespace accel::test
