// The counters the ISA defines (docs/isa.md), which every device must agree on whatever
// its timing: the error mask, the instructions and GEMM steps completed and the bytes
// LOAD and DRAIN moved. (Cycle and wait counters are each device's own.)
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "devices/device.hpp"
#include "hw/isa.hpp"

namespace accel::test {

inline void expect_same_isa_counters(const DeviceCounters& got, const DeviceCounters& want,
                                     const std::string& what) {
    EXPECT_EQ(got.errors, want.errors) << what << ": " << isa::error_names(got.errors)
                                       << " against " << isa::error_names(want.errors);
    EXPECT_EQ(got.load_insns, want.load_insns) << what;
    EXPECT_EQ(got.gemm_insns, want.gemm_insns) << what;
    EXPECT_EQ(got.drain_insns, want.drain_insns) << what;
    EXPECT_EQ(got.gemm_steps, want.gemm_steps) << what;
    EXPECT_EQ(got.load_bytes, want.load_bytes) << what;
    EXPECT_EQ(got.drain_bytes, want.drain_bytes) << what;
}

}  // namespace accel::test
