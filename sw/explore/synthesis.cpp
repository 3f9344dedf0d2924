// The FPGA flow as explorer jobs (synthesis.hpp). A job is scripts/explore/flow-point,
// which runs scripts/fpga/run (or scripts/explore/synth-cells) on the cached config; the
// flow's report.json (synth-cells' stat.json), written last, marks the job done.
#include "explore/synthesis.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/file_io.hpp"

namespace accel::explore {
namespace fs = std::filesystem;
namespace {

const char* step_name(FlowStep step) {
    switch (step) {
        case FlowStep::Synth: return "synth";
        case FlowStep::Route: return "route";
        case FlowStep::Cells: return "cells";
    }
    return "";
}

std::string report_path(const FlowSetup& s, const std::string& hash, FlowStep step) {
    return fmt::format("{}/{}/{}/{}", s.cache_dir, hash, step_name(step),
                       step == FlowStep::Cells ? "stat.json" : "report.json");
}

std::optional<nlohmann::json> read_report(const std::string& path) {
    if (!fs::is_regular_file(path)) return std::nullopt;
    try {
        return nlohmann::json::parse(read_file(path));
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;  // a report cut short: as if the job had not run
    }
}

int64_t used(const nlohmann::json& report, const std::string& resource, int64_t* available) {
    for (const nlohmann::json& r : report.at("resources")) {
        if (r.at("resource") == resource && r.at("source") == "yosys") {
            if (available) *available = r.at("available").get<int64_t>();
            return r.at("used").get<int64_t>();
        }
    }
    return 0;
}

}  // namespace

std::vector<std::string> run_flow(const FlowSetup& s, FlowStep step,
                                  const std::vector<DesignPoint>& points,
                                  const EngineOptions& engine, const std::string& log_dir) {
    const auto done = [&](const std::string& hash) {
        return read_report(report_path(s, hash, step)).has_value();
    };
    return run_jobs(engine,
                    {s.source_dir + "/scripts/explore/flow-point", step_name(step), s.cache_dir,
                     s.build_dir},
                    pending_in_cache(s, points, done), log_dir, done);
}

CachedFlow cached_flow(const FlowSetup& s, const std::string& hash) {
    CachedFlow c;
    if (const auto synth = read_report(report_path(s, hash, FlowStep::Synth))) {
        FpgaCapacity cap;
        Area a;
        a.luts = used(*synth, "LUT4", &cap.luts);
        a.ffs = used(*synth, "TRELLIS_FF", nullptr);
        a.dsps = used(*synth, "MULT18X18D", &cap.dsps);
        a.brams = used(*synth, "DP16KD", &cap.brams);
        a.measured = true;
        c.area = a;
        c.capacity = cap;
    }
    if (const auto stat = read_report(report_path(s, hash, FlowStep::Cells))) {
        c.cells = cell_count_from_yosys_stat(*stat);
    }
    if (const auto routed = read_report(report_path(s, hash, FlowStep::Route))) {
        for (const auto& [clock, f] : routed->at("fmax").items()) {
            const double mhz = f.at("achieved_mhz").get<double>();
            c.fmax_mhz = c.fmax_mhz ? std::min(*c.fmax_mhz, mhz) : mhz;
        }
    }
    return c;
}

CellCount cell_count_from_yosys_stat(const nlohmann::json& stat) {
    const auto modules = stat.find("modules");
    if (modules == stat.end() || !modules->is_object() || modules->size() != 1) {
        throw Error("a Yosys stat of one flattened module expected (synth-cells' stat.json)");
    }
    const nlohmann::json& m = modules->begin().value();
    CellCount c;
    try {
        for (const auto& [type, count] : m.at("num_cells_by_type").items()) {
            if (type.starts_with("$mem") || type == "$scopeinfo") continue;
            c.cells += count.get<int64_t>();
            if (type.find("DFF") != std::string::npos) c.flip_flops += count.get<int64_t>();
        }
        c.memory_bits = m.at("num_memory_bits").get<int64_t>();
    } catch (const nlohmann::json::exception& e) {
        throw Error(fmt::format("a Yosys stat without its cell counts: {}", e.what()));
    }
    c.measured = true;
    return c;
}

}  // namespace accel::explore
