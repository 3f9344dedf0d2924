// One design point's line in a sweep's results: its config, its stage-1 prediction or
// why it is invalid, and what later stages added (area, routed clock, RTL cycles).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace accel::explore {

// Yosys synth_ecp5's cells of the ULX3S design (the accelerator in its board top), as
// an FPGA budget counts them.
struct Area {
    int64_t luts = 0, ffs = 0, dsps = 0, brams = 0;
    bool measured = false;  // synthesized, rather than the fitted area model's estimate
};

// Yosys' generic synth of accel_top alone, for ASIC-style comparisons
// (scripts/explore/synth-cells): its cells (gates and flip-flops, the memories not
// among them), the flip-flops among those, and the memories' bits.
struct CellCount {
    int64_t cells = 0, flip_flops = 0, memory_bits = 0;
    bool measured = false;  // synthesized, rather than the fitted model's estimate
};

struct PointRow {
    int64_t index = 0;
    std::string hash;
    std::vector<std::string> values;  // one per axis
    bool valid = false;
    std::string reason;  // when not valid
    int64_t cycles = 0, sram_bytes = 0, device_layers = 0;
    int clock_mhz = 0;
    double micros = 0;
    std::optional<Area> area;
    std::optional<CellCount> cells;
    std::optional<double> fmax_mhz;       // nextpnr's, for the points routed
    std::optional<int64_t> rtl_cycles;    // the Verilated model's, for the points confirmed
};

nlohmann::json row_json(const PointRow& row);
PointRow row_from_json(const nlohmann::json& j);

}  // namespace accel::explore
