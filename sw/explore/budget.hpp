// What a design may take (docs/explore.md, "Budgets"): an FPGA's resources, on-chip
// SRAM, or both; `--budget ulx3s-85f --budget sram=512KiB` or "ulx3s-85f,sram=512KiB".
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "explore/point_row.hpp"

namespace accel::explore {

// An FPGA's resources, as its synthesis report states them.
struct FpgaCapacity {
    int64_t luts = 0, dsps = 0, brams = 0;
};

struct Budget {
    std::optional<int64_t> sram_bytes;
    // The FPGA named (its board's flow, scripts/fpga/run BOARD); the capacity of the
    // FPGA synthesized for, once a synthesis report gave it (also for the front's area
    // axis when no FPGA budget is given).
    std::optional<std::string> fpga_board;
    std::optional<FpgaCapacity> capacity;
    std::string text;  // as given, for the output
    bool empty() const { return !sram_bytes && !fpga_board; }
};

// The budgets given, each one or several separated by commas. Throws accel::Error
// naming --budget for an unknown FPGA, a malformed size or a budget given twice.
Budget parse_budget(const std::vector<std::string>& specs);

// Empty when `row` is within `budget`; otherwise why not.
std::string over_budget(const PointRow& row, const Budget& budget);

}  // namespace accel::explore
