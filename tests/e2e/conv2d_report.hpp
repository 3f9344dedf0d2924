// What the end-to-end tests expect of an `accel conv2d --report` JSON (docs/cli.md).
#pragma once

namespace accel::e2e {

// The keys every conv2d report carries, whatever the backend.
inline constexpr const char* kConv2dReportKeys[] = {
    "backend", "cycles", "predicted_cycles", "macs", "ideal_cycles", "roofline_cycles",
    "efficiency", "dram_read_bytes", "dram_write_bytes", "buffers", "tile", "sim_seconds",
    "sim_cycles_per_second", "bit_exact"};

}  // namespace accel::e2e
