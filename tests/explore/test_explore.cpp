// The explorer's own logic: design spaces into points, the Pareto front, budgets and the
// area model's fit. Sweeps end to end are the scripts beside this file.
#include <gtest/gtest.h>

#include <string>

#include "base/error.hpp"
#include "explore/area_model.hpp"
#include "explore/budget.hpp"
#include "explore/design_space.hpp"
#include "explore/pareto.hpp"
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
    std::vector<AreaSample> samples;
    for (int core : {4, 8, 16}) {
        for (int kib : {8, 32}) {
            HwConfig c = design_point(space("base: tiny\naxes: {}\n"), 0).hw->config;
            c.block_in = c.block_out = core;
            c.input_kib = c.weight_kib = c.acc_kib = kib;
            const int64_t luts = 1000 + 50 * c.pes() + 10 * (3 * kib);
            samples.push_back({c, Area{luts, 0, 0, 0, true}});
        }
    }
    const AreaModel m(samples);
    EXPECT_LT(m.lut_error, 0.01);
    HwConfig probe = samples.front().config;
    probe.block_in = probe.block_out = 32;
    probe.input_kib = probe.weight_kib = probe.acc_kib = 64;
    EXPECT_NEAR(static_cast<double>(m.estimate(probe).luts), 1000 + 50 * 1024 + 10 * 192, 2);
    EXPECT_FALSE(m.estimate(probe).measured);
}

}  // namespace
}  // namespace accel::explore
