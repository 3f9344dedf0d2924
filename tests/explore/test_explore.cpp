// The explorer's own logic: design spaces into points, the Pareto front, budgets, the
// area model's fit and the generic synthesis' cell counts in the flow cache. Sweeps end
// to end are the scripts beside this file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "explore/area_model.hpp"
#include "explore/budget.hpp"
#include "explore/design_space.hpp"
#include "explore/pareto.hpp"
#include "explore/sweep_report.hpp"
#include "explore/synthesis.hpp"
#include "hw/hw_config.hpp"
#include "hw/shipped_configs.hpp"

namespace accel::explore {
namespace {

DesignSpace space(const std::string& text) { return parse_design_space(text, "space.yaml", "."); }

TEST(DesignSpace, PointsEnumerateTheAxesLastFastest) {
    const DesignSpace s = space("base: tiny\naxes:\n  core.block_in: [4, 8]\n"
                                "  buffers.acc_kib: [2, 4, 8]\n");
    ASSERT_EQ(s.size(), 6);
    const DesignPoint p = design_point(s, 4);  // block_in 8 (4 / 3), acc_kib 4 (4 % 3)
    EXPECT_EQ(p.values, (std::vector<std::string>{"8", "4"}));
    ASSERT_TRUE(p.hw.has_value()) << p.invalid_reason;
    EXPECT_EQ(p.hw->config.block_in, 8);
    EXPECT_EQ(p.hw->config.acc_kib, 4);
    EXPECT_EQ(p.hw->config.weight_kib, 4);  // the base's, untouched
    EXPECT_EQ(p.hw->config.name, "x" + p.hash);
}

TEST(DesignSpace, EqualConfigsShareAHashAndOthersDoNot) {
    const DesignSpace a = space("base: tiny\naxes:\n  core.block_in: [4, 8]\n");
    // The same point with tiny's own clock given as an axis.
    const int tiny_mhz = parse_hw_config(shipped_config_yaml("tiny"), "tiny").clock_mhz;
    const DesignSpace b = space("base: tiny\naxes:\n  clock_mhz: [" + std::to_string(tiny_mhz) +
                                "]\n  core.block_in: [8]\n");
    EXPECT_EQ(design_point(a, 1).hash, design_point(b, 0).hash);
    EXPECT_NE(design_point(a, 0).hash, design_point(a, 1).hash);
}

TEST(DesignSpace, AnInvalidPointSaysWhyAndDoesNotThrow) {
    const DesignSpace s = space("base: tiny\naxes:\n  core.block_in: [3]\n");
    const DesignPoint p = design_point(s, 0);
    EXPECT_FALSE(p.hw.has_value());
    EXPECT_NE(p.invalid_reason.find("core.block_in"), std::string::npos) << p.invalid_reason;
    EXPECT_NE(p.invalid_reason.find("power of two"), std::string::npos) << p.invalid_reason;
}

TEST(DesignSpace, MalformedSpacesAreErrorsNamingTheKey) {
    const auto message = [](const std::string& text) {
        try {
            space(text);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("base: tiny\naxes:\n  core.blockin: [4]\n").find("axes.core.blockin"),
              std::string::npos);
    EXPECT_NE(message("base: tiny\naxes:\n  core.block_in: []\n").find("non-empty"),
              std::string::npos);
    EXPECT_NE(message("base: nosuch\naxes: {}\n").find("neither a shipped config"),
              std::string::npos);
    EXPECT_NE(message("base: tiny\naxes:\n  name: [a]\n").find("not an axis"), std::string::npos);
    EXPECT_NE(message("base: tiny\n").find("axes"), std::string::npos);
}

TEST(Pareto, KeepsOnlyTheNonDominatedPoints) {
    // (time, sram): 1 beats 3 on both; 0, 1 and 2 trade off; 4 equals 1 and comes later.
    const std::vector<std::vector<double>> points = {
        {10, 1}, {5, 4}, {1, 9}, {6, 5}, {5, 4}};
    EXPECT_EQ(pareto_front(points), (std::vector<size_t>{0, 1, 2}));
}

TEST(Budget, ParsesCombinationsAndChecksRows) {
    const Budget b = parse_budget({"ulx3s-85f,sram=512KiB"});
    EXPECT_EQ(b.sram_bytes, 512 * 1024);
    EXPECT_EQ(b.fpga_board, "ulx3s");
    PointRow row;
    row.valid = true;
    row.sram_bytes = 600 * 1024;
    EXPECT_NE(over_budget(row, b).find("SRAM"), std::string::npos);
    row.sram_bytes = 64 * 1024;
    EXPECT_NE(over_budget(row, b).find("no area"), std::string::npos);
    Budget fitted = b;
    fitted.capacity = FpgaCapacity{83640, 156, 208};
    row.area = Area{90000, 1, 1, 1, true};
    EXPECT_NE(over_budget(row, fitted).find("LUT4"), std::string::npos);
    row.area = Area{80000, 1, 156, 208, false};
    EXPECT_EQ(over_budget(row, fitted), "");
    EXPECT_THROW(parse_budget({"sram=12furlongs"}), Error);
    EXPECT_THROW(parse_budget({"ice40"}), Error);
    EXPECT_THROW(parse_budget({"sram=1KiB", "sram=2KiB"}), Error);
}

TEST(AreaModel, RecoversALinearLawAndMeasuresItsError) {
    // LUTs = 1000 + 50 per MAC + 10 per KiB of SRAM, exactly: the fit finds it, and
    // leave-one-out predicts each point from the others without error.
    std::vector<ResourceSample> samples;
    for (int core : {4, 8, 16}) {
        for (int kib : {8, 32}) {
            HwConfig c = design_point(space("base: tiny\naxes: {}\n"), 0).hw->config;
            c.block_in = c.block_out = core;
            c.input_kib = c.weight_kib = c.acc_kib = kib;
            const double luts = 1000 + 50 * static_cast<double>(c.pes()) + 10 * (3 * kib);
            samples.push_back({c, {luts}});
        }
    }
    const AreaModel m({"LUT4"}, samples);
    ASSERT_EQ(m.errors().size(), 1u);
    EXPECT_LT(m.errors()[0], 0.01);
    HwConfig probe = samples.front().config;
    probe.block_in = probe.block_out = 32;
    probe.input_kib = probe.weight_kib = probe.acc_kib = 64;
    EXPECT_NEAR(static_cast<double>(m.estimate(probe).at(0)), 1000 + 50 * 1024 + 10 * 192, 2);
    EXPECT_NE(m.describe().find("LUT4 0.0%"), std::string::npos) << m.describe();
}

nlohmann::json tiny_cells_stat() {
    return nlohmann::json::parse(read_file(std::string(EXPLORE_TEST_DIR) + "/tiny_cells_stat.json"));
}

TEST(CellCount, ReadsGatesFlipFlopsAndMemoryBitsFromAYosysStat) {
    const nlohmann::json stat = tiny_cells_stat();
    // Against the stat's own totals: every cell but the 11 memories' read and write ports.
    const nlohmann::json& top = stat["modules"]["\\accel_top"];
    int64_t ports = 0, flip_flops = 0;
    for (const auto& [type, n] : top["num_cells_by_type"].items()) {
        if (type.starts_with("$mem")) ports += n.get<int64_t>();
        if (type.starts_with("$_DFF") || type.starts_with("$_SDFF")) flip_flops += n.get<int64_t>();
    }
    const CellCount c = cell_count_from_yosys_stat(stat);
    EXPECT_TRUE(c.measured);
    EXPECT_EQ(ports, 22);
    EXPECT_EQ(c.cells, top["num_cells"].get<int64_t>() - ports);
    EXPECT_EQ(c.flip_flops, flip_flops);
    EXPECT_GT(c.flip_flops, 0);
    EXPECT_EQ(c.memory_bits, top["num_memory_bits"].get<int64_t>());
    EXPECT_GT(c.memory_bits, 8 * 8 * 1024);  // at least the tiny config's 8 KiB of buffers
    EXPECT_THROW(cell_count_from_yosys_stat(nlohmann::json::object()), Error);
    nlohmann::json cut = stat;
    cut["modules"]["\\accel_top"].erase("num_memory_bits");
    EXPECT_THROW(cell_count_from_yosys_stat(cut), Error);
}

TEST(CellCount, TheCacheServesACountedConfigWithoutAJobAndTheFrontWeighsCells) {
    namespace fs = std::filesystem;
    const fs::path cache = fs::temp_directory_path() / ("explore_cells_" + std::to_string(::getpid()));
    fs::remove_all(cache);
    const DesignSpace s = space("base: tiny\naxes:\n  buffers.acc_kib: [2, 4]\n");
    const DesignPoint counted = design_point(s, 0);
    const FlowSetup setup{"/nonexistent-kit", "/nonexistent-build", cache.string()};
    fs::create_directories(cache / counted.hash / "cells");
    write_file_atomic((cache / counted.hash / "cells" / "stat.json").string(), tiny_cells_stat().dump());
    // The counted point needs no job: with a kit that does not exist, a job would fail.
    EXPECT_TRUE(run_flow(setup, FlowStep::Cells, {counted}, {}, (cache / "logs").string()).empty());
    EXPECT_TRUE(fs::is_regular_file(cache / counted.hash / "config.yaml"));
    const CachedFlow c = cached_flow(setup, counted.hash);
    ASSERT_TRUE(c.cells.has_value());
    EXPECT_EQ(c.cells->cells, cell_count_from_yosys_stat(tiny_cells_stat()).cells);
    EXPECT_FALSE(c.area.has_value());
    EXPECT_FALSE(cached_flow(setup, design_point(s, 1).hash).cells.has_value());

    // Two points of the same SRAM, the second faster with more cells: weighing cells,
    // both are on the front; without an area axis (or a point without cells) only the
    // faster one.
    std::vector<PointRow> rows(2);
    for (int i = 0; i < 2; ++i) {
        rows[i].index = i;
        rows[i].valid = true;
        rows[i].clock_mhz = 50;
        rows[i].sram_bytes = 8192;
        rows[i].values = {std::to_string(2 << i)};
    }
    rows[0].cycles = 2000, rows[0].micros = 40, rows[0].cells = CellCount{500, 100, 65536, true};
    rows[1].cycles = 1000, rows[1].micros = 20, rows[1].cells = CellCount{600, 90, 65536, false};
    const SweepReport with = summarize("t", s, rows, Budget{}, AreaAxis::Cells);
    EXPECT_EQ(with.front, (std::vector<size_t>{0, 1}));
    EXPECT_EQ(summarize("t", s, rows, Budget{}, AreaAxis::Fpga).front, (std::vector<size_t>{1}));
    std::vector<PointRow> partly = rows;
    partly[0].cells.reset();
    EXPECT_EQ(summarize("t", s, partly, Budget{}, AreaAxis::Cells).front, (std::vector<size_t>{1}));
    EXPECT_EQ(sweep_json(with)["area_axis"], "cells");
    EXPECT_NE(sweep_csv(with).find(",cells,cell_flip_flops,memory_bits,cells_measured,"),
              std::string::npos);
    EXPECT_THROW(parse_area_axis("luts"), Error);
    fs::remove_all(cache);
}

}  // namespace
}  // namespace accel::explore
