// End-to-end tests of `accel bench` (docs/cli.md): a small custom
// workload on both device backends -- table rows, a quiet stderr, the JSON list and its keys,
// the timeline -- and bad input that must exit 2 without writing anything.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "timeline_check.hpp"

namespace fs = std::filesystem;
using accel::e2e::RunResult;
using accel::e2e::run_accel;
using accel::e2e::snapshot;
using accel::e2e::TempDir;
using Json = nlohmann::json;

namespace {

// Tiny layers: a padded 3x3, a strided 1x1 with fixed zero points and ReLU, and a
// layer deeper than one input-channel block of the default config.
const std::string kWorkload =
    "name: tinyset\n"
    "seed: 5\n"
    "layers:\n"
    "  - {name: T1, h: 6, w: 6, cin: 5, cout: 7, kernel: 3, pad: 1, stride: 1}\n"
    "  - {name: T2, h: 8, w: 8, cin: 8, cout: 12, kernel: 1, pad: 0, stride: 2,\n"
    "     input_zero_point: -5, output_zero_point: 3, relu: true}\n"
    "  - {name: T3, h: 5, w: 7, cin: 20, cout: 18, kernel: 3, pad: 1, stride: 2}\n";

// N*OH*OW*K*R*S*C of each layer above, worked out by hand.
const int64_t kMacs[] = {1 * 6 * 6 * 7 * 3 * 3 * 5, 1 * 4 * 4 * 12 * 1 * 1 * 8,
                         1 * 3 * 4 * 18 * 3 * 3 * 20};

// The table row of `layer`: the line of stdout that starts with its name and a space.
std::string fmt_2(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::vector<std::string> row(const std::string& out, const std::string& layer) {
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind(layer + " ", 0) == 0) {
            std::istringstream words(line);
            std::vector<std::string> cells;
            for (std::string w; words >> w;) cells.push_back(w);
            return cells;
        }
    }
    return {};
}

// Whether some line of `out` starts with `layer` and a space and contains `phrase`.
bool has_line(const std::string& out, const std::string& layer, const std::string& phrase) {
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind(layer + " ", 0) == 0 && line.find(phrase) != std::string::npos) return true;
    }
    return false;
}

std::set<std::string> keys(const Json& j) {
    std::set<std::string> out;
    for (const auto& [k, v] : j.items()) out.insert(k);
    return out;
}

class BenchTest : public ::testing::Test {
protected:
    BenchTest() : dir_("bench") { accel::e2e::write_bytes(dir_.path() / "w.yaml", kWorkload); }
    std::string path(const std::string& name) const { return dir_.file(name); }

    // The top-level keys of `accel conv2d --report` on `backend` with --check: what
    // every bench JSON object must hold, exactly.
    std::set<std::string> conv2d_report_keys(const std::string& backend) {
        const auto run = [&](std::vector<std::string> args) {
            const RunResult r = run_accel(args);
            EXPECT_EQ(r.exit_code, 0) << describe(r);
        };
        run({"random", "--shape", "1,4,4,3", "--seed", "1", "--output", path("x.npy")});
        run({"random", "--shape", "3,3,3,5", "--seed", "2", "--output", path("k.npy")});
        run({"conv2d", "--backend", backend, "--check", "--input", path("x.npy"), "--weights",
             path("k.npy"), "--pad", "1", "--scale", "0.001", "--output", path("y.npy"),
             "--report", path("r.json")});
        return keys(Json::parse(accel::e2e::read_bytes(path("r.json"))));
    }

    TempDir dir_;
};

// The runs of both backends share the checks of everything but cycles.
void expect_common(const RunResult& r, const Json& list, const std::string& backend,
                   const std::set<std::string>& report_keys) {
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(r.err, "") << "progress shows on a terminal only (test_cli_progress.cpp)";
    EXPECT_NE(r.out.find("layer"), std::string::npos) << "no table header:\n" << r.out;
    for (int i = 0; i < 3; ++i) {
        const std::string name = "T" + std::to_string(i + 1);
        SCOPED_TRACE(name);
        EXPECT_FALSE(row(r.out, name).empty()) << "no table row:\n" << r.out;

        const Json& j = list.at(i);
        std::set<std::string> got = keys(j);
        EXPECT_EQ(got, report_keys) << "bench objects must hold conv2d --report's keys";
        EXPECT_EQ(j["layer"]["name"], name);
        EXPECT_EQ(j["backend"], backend);
        EXPECT_EQ(j["bit_exact"], true);
        EXPECT_EQ(j["macs"], kMacs[i]);
        for (const char* buf : {"input", "weight", "acc"}) {
            EXPECT_LE(j["buffers"][buf]["used_bytes"].get<int64_t>(),
                      j["buffers"][buf]["capacity_bytes"].get<int64_t>()) << buf;
        }
        EXPECT_TRUE(has_line(r.out, name, " bit-exact: all ")) << r.out;
    }
    EXPECT_EQ(list[1]["layer"]["input_zero_point"], -5);
    EXPECT_EQ(list[1]["layer"]["output_zero_point"], 3);
    EXPECT_EQ(list[1]["layer"]["act_min"], 3);
    EXPECT_EQ(list[2]["layer"]["stride"], Json::array({2, 2}));
    EXPECT_FALSE(row(r.out, "total").empty()) << r.out;
    size_t exact_lines = 0;
    for (size_t at = r.out.find("bit-exact: all"); at != std::string::npos;
         at = r.out.find("bit-exact: all", at + 1)) {
        ++exact_lines;
    }
    EXPECT_EQ(exact_lines, 3u) << r.out;
}

TEST_F(BenchTest, FsimRunsEveryLayerAndWritesTheReports) {
    const std::set<std::string> report_keys = conv2d_report_keys("fsim");
    const RunResult r = run_accel({"bench", "--workload", path("w.yaml"), "--backend", "fsim",
                                   "--check", "--json", path("out.json")});
    const Json list = Json::parse(accel::e2e::read_bytes(path("out.json")));
    ASSERT_EQ(list.size(), 3u);
    expect_common(r, list, "fsim", report_keys);
    for (const Json& j : list) EXPECT_TRUE(j["cycles"].is_null()) << "fsim measures no cycles";
    // Cells: name, shape (two words), cycles, ...
    EXPECT_EQ(row(r.out, "T1").at(3), "-") << "fsim's cycles cell";
}

TEST_F(BenchTest, VerilatorMeasuresCyclesAndTheTimelineAgreesWithTheCounters) {
    const std::set<std::string> report_keys = conv2d_report_keys("verilator");
    const RunResult r =
        run_accel({"bench", "--workload", path("w.yaml"), "--check", "--json", path("out.json"),
                   "--timeline", "T3", path("timeline.json")});
    const Json list = Json::parse(accel::e2e::read_bytes(path("out.json")));
    ASSERT_EQ(list.size(), 3u);
    expect_common(r, list, "verilator", report_keys);
    int64_t total = 0;
    for (int i = 0; i < 3; ++i) {
        const Json& j = list[i];
        const int64_t cycles = j["cycles"].get<int64_t>();
        total += cycles;
        EXPECT_GE(cycles, j["roofline_cycles"].get<int64_t>());
        EXPECT_GT(j["efficiency"].get<double>(), 0.0);
        EXPECT_LE(j["efficiency"].get<double>(), 1.0);
        // The table shows the report's figures: after the name and the shape (two
        // words), cycles, predicted, ideal, roofline, efficiency.
        const auto cells = row(r.out, "T" + std::to_string(i + 1));
        ASSERT_GE(cells.size(), 8u);
        EXPECT_EQ(cells[3], std::to_string(cycles));
        EXPECT_EQ(cells[4], std::to_string(j["predicted_cycles"].get<int64_t>()));
        EXPECT_EQ(cells[5], std::to_string(j["ideal_cycles"].get<int64_t>()));
        EXPECT_EQ(cells[6], std::to_string(j["roofline_cycles"].get<int64_t>()));
        EXPECT_EQ(cells[7], fmt_2(j["efficiency"].get<double>()));
    }
    const auto totals = row(r.out, "total");
    ASSERT_GE(totals.size(), 4u);  // total, "3", "layers", cycles, ...
    EXPECT_EQ(totals[3], std::to_string(total)) << "the total row sums the cycles";

    // The timeline: a Chrome trace of T3 whose durations add up to T3's counters.
    const Json t = Json::parse(accel::e2e::read_bytes(path("timeline.json")));
    EXPECT_NE(t["otherData"]["title"].get<std::string>().find("T3 "), std::string::npos);
    accel::e2e::expect_timeline_matches_report(t, list[2]);
}

TEST_F(BenchTest, LayersSelectsAndOrdersTheBuiltinSuite) {
    const RunResult r = run_accel({"bench", "--suite", "resnet18", "--layers", "C10,C4",
                                   "--backend", "fsim", "--json", path("out.json")});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    const Json list = Json::parse(accel::e2e::read_bytes(path("out.json")));
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0]["layer"]["name"], "C10");
    EXPECT_EQ(list[1]["layer"]["name"], "C4");
    EXPECT_EQ(list[1]["layer"]["h"], 56);
    EXPECT_EQ(list[1]["layer"]["k"], 128);
    EXPECT_FALSE(row(r.out, "C4").empty());
    EXPECT_TRUE(row(r.out, "C2").empty()) << "C2 was not selected";
    EXPECT_FALSE(list[0].contains("bit_exact")) << "no --check, no verdict";
}

TEST_F(BenchTest, SameWorkloadGivesTheSameFigures) {
    auto run = [&](const std::string& out) {
        const RunResult r = run_accel({"bench", "--workload", path("w.yaml"), "--backend",
                                       "verilator", "--layers", "T2", "--json", path(out)});
        EXPECT_EQ(r.exit_code, 0) << describe(r);
        Json j = Json::parse(accel::e2e::read_bytes(path(out)));
        for (Json& o : j) o.erase("sim_seconds"), o.erase("sim_cycles_per_second");
        return j;
    };
    EXPECT_EQ(run("a.json"), run("b.json"));
}

// ---- bad input: exit 2, one "error:" line naming the culprit, nothing written -------

struct BadCase {
    const char* name;
    std::string workload;             // written to $D/w.yaml; empty: kWorkload
    std::vector<std::string> args;    // after "bench"; $D/ is the test directory
    std::vector<std::string> expect;  // phrases of the error line
};

// The usual arguments of a run that would succeed, with `extra` appended.
std::vector<std::string> usual(std::vector<std::string> extra) {
    std::vector<std::string> a = {"--workload", "$D/w.yaml", "--backend", "fsim", "--json",
                                  "$D/out.json"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

const std::vector<BadCase> kBadCases = {
    {"UnknownKey", "name: x\nlayers:\n  - {name: A, h: 4, w: 4, cin: 2, cout: 2, kernel: 1, "
                   "pad: 0, stride: 1, strides: 2}\n",
     usual({}), {"w.yaml", "unknown key 'layers[0].strides'"}},
    {"MissingKey", "name: x\nlayers:\n  - {name: A, h: 4, w: 4, cin: 2, kernel: 1, pad: 0, "
                   "stride: 1}\n",
     usual({}), {"w.yaml", "missing key 'layers[0].cout'"}},
    {"BadValue", "name: x\nlayers:\n  - {name: A, h: 4, w: 4, cin: 2, cout: -2, kernel: 1, "
                 "pad: 0, stride: 1}\n",
     usual({}), {"w.yaml", "layers[0].cout"}},
    {"NotYaml", "name: [\n", usual({}), {"w.yaml", "not valid YAML"}},
    {"MissingWorkloadFile", "", {"--workload", "$D/nope.yaml", "--json", "$D/out.json"},
     {"nope.yaml"}},
    {"UnknownSuite", "", {"--suite", "resnet99", "--json", "$D/out.json"},
     {"--suite", "resnet99", "resnet18"}},
    {"SuiteAndWorkload", "", usual({"--suite", "resnet18"}), {"--suite", "--workload"}},
    {"UnknownLayer", "", usual({"--layers", "T1,T9"}), {"--layers", "T9", "T1, T2, T3"}},
    {"LayerTwice", "", usual({"--layers", "T1,T1"}), {"--layers", "T1"}},
    {"RefBackend", "", {"--workload", "$D/w.yaml", "--backend", "ref", "--json", "$D/out.json"},
     {"--backend", "ref"}},
    {"TimelineOnFsim", "", usual({"--timeline", "T1", "$D/t.json"}), {"--timeline", "verilator"}},
    {"TimelineOneValue", "", {"--workload", "$D/w.yaml", "--timeline", "T1"}, {"--timeline"}},
    {"TimelineLayerNotRun", "",
     {"--workload", "$D/w.yaml", "--layers", "T2", "--timeline", "T1", "$D/t.json"},
     {"--timeline", "T1"}},
    {"JsonOverwritesWorkload", "", {"--workload", "$D/w.yaml", "--json", "$D/w.yaml"},
     {"--json", "w.yaml", "input"}},
    {"JsonInMissingDir", "", {"--workload", "$D/w.yaml", "--json", "$D/no/dir/o.json"},
     {"--json", "o.json"}},
    {"BadHw", "", usual({"--hw", "$D/w.yaml"}), {"w.yaml", "key"}},
    {"EmptyHw", "", usual({"--hw", ""}), {"--hw: empty value"}},
    {"TimelineIsTheJsonSpelledDifferently", "",
     {"--workload", "$D/w.yaml", "--json", "$D/j.json", "--timeline", "T1", "$D/./j.json"},
     {"--timeline", "--json"}},
    {"UnknownOption", "", usual({"--layer", "T1"}), {"--layer"}},
    {"StrayArgument", "", usual({"T1"}), {"T1"}},
};

class BadBenchInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadBenchInput, ExitsTwoAndWritesNothing) {
    const BadCase& c = GetParam();
    TempDir dir("badbench");
    accel::e2e::write_bytes(dir.path() / "w.yaml", c.workload.empty() ? kWorkload : c.workload);
    std::vector<std::string> args = {"bench"};
    for (const std::string& a : c.args) {
        args.push_back(a.rfind("$D/", 0) == 0 ? dir.file(a.substr(3)) : a);
    }
    const auto before = snapshot(dir.path());
    const RunResult r = run_accel(args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_EQ(r.out, "") << "no partial output";
    EXPECT_TRUE(r.err.rfind("error: ", 0) == 0) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line:\n" << r.err;
    for (const std::string& phrase : c.expect) {
        EXPECT_NE(r.err.find(phrase), std::string::npos) << "'" << phrase << "' in " << r.err;
    }
    EXPECT_EQ(snapshot(dir.path()), before) << "a failed run must not write or change a file";
}

INSTANTIATE_TEST_SUITE_P(Table, BadBenchInput, ::testing::ValuesIn(kBadCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(BenchHelp, ListsEveryOption) {
    const RunResult r = run_accel({"bench", "--help"});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    for (const char* option : {"--suite", "--workload", "--layers", "--backend", "--hw",
                               "--check", "--json", "--timeline"}) {
        EXPECT_NE(r.out.find(std::string(option) + " "), std::string::npos) << option;
    }
    const RunResult top = run_accel({"--help"});
    EXPECT_NE(top.out.find("bench"), std::string::npos);
}

}  // namespace

namespace accel::e2e {
namespace {

// accel plan names the host-side rewrite it chose, in text and JSON: the blocks and
// tiles it prints are those of the rewritten layer, which a reader must be told.
TEST(CliPlan, NamesTheLowering) {
    TempDir dir("plan-lowering");
    const RunResult stem = run_accel({"plan", "--shape", "1,224,224,3", "--kernel", "7",
                                      "--out-channels", "64", "--stride", "2", "--pad", "3"});
    ASSERT_EQ(stem.exit_code, 0) << stem.err;
    EXPECT_NE(stem.out.find("lowering pack 5 kernel columns"), std::string::npos) << stem.out;
    const RunResult pointwise =
        run_accel({"plan", "--shape", "1,56,56,64", "--kernel", "1", "--out-channels", "128",
                   "--stride", "2", "--json", dir.file("plan.json")});
    ASSERT_EQ(pointwise.exit_code, 0) << pointwise.err;
    EXPECT_NE(pointwise.out.find("lowering subsample"), std::string::npos) << pointwise.out;
    const RunResult plain = run_accel({"plan", "--shape", "1,8,8,32", "--kernel", "3",
                                       "--out-channels", "16", "--pad", "1"});
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    EXPECT_EQ(plain.out.find("lowering"), std::string::npos) << plain.out;
}

}  // namespace
}  // namespace accel::e2e
