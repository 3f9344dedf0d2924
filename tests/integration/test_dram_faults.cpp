// DRAM fault injection on the Verilator device (docs/reliability.md): every fault class
// on random layers of both shipped configs. Stalls, backpressure and reordering complete
// bit-exact (and cost cycles, so they did happen); SLVERR and DECERR on reads and writes
// end in a DeviceError naming the unit and the fault; no run writes outside its output
// region or hangs (testing::run_with_faults checks each rule).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/error.hpp"
#include "device_pair.hpp"
#include "dram_faults.hpp"
#include "fault_run.hpp"
#include "random_layer.hpp"

namespace accel::integration {
namespace {

TEST(DramFaultPlan, ParsesEveryItem) {
    const sim::DramFaultPlan p = sim::parse_dram_fault_plan(
        "seed=7,backpressure=0.3,stall=0.01,stall-cycles=1000-3000,stall-on=ar+b,reorder=0.5,"
        "slverr=read:3,decerr=write:1");
    EXPECT_EQ(p.to_string(),
              "seed=7,backpressure=0.3,stall=0.01,stall-cycles=1000-3000,stall-on=ar+b,"
              "reorder=0.5,slverr=read:3,decerr=write:1");
    EXPECT_EQ(sim::parse_dram_fault_plan(p.to_string()).to_string(), p.to_string());
    EXPECT_TRUE(sim::parse_dram_fault_plan("seed=3").empty());
}

TEST(DramFaultPlan, RefusesMalformedSpecsNamingTheItem) {
    const std::pair<const char*, const char*> bad[] = {
        {"", "names no fault"},
        {"stall", "stall is not KEY=VALUE"},
        {"stall=2", "needs a probability in [0, 1]"},
        {"backpressure=1", "needs a probability in [0, 0.9]"},
        {"reorder=-0.1", "needs a probability"},
        {"stall=0.1,", "has an empty item"},
        {"stall-cycles=0-5", "needs cycles LO-HI"},
        {"stall-cycles=500-100", "needs cycles LO-HI"},
        {"stall-cycles=1-200000", "needs cycles LO-HI"},
        {"stall-on=ar+x", "needs channels among ar, r, aw, w, b"},
        {"slverr=read", "needs read:N or write:N"},
        {"decerr=write:0", "needs read:N or write:N"},
        {"slverr=both:1", "needs read:N or write:N"},
        {"seed=-1", "needs an unsigned 64-bit integer"},
        {"flood=1", "flood=1 is unknown"},
        {"seed=\x01", "seed=\\x01"},  // control bytes are escaped
    };
    for (const auto& [spec, why] : bad) {
        try {
            sim::parse_dram_fault_plan(spec);
            ADD_FAILURE() << "accepted '" << spec << "'";
        } catch (const Error& e) {
            const std::string m = e.what();
            EXPECT_EQ(m.rfind("fault plan '", 0), 0u) << m;
            EXPECT_NE(m.find(why), std::string::npos) << spec << ": " << m;
        }
    }
}

// Small random layers: each runs on the RTL in a few hundredths of a second.
std::vector<testing::LayerCase> small_layers(uint32_t seed, int count) {
    std::mt19937 rng(seed);
    testing::LayerLimits limits;
    limits.max_n = 2, limits.max_hw = 9, limits.max_c = 20, limits.max_k = 20;
    limits.max_kernel = 3;
    std::vector<testing::LayerCase> layers;
    for (int i = 0; i < count; ++i) layers.push_back(testing::random_layer(rng, limits));
    return layers;
}

class DramFaults : public ::testing::TestWithParam<std::string> {
protected:
    const HwParams& hw() const { return shipped_hw(GetParam()); }

    // Runs `layer` under `spec`; the run must complete bit-exact. Returns its cycles
    // less those of the run without faults.
    int64_t extra_cycles(const testing::LayerCase& layer, const std::string& spec) {
        const testing::FaultRunOutcome clean = testing::run_with_faults(hw(), layer, {});
        EXPECT_TRUE(clean.ok) << clean.what;
        const testing::FaultRunOutcome o =
            testing::run_with_faults(hw(), layer, sim::parse_dram_fault_plan(spec));
        EXPECT_TRUE(o.ok && !o.device_error) << spec << ": " << o.what;
        return static_cast<int64_t>(o.cycles) - static_cast<int64_t>(clean.cycles);
    }
};

TEST_P(DramFaults, BackpressureCompletesBitExact) {
    int seed = 1;
    for (const testing::LayerCase& c : small_layers(11, 2)) {
        for (const char* p : {"0.5", "0.9"}) {
            const std::string spec = std::string("backpressure=") + p + ",seed=" +
                                     std::to_string(seed++);
            EXPECT_GE(extra_cycles(c, spec), 10) << spec << ": the faults cost no time";
        }
    }
}

TEST_P(DramFaults, StallsOfThousandsOfCyclesOnEachChannelCompleteBitExact) {
    const testing::LayerCase c = small_layers(12, 1)[0];
    for (const char* channel : {"ar", "r", "aw", "w", "b"}) {
        const std::string spec = std::string("stall=1,stall-cycles=1000-3000,stall-on=") + channel;
        EXPECT_GE(extra_cycles(c, spec), 1000) << spec << ": the faults cost no time";
    }
}

// The budget grows by the cycles the faults held a transfer back: a run whose stalls take
// far longer than its budget still completes, while a budget too short for the run
// itself still stops it under the same faults.
TEST_P(DramFaults, StallCyclesDoNotCountAgainstTheCycleBudget) {
    const testing::LayerCase c = small_layers(16, 1)[0];
    const testing::FaultRunOutcome clean = testing::run_with_faults(hw(), c, {});
    ASSERT_TRUE(clean.ok) << clean.what;
    const sim::DramFaultPlan stalls =
        sim::parse_dram_fault_plan("stall=1,stall-cycles=2000-2000,stall-on=ar+b");
    const testing::FaultRunOutcome o =
        testing::run_with_faults(hw(), c, stalls, clean.cycles + clean.cycles / 4);
    EXPECT_TRUE(o.ok && !o.device_error) << o.what;
    EXPECT_GT(o.cycles, 2 * clean.cycles);
    const testing::FaultRunOutcome cut = testing::run_with_faults(hw(), c, stalls, 50);
    EXPECT_TRUE(cut.device_error && cut.what.find("cycle budget") != std::string::npos) << cut.what;
}

TEST_P(DramFaults, ReorderedReadsCompleteBitExact) {
    int seed = 1;
    bool changed_timing = false;  // reordering may speed a run up or slow it down
    for (const testing::LayerCase& c : small_layers(13, 3)) {
        for (const char* p : {"0.3", "1"}) {
            const std::string spec =
                std::string("reorder=") + p + ",seed=" + std::to_string(seed++);
            changed_timing = changed_timing || extra_cycles(c, spec) != 0;
        }
    }
    EXPECT_TRUE(changed_timing) << "no reordering happened";
}

// Each of the first bursts of each direction answered with each error: the run ends
// naming the unit and the fault, or (fetch reading past the program's end) completes
// bit-exact. Fetch, load and drain must each have been hit.
TEST_P(DramFaults, ErrorResponsesEndNamingTheUnitAndTheFault) {
    const testing::LayerCase c = small_layers(14, 1)[0];
    std::set<std::string> hit;
    for (const char* resp : {"slverr", "decerr"}) {
        for (const char* dir : {"read", "write"}) {
            for (int n = 1; n <= (dir[0] == 'r' ? 12 : 3); ++n) {
                const std::string spec = fmt::format("{}={}:{}", resp, dir, n);
                const testing::FaultRunOutcome o =
                    testing::run_with_faults(hw(), c, sim::parse_dram_fault_plan(spec));
                EXPECT_TRUE(o.ok) << spec << ": " << o.what;
                for (const char* unit : {"fetch", "load", "drain"}) {
                    if (o.device_error && o.what.find(std::string(unit) + " unit: DRAM answered") !=
                                              std::string::npos) {
                        hit.insert(fmt::format("{} {}", unit, resp));
                    }
                }
            }
        }
    }
    const std::set<std::string> want = {"fetch slverr", "load slverr", "drain slverr",
                                        "fetch decerr", "load decerr", "drain decerr"};
    EXPECT_EQ(hit, want);
}

TEST_P(DramFaults, RandomMixesOnRandomLayers) {
    uint64_t seed = 100;
    for (const testing::LayerCase& c : small_layers(15, 4)) {
        const sim::DramFaultPlan plan = testing::random_fault_plan(seed++, 0.5);
        const testing::FaultRunOutcome o = testing::run_with_faults(hw(), c, plan);
        EXPECT_TRUE(o.ok) << plan.to_string() << ": " << o.what;
    }
}

INSTANTIATE_TEST_SUITE_P(Configs, DramFaults, ::testing::Values("default", "tiny"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace accel::integration
