// A sweep's answer (docs/explore.md, "Output"): every point, the Pareto front of time per
// inference against on-chip SRAM (and against area once points have one), and the
// fastest point within the budget; as CSV, JSON and a table.
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "explore/budget.hpp"
#include "explore/design_space.hpp"
#include "explore/point_row.hpp"

namespace accel::explore {

// The front's area axis (--area): the largest fraction of the FPGA's resources a point
// takes, or its generic cell count (its memories are the SRAM axis).
enum class AreaAxis { Fpga, Cells };
// "fpga" or "cells"; accel::Error naming --area otherwise.
AreaAxis parse_area_axis(const std::string& text);

struct SweepReport {
    std::string target;              // the model or suite
    std::vector<std::string> axes;   // the space's keys, in order
    std::vector<PointRow> rows;      // every point, by index
    std::vector<size_t> front;       // indices into rows
    Budget budget;
    AreaAxis area_axis = AreaAxis::Fpga;
    std::vector<std::string> over_budget;  // per row: empty when within the budget
    std::optional<size_t> best;      // the fastest point within the budget
};

// Time per inference: the cycles at the routed Fmax when place and route gave one, at
// the config's clock_mhz otherwise.
double inference_micros(const PointRow& row);

// The front has the area axis when every valid point has that area (synthesized or
// estimated).
SweepReport summarize(const std::string& target, const DesignSpace& space,
                      std::vector<PointRow> rows, const Budget& budget, AreaAxis area_axis);

std::string sweep_csv(const SweepReport& report);
nlohmann::json sweep_json(const SweepReport& report);
// The front and the budget's answer, as `accel explore` prints them.
void print_summary(const SweepReport& report, std::ostream& out);

}  // namespace accel::explore
