// What the integration tests share: the shipped hardware configs, the two devices (fsim
// and the Verilator model of the config), and running one program on both.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "devices/device.hpp"
#include "devices/fsim.hpp"
#include "hw/hw_config.hpp"
#include "shipped_hw.hpp"
#include "hw/isa.hpp"
#include "isa_counters.hpp"
#include "verilator_device.hpp"

namespace accel::integration {

// A shipped config (configs/hw/<name>.yaml), loaded once.
using test::shipped_hw;

// How many times more random cases to run than `make test` does: ACCEL_TEST_SCALE in
// the environment (a soak run: ACCEL_TEST_SCALE=50 ctest -L integration), default 1.
inline uint32_t test_scale() {
    const char* s = std::getenv("ACCEL_TEST_SCALE");
    const long v = s != nullptr ? std::strtol(s, nullptr, 10) : 1;
    return v >= 1 && v <= 100000 ? static_cast<uint32_t>(v) : 1u;
}

// A hang must fail a test within seconds, not after a million idle cycles.
inline std::unique_ptr<Device> make_rtl(const HwParams& hw, uint64_t dram_bytes) {
    VerilatorOptions options;
    options.watchdog_cycles = 100000;
    return make_verilator_device(hw, dram_bytes, options);
}

inline std::unique_ptr<Device> make_fsim(const HwParams& hw, uint64_t dram_bytes) {
    return std::make_unique<FunctionalSim>(hw, dram_bytes);
}

inline std::vector<uint8_t> read_all(const Device& d) {
    std::vector<uint8_t> out(d.dram_bytes());
    d.read_dram(0, out);
    return out;
}

// The outcome of one run: the counters and the whole DRAM, or the failure the device
// threw (a hang caught by the watchdog, an AXI protocol violation).
struct Outcome {
    DeviceCounters counters;
    std::vector<uint8_t> dram;
    std::string failure;
};

inline Outcome run_image(Device& device, const std::vector<uint8_t>& image, uint32_t insn_addr,
                         uint32_t count) {
    Outcome o;
    try {
        device.write_dram(0, image);
        o.counters = device.run(insn_addr, count);
        o.dram = read_all(device);
    } catch (const DeviceError& e) {
        o.failure = e.what();
    }
    return o;
}

// The first differing byte of two DRAM images, for a readable failure.
inline ::testing::AssertionResult same_dram(const std::vector<uint8_t>& got,
                                            const std::vector<uint8_t>& want) {
    if (got.size() != want.size()) {
        return ::testing::AssertionFailure() << "DRAM sizes differ: " << got.size() << " vs "
                                             << want.size();
    }
    size_t diffs = 0, first = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        if (got[i] != want[i] && diffs++ == 0) first = i;
    }
    if (diffs == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << diffs << " DRAM bytes differ; first at 0x" << std::hex << first << ": rtl 0x"
           << int{got[first]} << ", fsim 0x" << int{want[first]};
}

// The ISA group of DeviceCounters (device.hpp): equal on every device.
using test::expect_same_isa_counters;  // rtl first, fsim second

}  // namespace accel::integration
