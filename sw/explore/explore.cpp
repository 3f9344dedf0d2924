// The stages of a sweep in order (explore.hpp): the cost model on every point, then the
// FPGA flow on chosen points with the area model fitted to what it measured.
#include "explore/explore.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "explore/area_model.hpp"
#include "explore/rtl_confirm.hpp"
#include "explore/sweep_dir.hpp"

namespace accel::explore {
namespace fs = std::filesystem;
namespace {

SweepDir stage_cost_model(const ExploreOptions& o, const SweepInputs& inputs, std::ostream& log) {
    fs::create_directories(o.out);
    const SweepDir sweep = SweepDir::create(o.out, inputs);
    const std::vector<std::string> pending = sweep.pending_chunks();
    log << fmt::format("explore: {} points in {} jobs of {}; {} done before, running {} on {}\n",
                       sweep.points(), sweep.chunks(), inputs.chunk_points,
                       sweep.chunks() - static_cast<int64_t>(pending.size()), pending.size(),
                       o.engine.engine);
    const std::vector<std::string> failed = run_jobs(
        o.engine, {o.accel_executable, "explore-job", fs::absolute(o.out).string()}, pending,
        sweep.jobs_dir() + "/logs",
        [&sweep](const std::string& id) { return sweep.chunk_done(std::stoll(id)); });
    if (!failed.empty()) {
        log << fmt::format("explore: {} jobs failed twice; their points are reported invalid "
                           "(logs in {}/logs)\n", failed.size(), sweep.jobs_dir());
    }
    return sweep;
}

// `count` valid points spread evenly over them in order of MACs, then SRAM: the
// smallest, the largest and between, so that the area model is fitted across the space
// rather than extrapolated from one corner of it.
std::vector<size_t> spread(const DesignSpace& space, const std::vector<PointRow>& rows, int count) {
    std::vector<std::pair<std::pair<int64_t, int64_t>, size_t>> valid;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (!rows[i].valid) continue;
        const HwConfig c = design_point(space, rows[i].index).hw->config;
        valid.push_back({{c.pes(), rows[i].sram_bytes}, i});
    }
    std::sort(valid.begin(), valid.end());
    const size_t n = std::min(valid.size(), static_cast<size_t>(std::max(count, 0)));
    std::vector<size_t> picked;
    for (size_t i = 0; i < n; ++i) {
        picked.push_back(valid[n == 1 ? 0 : i * (valid.size() - 1) / (n - 1)].second);
    }
    return picked;
}

// Fastest first.
std::vector<size_t> fastest(const SweepReport& rep, int count) {
    std::vector<size_t> order = rep.front;
    std::sort(order.begin(), order.end(), [&rep](size_t a, size_t b) {
        return inference_micros(rep.rows[a]) < inference_micros(rep.rows[b]);
    });
    order.resize(std::min(order.size(), static_cast<size_t>(std::max(count, 0))));
    return order;
}

// Fits a model of `resources` (read from a row by `counts`) on the rows synthesized and
// fills in the others' with its estimates (`put`); says so when `wanted` and too few
// points were synthesized.
template <typename Counts>
void estimate_rest(const DesignSpace& space, std::vector<PointRow>& rows, bool wanted,
                   const char* what, std::vector<std::string> resources, std::optional<Counts> PointRow::*field,
                   std::vector<int64_t> (*counts)(const Counts&),
                   Counts (*put)(const std::vector<int64_t>&), std::ostream& log) {
    std::vector<ResourceSample> samples;
    for (const PointRow& r : rows) {
        if (!r.valid || !(r.*field)) continue;
        const std::vector<int64_t> c = counts(*(r.*field));
        samples.push_back({design_point(space, r.index).hw->config, {c.begin(), c.end()}});
    }
    if (samples.size() < 2) {
        if (wanted) {
            log << fmt::format("explore: {} points with a {}: too few for an area model\n",
                               samples.size(), what);
        }
        return;
    }
    const AreaModel model(std::move(resources), samples);
    log << fmt::format("explore: {}: {}\n", what, model.describe());
    for (PointRow& r : rows) {
        if (r.valid && !(r.*field)) {
            r.*field = put(model.estimate(design_point(space, r.index).hw->config));
        }
    }
}

std::vector<int64_t> area_counts(const Area& a) { return {a.luts, a.ffs, a.dsps, a.brams}; }
Area area_of(const std::vector<int64_t>& c) { return Area{c[0], c[1], c[2], c[3], false}; }
std::vector<int64_t> cell_counts(const CellCount& c) {
    return {c.cells, c.flip_flops, c.memory_bits};
}
CellCount cells_of(const std::vector<int64_t>& c) { return CellCount{c[0], c[1], c[2], false}; }

void stage_fpga(const ExploreOptions& o, const DesignSpace& space, std::vector<PointRow>& rows,
                Budget& budget, std::ostream& log) {
    const SweepReport first = summarize("", space, rows, budget, o.area);
    const auto points_of = [&](const std::vector<size_t>& picked) {
        std::vector<DesignPoint> points;
        for (size_t i : picked) points.push_back(design_point(space, rows[i].index));
        return points;
    };
    const std::string logs = o.out + "/jobs";
    for (const auto& [step, picked] :
         {std::pair(FlowStep::Synth, spread(space, rows, o.synth)),
          std::pair(FlowStep::Cells, spread(space, rows, o.synth_cells)),
          std::pair(FlowStep::Route, fastest(first, o.route))}) {
        if (picked.empty()) continue;
        const char* name = step == FlowStep::Synth   ? "synthesis"
                           : step == FlowStep::Cells ? "generic synthesis"
                                                     : "place-and-route";
        log << fmt::format("explore: {} of {} points (cache {})\n", name, picked.size(),
                           o.flow.cache_dir);
        std::string dir = fmt::format("{}-logs", name);  // no space in a path
        std::replace(dir.begin(), dir.end(), ' ', '-');
        const auto failed =
            run_flow(o.flow, step, points_of(picked), o.engine, fmt::format("{}/{}", logs, dir));
        if (!failed.empty()) log << fmt::format("explore: {} {} jobs failed twice\n", failed.size(), name);
    }
    for (PointRow& r : rows) {
        if (!r.valid) continue;
        const CachedFlow c = cached_flow(o.flow, r.hash);
        r.area = c.area;
        r.cells = c.cells;
        r.fmax_mhz = c.fmax_mhz;
        if (c.capacity) budget.capacity = c.capacity;  // the device the areas count against
    }
    estimate_rest<Area>(space, rows, o.synth > 0 || budget.fpga_board, "FPGA synthesis",
                        {"LUT4", "FF", "MULT18X18D", "DP16KD"}, &PointRow::area, area_counts,
                        area_of, log);
    estimate_rest<CellCount>(space, rows, o.synth_cells > 0 || o.area == AreaAxis::Cells,
                             "generic synthesis", {"cells", "flip-flops", "memory bits"},
                             &PointRow::cells, cell_counts, cells_of, log);
}

// The best point within the budget, then the front's fastest: `count` in all.
std::vector<size_t> to_confirm(const SweepReport& rep, int count) {
    std::vector<size_t> picked;
    if (rep.best && count > 0) picked.push_back(*rep.best);
    for (size_t i : fastest(rep, count)) {
        if (picked.size() < static_cast<size_t>(count) &&
            std::find(picked.begin(), picked.end(), i) == picked.end()) {
            picked.push_back(i);
        }
    }
    return picked;
}

void stage_rtl(const ExploreOptions& o, const DesignSpace& space, std::vector<PointRow>& rows,
               const Budget& budget, std::ostream& log) {
    std::vector<DesignPoint> points;
    for (size_t i : to_confirm(summarize("", space, rows, budget, o.area), o.confirm)) {
        points.push_back(design_point(space, rows[i].index));
    }
    log << fmt::format("explore: {} points on the RTL (Verilated models cached in {})\n",
                       points.size(), o.flow.cache_dir);
    const auto failed = confirm_on_rtl(o.flow, points, o.model, o.engine, o.out + "/jobs/rtl-logs");
    if (!failed.empty()) log << fmt::format("explore: {} RTL jobs failed twice\n", failed.size());
    const std::string name = rtl_report_name(o.model);
    for (PointRow& r : rows) {
        if (r.valid) r.rtl_cycles = rtl_cycles(o.flow, r.hash, name);
    }
}

}  // namespace

SweepReport explore(const ExploreOptions& o, std::ostream& log) {
    if (o.space.empty()) throw Error("no --space given");
    if (o.model.empty() == o.suite.empty()) throw Error("give one of --model and --suite");
    if (o.out.empty()) throw Error("no --out directory given");
    if (o.confirm > 0 && o.model.empty()) throw Error("--confirm runs a --model on the RTL; a suite has none");
    if (fs::exists(o.out) && !fs::is_directory(o.out)) {
        throw Error(fmt::format("--out {}: exists and is not a directory", o.out));
    }
    const DesignSpace space = load_design_space(o.space);
    Budget budget = parse_budget(o.budgets);
    check_engine(o.engine);
    // Read once here, so that a bad model is one error rather than a failure per job.
    const ExploreTarget target = o.model.empty() ? suite_target(o.suite) : model_target(o.model);
    const int64_t chunk = o.chunk_points > 0 ? o.chunk_points
                                             : std::max<int64_t>(1, (space.size() + 63) / 64);
    const SweepDir sweep = stage_cost_model(o, {o.space, o.model, o.suite, chunk}, log);
    std::vector<PointRow> rows = sweep.rows();
    if (o.synth > 0 || o.route > 0 || o.synth_cells > 0 || budget.fpga_board ||
        o.area == AreaAxis::Cells) {
        stage_fpga(o, space, rows, budget, log);
    }
    if (o.confirm > 0) stage_rtl(o, space, rows, budget, log);
    const SweepReport report = summarize(target.label, space, std::move(rows), budget, o.area);
    const std::string csv = sweep_csv(report);
    const std::string json = sweep_json(report).dump(1) + "\n";
    write_files_atomic({{o.out + "/points.csv", csv}, {o.out + "/points.json", json}});
    return report;
}

}  // namespace accel::explore
