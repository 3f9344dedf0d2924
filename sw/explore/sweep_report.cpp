// summarize and the outputs of sweep_report.hpp.
#include "explore/sweep_report.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"
#include "base/text.hpp"
#include "explore/pareto.hpp"

namespace accel::explore {
namespace {

// Area as one number to minimize: the largest fraction of the FPGA's resources used.
double area_objective(const Area& a, const FpgaCapacity& c) {
    return std::max({static_cast<double>(a.luts) / c.luts, static_cast<double>(a.dsps) / c.dsps,
                     static_cast<double>(a.brams) / c.brams});
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

template <typename T>
std::string opt(const std::optional<T>& v) { return v ? fmt::format("{}", *v) : ""; }

// Predicted and measured cycles side by side, for the points run on the RTL.
void print_confirmed(const SweepReport& rep, std::ostream& out) {
    bool header = false;
    for (const PointRow& r : rep.rows) {
        if (!r.rtl_cycles) continue;
        if (!header) {
            out << fmt::format("confirmed on the RTL:\n{:>7} {:>12} {:>12} {:>8}\n", "point",
                               "predicted", "RTL", "error");
            header = true;
        }
        out << fmt::format("{:>7} {:>12} {:>12} {:>7.3f}%\n", r.index, r.cycles, *r.rtl_cycles,
                           100.0 * static_cast<double>(r.cycles - *r.rtl_cycles) /
                               static_cast<double>(*r.rtl_cycles));
    }
}

// The front's area objective for `r`, when it has one.
std::optional<double> area_objective(const PointRow& r, const Budget& b, AreaAxis axis) {
    if (axis == AreaAxis::Cells) {
        return r.cells ? std::optional<double>(static_cast<double>(r.cells->cells)) : std::nullopt;
    }
    if (!r.area || !b.capacity) return std::nullopt;
    return area_objective(*r.area, *b.capacity);
}

}  // namespace

AreaAxis parse_area_axis(const std::string& text) {
    if (text == "fpga") return AreaAxis::Fpga;
    if (text == "cells") return AreaAxis::Cells;
    throw Error(fmt::format("--area '{}': expected fpga or cells", printable(text)));
}

double inference_micros(const PointRow& r) {
    return r.fmax_mhz ? static_cast<double>(r.cycles) / *r.fmax_mhz : r.micros;
}

SweepReport summarize(const std::string& target, const DesignSpace& space,
                      std::vector<PointRow> rows, const Budget& budget, AreaAxis area_axis) {
    SweepReport rep{target, {}, std::move(rows), {}, budget, area_axis, {}, std::nullopt};
    for (const Axis& a : space.axes) rep.axes.push_back(a.key);
    std::vector<size_t> valid;
    for (size_t i = 0; i < rep.rows.size(); ++i) {
        if (rep.rows[i].valid) valid.push_back(i);
    }
    const bool with_area = !valid.empty() && std::all_of(valid.begin(), valid.end(), [&](size_t i) {
        return area_objective(rep.rows[i], budget, area_axis).has_value();
    });
    std::vector<std::vector<double>> objectives;
    for (size_t i : valid) {
        const PointRow& r = rep.rows[i];
        objectives.push_back({inference_micros(r), static_cast<double>(r.sram_bytes)});
        if (with_area) objectives.back().push_back(*area_objective(r, budget, area_axis));
    }
    for (size_t f : pareto_front(objectives)) rep.front.push_back(valid[f]);
    for (size_t i = 0; i < rep.rows.size(); ++i) {
        rep.over_budget.push_back(over_budget(rep.rows[i], budget));
        if (!rep.over_budget.back().empty()) continue;
        const PointRow& r = rep.rows[i];
        if (!rep.best || std::pair(inference_micros(r), r.sram_bytes) <
                             std::pair(inference_micros(rep.rows[*rep.best]),
                                       rep.rows[*rep.best].sram_bytes)) {
            rep.best = i;
        }
    }
    return rep;
}

std::string sweep_csv(const SweepReport& rep) {
    std::string out = "index,hash";
    for (const std::string& a : rep.axes) out += fmt::format(",{}", csv_field(a));
    out += ",valid,cycles,target_mhz,fmax_mhz,micros,sram_bytes,luts,ffs,dsps,brams,"
           "area_measured,cells,cell_flip_flops,memory_bits,cells_measured,rtl_cycles,on_front,"
           "within_budget,reason\n";
    for (size_t i = 0; i < rep.rows.size(); ++i) {
        const PointRow& r = rep.rows[i];
        out += fmt::format("{},{}", r.index, r.hash);
        for (const std::string& v : r.values) out += fmt::format(",{}", csv_field(v));
        const bool on_front = std::binary_search(rep.front.begin(), rep.front.end(), i);
        const auto area = [&r](int64_t Area::*f) { return r.area ? std::to_string((*r.area).*f) : ""; };
        const auto cells = [&r](int64_t CellCount::*f) {
            return r.cells ? std::to_string((*r.cells).*f) : "";
        };
        out += r.valid ? fmt::format(",1,{},{},{},{:.3f},{},{},{},{},{},{},{},{},{},{},{},{},{},",
                                     r.cycles, r.clock_mhz, opt(r.fmax_mhz), inference_micros(r),
                                     r.sram_bytes, area(&Area::luts), area(&Area::ffs),
                                     area(&Area::dsps), area(&Area::brams),
                                     r.area ? (r.area->measured ? "1" : "0") : "",
                                     cells(&CellCount::cells), cells(&CellCount::flip_flops),
                                     cells(&CellCount::memory_bits),
                                     r.cells ? (r.cells->measured ? "1" : "0") : "",
                                     opt(r.rtl_cycles), on_front ? 1 : 0,
                                     rep.over_budget[i].empty() ? 1 : 0)
                       : ",0,,,,,,,,,,,,,,,,0,0,";
        out += csv_field(r.valid ? rep.over_budget[i] : r.reason) + "\n";
    }
    return out;
}

nlohmann::json sweep_json(const SweepReport& rep) {
    nlohmann::json points = nlohmann::json::array();
    for (size_t i = 0; i < rep.rows.size(); ++i) {
        nlohmann::json j = row_json(rep.rows[i]);
        if (rep.rows[i].valid) {
            j["inference_micros"] = inference_micros(rep.rows[i]);
            j["on_front"] = std::binary_search(rep.front.begin(), rep.front.end(), i);
            j["over_budget"] = rep.over_budget[i];
        }
        points.push_back(j);
    }
    nlohmann::json front = nlohmann::json::array();
    for (size_t f : rep.front) front.push_back(rep.rows[f].index);
    nlohmann::json j = {
        {"target", rep.target}, {"axes", rep.axes}, {"budget", rep.budget.text},
        {"area_axis", rep.area_axis == AreaAxis::Cells ? "cells" : "fpga"},
        {"front", front},
        {"best", rep.best ? nlohmann::json(rep.rows[*rep.best].index) : nlohmann::json()},
        {"points", points}};
    if (const auto& c = rep.budget.capacity) {
        j["fpga_capacity"] = {{"luts", c->luts}, {"dsps", c->dsps}, {"brams", c->brams}};
    }
    return j;
}

void print_summary(const SweepReport& rep, std::ostream& out) {
    const auto valid = std::count_if(rep.rows.begin(), rep.rows.end(),
                                     [](const PointRow& r) { return r.valid; });
    const bool cells = rep.area_axis == AreaAxis::Cells;
    out << fmt::format("{}: {} points, {} valid, {} invalid; Pareto front of {} points "
                       "(time per inference against SRAM{}):\n", rep.target, rep.rows.size(),
                       valid, rep.rows.size() - static_cast<size_t>(valid), rep.front.size(),
                       rep.front.empty() ? ""
                       : area_objective(rep.rows[rep.front[0]], rep.budget, rep.area_axis)
                           ? (cells ? " and cells" : " and area")
                           : "");
    out << fmt::format("{:>7} {:>12} {:>5} {:>10} {:>9} {:>8}  {}\n", "point", "cycles", "MHz",
                       "us/inf", "SRAM KiB", cells ? "cells" : "LUT4", fmt::join(rep.axes, " "));
    const auto line = [&](size_t i) {
        const PointRow& r = rep.rows[i];
        out << fmt::format("{:>7} {:>12} {:>5} {:>10.1f} {:>9} {:>8}  {}\n", r.index, r.cycles,
                           r.fmax_mhz ? fmt::format("{:.0f}", *r.fmax_mhz) : std::to_string(r.clock_mhz),
                           inference_micros(r), r.sram_bytes / 1024,
                           cells ? (r.cells ? std::to_string(r.cells->cells) : "-")
                                 : (r.area ? std::to_string(r.area->luts) : "-"),
                           fmt::join(r.values, " "));
    };
    for (size_t f : rep.front) line(f);
    print_confirmed(rep, out);
    if (rep.budget.empty()) return;
    if (!rep.best) {
        out << fmt::format("no point within the budget {}\n", rep.budget.text);
        return;
    }
    out << fmt::format("fastest within the budget {}:\n", rep.budget.text);
    line(*rep.best);
}

}  // namespace accel::explore
