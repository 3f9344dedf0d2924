// End-to-end tests of the accel CLI (docs/semantics.md, docs/cli.md): build tensors with
// the library, run the real binary, and check its files, streams and exit codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/tensor.hpp"
#include "formats/npy.hpp"
#include "ops/conv2d.hpp"
#include "ops/quant.hpp"
#include "ops/reference.hpp"
#include "cli_runner.hpp"
#include "shipped_hw.hpp"
#include "conv2d_report.hpp"

namespace fs = std::filesystem;
using accel::TensorI32;
using accel::TensorI8;
using accel::e2e::RunResult;
using accel::e2e::run_accel;
using accel::e2e::snapshot;
using accel::e2e::TempDir;

namespace {

// ---- helpers -----------------------------------------------------------------------

TensorI8 random_i8(std::vector<int64_t> shape, uint32_t seed, int lo = -128, int hi = 127) {
    TensorI8 t(std::move(shape));
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dist(lo, hi);
    for (int8_t& v : t.data) v = static_cast<int8_t>(dist(rng));
    return t;
}

TensorI32 random_i32(std::vector<int64_t> shape, uint32_t seed, int32_t lo, int32_t hi) {
    TensorI32 t(std::move(shape));
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int32_t> dist(lo, hi);
    for (int32_t& v : t.data) v = dist(rng);
    return t;
}

TensorI32 i32_vector(const std::vector<int32_t>& values) {
    TensorI32 t({static_cast<int64_t>(values.size())});
    t.data = values;
    return t;
}

// OH/OW by docs/semantics.md, written out independently of the library.
int64_t out_extent(int64_t in, int64_t pad_a, int64_t pad_b, int64_t kernel, int64_t dilation,
                   int64_t stride) {
    return (in + pad_a + pad_b - dilation * (kernel - 1) - 1) / stride + 1;
}

size_t distinct_values(const TensorI8& t) {
    return std::set<int8_t>(t.data.begin(), t.data.end()).size();
}

// Explains the first differences between two tensors (gtest would print every byte).
::testing::AssertionResult same_tensor(const TensorI8& got, const TensorI8& want) {
    if (got.shape != want.shape) {
        return ::testing::AssertionFailure() << "shapes differ";
    }
    size_t mismatches = 0;
    std::string first;
    for (size_t i = 0; i < got.data.size(); ++i) {
        if (got.data[i] != want.data[i]) {
            if (mismatches++ == 0) {
                first = "first at flat index " + std::to_string(i) + ": got " +
                        std::to_string(got.data[i]) + ", want " + std::to_string(want.data[i]);
            }
        }
    }
    if (mismatches == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << mismatches << " of " << got.data.size() << " elements differ; " << first;
}

// Names of entries added, removed or changed between two directory snapshots.
::testing::AssertionResult unchanged(const std::map<std::string, std::string>& before,
                                     const std::map<std::string, std::string>& after) {
    std::string diff;
    for (const auto& [name, bytes] : after) {
        auto it = before.find(name);
        if (it == before.end()) {
            diff += " created '" + name + "';";
        } else if (it->second != bytes) {
            diff += " modified '" + name + "';";
        }
    }
    for (const auto& [name, bytes] : before) {
        if (after.count(name) == 0) diff += " removed '" + name + "';";
    }
    if (diff.empty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "directory changed:" << diff;
}

void expect_success(const RunResult& r) {
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(r.err, "") << describe(r);
}

// docs/cli.md, "Exit codes": exit 2 and exactly one line on stderr starting "error: ".
void expect_usage_error(const RunResult& r) {
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_TRUE(r.err.starts_with("error: ")) << describe(r);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << describe(r);
    EXPECT_TRUE(r.err.ends_with('\n')) << describe(r);
}

// ---- fixture -----------------------------------------------------------------------

class CliTest : public ::testing::Test {
protected:
    std::string path(const std::string& name) const { return dir_.file(name); }
    std::string put(const std::string& name, const TensorI8& t) const {
        accel::write_npy(path(name), t);
        return path(name);
    }
    std::string put(const std::string& name, const TensorI32& t) const {
        accel::write_npy(path(name), t);
        return path(name);
    }

    TempDir dir_{"conv2d"};
};

// ---- successful runs ---------------------------------------------------------------

// A layer exercising every geometric parameter asymmetrically, zero points, bias and
// per-channel requantization from .npy files.
struct GeometryLayer {
    static constexpr int64_t N = 2, H = 9, W = 11, C = 5, K = 7, R = 3, S = 3;
    static constexpr int SH = 2, SW = 1, PT = 1, PB = 0, PL = 2, PR = 1, DH = 1, DW = 2;
    static constexpr int ZX = 3, ZY = -7;

    TensorI8 x = random_i8({N, H, W, C}, 11);
    TensorI8 w = random_i8({R, S, C, K}, 12);
    TensorI32 bias = random_i32({K}, 13, -5000, 5000);
    TensorI32 multiplier = i32_vector({1300000000, 1400000000, 1500000000, 1600000000,
                                       1700000000, 1800000000, 2000000000});
    TensorI32 shift = i32_vector({-9, -10, -9, -10, -9, -10, -11});

    accel::Conv2dLayer layer() const {
        accel::Conv2dLayer l;
        l.shape = {N, H, W, C, K, R, S};
        l.params.stride_h = SH;
        l.params.stride_w = SW;
        l.params.pad_top = PT;
        l.params.pad_bottom = PB;
        l.params.pad_left = PL;
        l.params.pad_right = PR;
        l.params.dilation_h = DH;
        l.params.dilation_w = DW;
        l.params.input_zero_point = ZX;
        l.params.output_zero_point = ZY;
        l.params.multiplier = multiplier.data;
        l.params.shift = shift.data;
        return l;
    }
};

TEST_F(CliTest, RefBackendMatchesGoldenReferenceWithPerChannelNpyRequantization) {
    const GeometryLayer g;
    const std::vector<std::string> args = {
        "conv2d", "--backend", "ref",
        "--input", put("X.npy", g.x), "--weights", put("W.npy", g.w),
        "--bias", put("B.npy", g.bias),
        "--stride", "2,1", "--pad", "1,0,2,1", "--dilation", "1,2",
        "--input-zero-point", "3", "--output-zero-point", "-7",
        "--multiplier", put("M.npy", g.multiplier), "--shift", put("S.npy", g.shift),
        "--output", path("Y.npy")};
    const auto inputs_before = snapshot(dir_.path());

    const RunResult r = run_accel(args);
    expect_success(r);
    ASSERT_TRUE(fs::exists(path("Y.npy"))) << describe(r);

    const TensorI8 y = accel::read_npy_i8(path("Y.npy"));
    const int64_t oh = out_extent(g.H, g.PT, g.PB, g.R, g.DH, g.SH);
    const int64_t ow = out_extent(g.W, g.PL, g.PR, g.S, g.DW, g.SW);
    EXPECT_EQ(oh, 4);
    EXPECT_EQ(ow, 10);
    EXPECT_EQ(y.shape, (std::vector<int64_t>{g.N, oh, ow, g.K}));
    EXPECT_TRUE(same_tensor(y, accel::conv2d_reference(g.layer(), g.x, g.w, g.bias.data)));
    EXPECT_GT(distinct_values(y), 20u) << "outputs are not spread: the test would be weak";

    // Exactly one new file, and the inputs untouched: no temporaries left behind.
    auto after = snapshot(dir_.path());
    EXPECT_EQ(after.erase("Y.npy"), 1u);
    EXPECT_TRUE(unchanged(inputs_before, after));
}

// The device backends with --check: exit 0, bit-exact, a report with every key of
// docs/cli.md, on both configs a model is built for.
TEST_F(CliTest, DeviceBackendsAreBitExactAndReportEveryKey) {
    const GeometryLayer g;
    for (const char* backend : {"fsim", "verilator"}) {
        for (const char* cfg : {"default", "tiny"}) {
            const std::string tag = std::string(backend) + "_" + cfg;
            const std::vector<std::string> args = {
                "conv2d", "--backend", backend, "--check",
                "--hw", accel::test::shipped_hw_path(cfg),
                "--input", put("X.npy", g.x), "--weights", put("W.npy", g.w),
                "--bias", put("B.npy", g.bias),
                "--stride", "2,1", "--pad", "1,0,2,1", "--dilation", "1,2",
                "--input-zero-point", "3", "--output-zero-point", "-7",
                "--multiplier", put("M.npy", g.multiplier), "--shift", put("S.npy", g.shift),
                "--output", path("Y_" + tag + ".npy"), "--report", path("R_" + tag + ".json")};
            const RunResult r = run_accel(args);
            expect_success(r);
            const TensorI8 y = accel::read_npy_i8(path("Y_" + tag + ".npy"));
            EXPECT_TRUE(same_tensor(y, accel::conv2d_reference(g.layer(), g.x, g.w, g.bias.data)))
                << tag;
            // A passing --check says how many outputs it compared: N*OH*OW*K.
            EXPECT_EQ(r.out, "check: bit-exact: all " + std::to_string(y.data.size()) +
                                 " outputs match the golden reference\n")
                << tag;
            EXPECT_EQ(y.data.size(), static_cast<size_t>(g.N * 4 * 10 * g.K)) << tag;
            const auto report =
                nlohmann::json::parse(accel::e2e::read_bytes(path("R_" + tag + ".json")));
            for (const char* key : accel::e2e::kConv2dReportKeys) {
                EXPECT_TRUE(report.contains(key)) << tag << " lacks " << key;
            }
            EXPECT_EQ(report["bit_exact"], true) << tag;
            EXPECT_EQ(report["macs"], g.N * 4 * 10 * g.K * g.R * g.S * g.C) << tag;
            for (const char* buf : {"input", "weight", "acc"}) {
                EXPECT_LE(report["buffers"][buf]["used_bytes"].get<int64_t>(),
                          report["buffers"][buf]["capacity_bytes"].get<int64_t>()) << tag;
            }
            if (std::string(backend) == "verilator") {
                const double eff = report["efficiency"].get<double>();
                EXPECT_GT(eff, 0.0) << tag;
                EXPECT_LE(eff, 1.0) << tag;
            }
        }
    }
}

TEST_F(CliTest, RefBackendWithScaleAndReluMatchesGoldenReference) {
    const GeometryLayer g;
    constexpr int kZy = -10;
    constexpr double kScale = 0.0012;
    const RunResult r = run_accel(
        {"conv2d", "--backend", "ref", "--input", put("X.npy", g.x), "--weights",
         put("W.npy", g.w), "--bias", put("B.npy", g.bias), "--stride", "2,1", "--pad",
         "1,0,2,1", "--dilation", "1,2", "--input-zero-point", "3", "--output-zero-point",
         std::to_string(kZy), "--scale", "0.0012", "--relu", "--output", path("Y.npy")});
    expect_success(r);
    ASSERT_TRUE(fs::exists(path("Y.npy"))) << describe(r);

    accel::Conv2dLayer layer = g.layer();
    const accel::QuantizedMultiplier q = accel::quantize_multiplier(kScale);
    layer.params.multiplier.assign(g.K, q.multiplier);
    layer.params.shift.assign(g.K, q.shift);
    layer.params.output_zero_point = kZy;
    layer.params.act_min = kZy;  // ReLU is act_min = zy

    const TensorI8 y = accel::read_npy_i8(path("Y.npy"));
    EXPECT_EQ(y.shape, (std::vector<int64_t>{g.N, 4, 10, g.K}));
    EXPECT_TRUE(same_tensor(y, accel::conv2d_reference(layer, g.x, g.w, g.bias.data)));
    EXPECT_GT(distinct_values(y), 20u);
    EXPECT_EQ(*std::min_element(y.data.begin(), y.data.end()), kZy) << "ReLU never clamped";
}

TEST_F(CliTest, ScalarMultiplierShiftAndSymmetricPaddingMatchGoldenReference) {
    const TensorI8 x = random_i8({1, 8, 8, 16}, 21);
    const TensorI8 w = random_i8({3, 3, 16, 8}, 22);
    const RunResult r = run_accel({"conv2d", "--backend", "ref", "--input", put("X.npy", x),
                                   "--weights", put("W.npy", w), "--pad", "1", "--stride", "2",
                                   "--multiplier", "1518500250", "--shift", "-10", "--act-max",
                                   "100", "--output", path("Y.npy")});
    expect_success(r);
    ASSERT_TRUE(fs::exists(path("Y.npy"))) << describe(r);

    accel::Conv2dLayer layer;
    layer.shape = {1, 8, 8, 16, 8, 3, 3};
    layer.params.stride_h = layer.params.stride_w = 2;
    layer.params.pad_top = layer.params.pad_bottom = layer.params.pad_left =
        layer.params.pad_right = 1;
    layer.params.multiplier.assign(8, 1518500250);
    layer.params.shift.assign(8, -10);
    layer.params.act_max = 100;
    const TensorI8 y = accel::read_npy_i8(path("Y.npy"));
    EXPECT_EQ(y.shape, (std::vector<int64_t>{1, 4, 4, 8}));
    EXPECT_TRUE(same_tensor(y, accel::conv2d_reference(layer, x, w, std::vector<int32_t>(8, 0))));
    EXPECT_GT(distinct_values(y), 20u);
}

// A positive shift (TFLite's effective scale >= 1) on the device backends: --shift 3
// with a multiplier that keeps the outputs spread, and --scale 1.5 (shift 1).
TEST_F(CliTest, PositiveShiftsAreBitExactOnTheDevices) {
    const TensorI8 x = random_i8({1, 8, 8, 16}, 51);
    const TensorI8 w = random_i8({3, 3, 16, 8}, 52);
    accel::Conv2dLayer layer;
    layer.shape = {1, 8, 8, 16, 8, 3, 3};
    layer.params.pad_top = layer.params.pad_bottom = layer.params.pad_left =
        layer.params.pad_right = 1;
    const std::vector<int32_t> bias(8, 0);
    for (const char* backend : {"fsim", "verilator"}) {
        const std::string tag = backend;
        const RunResult r = run_accel(
            {"conv2d", "--backend", backend, "--check", "--input", put("X.npy", x),
             "--weights", put("W.npy", w), "--pad", "1", "--multiplier", "200000", "--shift",
             "3", "--output", path("Y_" + tag + ".npy")});
        expect_success(r);
        layer.params.multiplier.assign(8, 200000);
        layer.params.shift.assign(8, 3);
        const TensorI8 y = accel::read_npy_i8(path("Y_" + tag + ".npy"));
        EXPECT_TRUE(same_tensor(y, accel::conv2d_reference(layer, x, w, bias))) << tag;
        EXPECT_GT(distinct_values(y), 20u) << tag;

        const RunResult s = run_accel(
            {"conv2d", "--backend", backend, "--check", "--input", put("X.npy", x),
             "--weights", put("W.npy", w), "--pad", "1", "--scale", "1.5", "--output",
             path("Y15_" + tag + ".npy")});
        expect_success(s);
        layer.params.multiplier.assign(8, 3 << 29);  // 1.5 = 0.75 * 2^1
        layer.params.shift.assign(8, 1);
        EXPECT_TRUE(same_tensor(accel::read_npy_i8(path("Y15_" + tag + ".npy")),
                                accel::conv2d_reference(layer, x, w, bias))) << tag;
    }
}

TEST_F(CliTest, SuccessfulRunReplacesAnExistingOutputFile) {
    const TensorI8 x = random_i8({1, 4, 4, 2}, 31);
    const TensorI8 w = random_i8({1, 1, 2, 3}, 32);
    accel::e2e::write_bytes(path("Y.npy"), "stale contents");
    const RunResult r = run_accel({"conv2d", "--backend", "ref", "--input", put("X.npy", x),
                                   "--weights", put("W.npy", w), "--scale", "0.01",
                                   "--output", path("Y.npy")});
    expect_success(r);
    EXPECT_EQ(accel::read_npy_i8(path("Y.npy")).shape, (std::vector<int64_t>{1, 4, 4, 3}));
}

// ---- --report ----------------------------------------------------------------------

TEST_F(CliTest, ReportHasBackendMacsAndCycleBounds) {
    const GeometryLayer g;
    const RunResult r = run_accel(
        {"conv2d", "--backend", "ref", "--input", put("X.npy", g.x), "--weights",
         put("W.npy", g.w), "--stride", "2,1", "--pad", "1,0,2,1", "--dilation", "1,2",
         "--scale", "0.001", "--output", path("Y.npy"), "--report", path("R.json")});
    expect_success(r);
    ASSERT_TRUE(fs::exists(path("Y.npy")));
    ASSERT_TRUE(fs::exists(path("R.json"))) << describe(r);

    const nlohmann::json report =
        nlohmann::json::parse(accel::e2e::read_bytes(path("R.json")), nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << "not JSON: " << accel::e2e::read_bytes(path("R.json"));
    ASSERT_TRUE(report.is_object());

    const int64_t oh = out_extent(g.H, g.PT, g.PB, g.R, g.DH, g.SH);
    const int64_t ow = out_extent(g.W, g.PL, g.PR, g.S, g.DW, g.SW);
    const int64_t macs = g.N * oh * ow * g.K * g.R * g.S * g.C;
    EXPECT_EQ(macs, 25200);

    EXPECT_EQ(report.value("backend", ""), "ref");
    ASSERT_TRUE(report.contains("macs"));
    EXPECT_EQ(report["macs"].get<int64_t>(), macs);
    for (const char* key : {"ideal_cycles", "roofline_cycles"}) {
        ASSERT_TRUE(report.contains(key)) << key;
        ASSERT_TRUE(report[key].is_number_integer()) << key;
        EXPECT_GT(report[key].get<int64_t>(), 0) << key;
    }
    // The default core has 1x16x16 PEs: no run beats MACs / PEs.
    EXPECT_GE(report["roofline_cycles"].get<int64_t>(), (macs + 255) / 256);
}

TEST_F(CliTest, ReportUsesTheGivenHwConfig) {
    const TensorI8 x = random_i8({1, 6, 6, 8}, 41);
    const TensorI8 w = random_i8({3, 3, 8, 8}, 42);
    const std::string tiny = accel::test::shipped_hw_path("tiny");
    const RunResult r = run_accel({"conv2d", "--backend", "ref", "--input", put("X.npy", x),
                                   "--weights", put("W.npy", w), "--scale", "0.01", "--hw",
                                   tiny, "--output", path("Y.npy"), "--report",
                                   path("R.json")});
    expect_success(r);
    const auto report = nlohmann::json::parse(accel::e2e::read_bytes(path("R.json")));
    const int64_t macs = 1 * 4 * 4 * 8 * 3 * 3 * 8;
    EXPECT_EQ(report["macs"].get<int64_t>(), macs);
    EXPECT_EQ(report["hw"], "tiny");
    // tiny has 1x4x4 = 16 PEs, the default 256.
    EXPECT_GE(report["roofline_cycles"].get<int64_t>(), macs / 16);
    // 4x4 outputs x 3x3 taps x 2 input-channel blocks x 2 output-channel blocks of 4
    // (the default's blocks of 16 would give 144).
    EXPECT_EQ(report["ideal_cycles"].get<int64_t>(), 4 * 4 * 3 * 3 * 2 * 2);
}

// ---- bad input: exit 2, one "error:" line, nothing written --------------------------

// Arguments in a case may start with "$D/": that part is replaced by the test's
// temporary directory.
struct BadCase {
    std::string name;
    std::vector<std::pair<std::string, std::string>> set = {};  // add or replace; "" = flag
    std::vector<std::string> drop = {};    // options removed from the base command
    std::vector<std::string> tail = {};    // raw tokens appended at the end
    std::vector<std::string> expect = {};  // substrings the error line must contain
};

std::ostream& operator<<(std::ostream& os, const BadCase& c) { return os << c.name; }

// A valid command; every case changes one thing about it.
const std::vector<std::pair<std::string, std::string>> kBaseArgs = {
    {"--backend", "ref"},       {"--input", "$D/X.npy"},      {"--weights", "$D/W.npy"},
    {"--bias", "$D/B.npy"},     {"--multiplier", "$D/M.npy"}, {"--shift", "$D/S.npy"},
    {"--output", "$D/Y.npy"},
};

const std::vector<BadCase> kBadCases = {
    // tensors
    {.name = "MissingInput", .drop = {"--input"}, .expect = {"--input"}},
    {.name = "NonexistentInput", .set = {{"--input", "$D/missing.npy"}}, .expect = {"missing.npy"}},
    {.name = "InputIsText", .set = {{"--input", "$D/text.npy"}}, .expect = {"text.npy"}},
    {.name = "InputInt32", .set = {{"--input", "$D/X_int32.npy"}}, .expect = {"X_int32.npy"}},
    {.name = "InputRank3", .set = {{"--input", "$D/X_rank3.npy"}}, .expect = {"X_rank3.npy"}},
    {.name = "WeightsChannelMismatch", .set = {{"--weights", "$D/W_c2.npy"}}, .expect = {"W_c2.npy"}},
    {.name = "BiasWrongLength", .set = {{"--bias", "$D/B_len3.npy"}}, .expect = {"B_len3.npy"}},
    {.name = "BiasInt8", .set = {{"--bias", "$D/B_int8.npy"}}, .expect = {"B_int8.npy"}},
    {.name = "KernelLargerThanPaddedInput", .set = {{"--input", "$D/X_2x2.npy"}},
     .expect = {"kernel"}},
    // requantization
    {.name = "MultiplierNpyWrongLength", .set = {{"--multiplier", "$D/M_len5.npy"}},
     .expect = {"--multiplier", "M_len5.npy"}},
    {.name = "ShiftAbove30", .set = {{"--shift", "31"}}, .expect = {"--shift"}},
    {.name = "ShiftBelowMinus31", .set = {{"--shift", "-32"}}, .expect = {"--shift"}},
    {.name = "MultiplierNegative", .set = {{"--multiplier", "-1"}}, .expect = {"--multiplier"}},
    {.name = "ShiftNpyOutOfRange", .set = {{"--shift", "$D/S_range.npy"}},
     .expect = {"--shift", "S_range.npy"}},
    {.name = "ScaleNeedsShift31", .set = {{"--scale", "1073741824"}},
     .drop = {"--multiplier", "--shift"}, .expect = {"--scale"}},
    {.name = "ScaleZero", .set = {{"--scale", "0"}}, .drop = {"--multiplier", "--shift"},
     .expect = {"--scale"}},
    {.name = "ScaleNotANumber", .set = {{"--scale", "abc"}}, .drop = {"--multiplier", "--shift"},
     .expect = {"--scale"}},
    {.name = "ScaleWithMultiplier", .set = {{"--scale", "0.5"}}, .drop = {"--shift"},
     .expect = {"--scale"}},
    {.name = "MultiplierWithoutShift", .drop = {"--shift"}, .expect = {"--shift"}},
    // geometry
    {.name = "StrideZero", .set = {{"--stride", "0"}}, .expect = {"--stride"}},
    {.name = "StrideThreeValues", .set = {{"--stride", "1,2,3"}}, .expect = {"--stride"}},
    {.name = "PadNegative", .set = {{"--pad", "-1"}}, .expect = {"--pad"}},
    {.name = "DilationZero", .set = {{"--dilation", "0"}}, .expect = {"--dilation"}},
    // zero points and clamp
    {.name = "InputZeroPoint128", .set = {{"--input-zero-point", "128"}},
     .expect = {"--input-zero-point"}},
    {.name = "OutputZeroPointMinus129", .set = {{"--output-zero-point", "-129"}},
     .expect = {"--output-zero-point"}},
    {.name = "ActMinAboveActMax", .set = {{"--act-min", "10"}, {"--act-max", "5"}},
     .expect = {"--act-min"}},
    {.name = "ReluWithActMin", .set = {{"--relu", ""}, {"--act-min", "0"}}, .expect = {"--relu"}},
    // command-line syntax
    {.name = "UnknownOption", .tail = {"--foo"}, .expect = {"--foo"}},
    {.name = "AbbreviatedOption", .drop = {"--input"}, .tail = {"--inp", "$D/X.npy"},
     .expect = {"--inp"}},
    {.name = "ExtraPositionalArgument", .tail = {"stray_argument"}, .expect = {"stray_argument"}},
    // backends and their options
    {.name = "UnknownBackend", .set = {{"--backend", "tpu"}}, .expect = {"--backend", "tpu"}},
    {.name = "VerilatorWithoutAModelForTheConfig",
     .set = {{"--backend", "verilator"}, {"--hw", "$D/hw_block8.yaml"}},
     .expect = {"verilator", "no Verilator model"}},
    {.name = "TraceWithFsimBackend", .set = {{"--backend", "fsim"}, {"--trace", "$D/T.fst"}},
     .expect = {"--trace"}},
    {.name = "CheckWithRefBackend", .set = {{"--check", ""}}, .expect = {"--check"}},
    {.name = "TraceWithRefBackend", .set = {{"--trace", "$D/T.fst"}}, .expect = {"--trace"}},
    {.name = "HwConfigUnknownKey", .set = {{"--hw", "$D/hw_unknown_key.yaml"}},
     .expect = {"hw_unknown_key.yaml", "frobnicate"}},
    // output files
    {.name = "OutputIsTheInput", .set = {{"--output", "$D/X.npy"}}, .expect = {"X.npy"}},
    {.name = "OutputInNonexistentDirectory", .set = {{"--output", "$D/no_such_dir/Y.npy"}},
     .expect = {"no_such_dir"}},
    {.name = "ReportInNonexistentDirectory", .set = {{"--report", "$D/no_such_dir/R.json"}},
     .expect = {"--report", "no_such_dir"}},
    {.name = "ReportIsTheOutputSpelledDifferently", .set = {{"--report", "$D/./Y.npy"}},
     .expect = {"--report", "--output"}},
    {.name = "TraceIsTheReportSpelledDifferently",
     .set = {{"--backend", "verilator"}, {"--report", "$D/T.fst"}, {"--trace", "$D/./T.fst"}},
     .expect = {"--trace", "--report"}},
    {.name = "OutputIsTheInputSpelledDifferently", .set = {{"--output", "$D/./X.npy"}},
     .expect = {"--output", "input"}},
    // empty values are not absent options
    {.name = "EmptyActMin", .tail = {"--act-min", ""}, .expect = {"--act-min: empty value"}},
    {.name = "EmptyHw", .tail = {"--hw", ""}, .expect = {"--hw: empty value"}},
    {.name = "EmptyBias", .drop = {"--bias"}, .tail = {"--bias", ""},
     .expect = {"--bias: empty value"}},
    {.name = "EmptyReport", .tail = {"--report", ""}, .expect = {"--report: empty value"}},
    // shapes as Python prints them
    {.name = "BiasRank1WrongLength", .set = {{"--bias", "$D/B_len3.npy"}}, .expect = {"(3,)"}},
};

class BadConv2dInput : public CliTest, public ::testing::WithParamInterface<BadCase> {
protected:
    void SetUp() override {
        // Valid files of the base command: x [1,6,7,3], w [3,3,3,4], K = 4.
        put("X.npy", random_i8({1, 6, 7, 3}, 1));
        put("W.npy", random_i8({3, 3, 3, 4}, 2));
        put("B.npy", random_i32({4}, 3, -1000, 1000));
        put("M.npy", i32_vector({1 << 30, 1 << 29, 1500000000, 2147483647}));
        put("S.npy", i32_vector({-6, -7, -8, 0}));
        // One defect each.
        accel::e2e::write_bytes(path("text.npy"), "this is not a numpy file\n");
        put("X_int32.npy", random_i32({1, 6, 7, 3}, 4, -128, 127));
        put("X_rank3.npy", random_i8({6, 7, 3}, 5));
        put("X_2x2.npy", random_i8({1, 2, 2, 3}, 6));
        put("W_c2.npy", random_i8({3, 3, 2, 4}, 7));
        put("B_len3.npy", random_i32({3}, 8, -1000, 1000));
        put("B_int8.npy", random_i8({4}, 9));
        put("M_len5.npy", i32_vector({1 << 30, 1 << 30, 1 << 30, 1 << 30, 1 << 30}));
        put("S_range.npy", i32_vector({-1, -2, 31, -4}));
        std::string hw = accel::e2e::read_bytes(accel::test::shipped_hw_path("default"));
        accel::e2e::write_bytes(path("hw_unknown_key.yaml"), hw + "frobnicate: 1\n");
        // A valid config no Verilator model was built for.
        std::string block8 = hw;
        block8.replace(block8.find("block_in: 16"), 12, "block_in: 8");
        accel::e2e::write_bytes(path("hw_block8.yaml"), block8);
    }

    std::string expand(const std::string& arg) const {
        return arg.starts_with("$D/") ? path(arg.substr(3)) : arg;
    }

    std::vector<std::string> command(const BadCase& c) const {
        std::vector<std::pair<std::string, std::string>> opts;
        for (const auto& [opt, value] : kBaseArgs) {
            const bool dropped = std::find(c.drop.begin(), c.drop.end(), opt) != c.drop.end();
            const bool replaced = std::any_of(c.set.begin(), c.set.end(),
                                              [&](const auto& s) { return s.first == opt; });
            if (!dropped && !replaced) opts.emplace_back(opt, value);
        }
        opts.insert(opts.end(), c.set.begin(), c.set.end());
        std::vector<std::string> args{"conv2d"};
        for (const auto& [opt, value] : opts) {
            args.push_back(opt);
            if (!value.empty()) args.push_back(expand(value));
        }
        for (const std::string& t : c.tail) args.push_back(expand(t));
        return args;
    }

    void expect_rejected(const BadCase& c) {
        const auto before = snapshot(dir_.path());
        const RunResult r = run_accel(command(c));
        expect_usage_error(r);
        for (const std::string& s : c.expect) {
            EXPECT_NE(r.err.find(s), std::string::npos) << "error does not mention '" << s
                                                        << "': " << r.err;
        }
        EXPECT_EQ(r.out, "");
        EXPECT_TRUE(unchanged(before, snapshot(dir_.path())));
    }
};

TEST_F(BadConv2dInput, BaseCommandSucceeds) {
    const RunResult r = run_accel(command(BadCase{.name = "base"}));
    expect_success(r);
    EXPECT_TRUE(fs::exists(path("Y.npy")));
}

TEST_P(BadConv2dInput, ExitsTwoWithOneErrorLineAndWritesNothing) {
    SCOPED_TRACE(::testing::PrintToString(command(GetParam())));
    {
        SCOPED_TRACE("no output file yet");
        expect_rejected(GetParam());
    }
    {
        SCOPED_TRACE("existing output and report files");
        accel::e2e::write_bytes(path("Y.npy"), "precious old output\n");
        accel::e2e::write_bytes(path("R.json"), "{\"old\": true}\n");
        expect_rejected(GetParam());
    }
}

INSTANTIATE_TEST_SUITE_P(Table, BadConv2dInput, ::testing::ValuesIn(kBadCases),
                         [](const auto& info) { return info.param.name; });

// ---- help and dispatch -------------------------------------------------------------

TEST(CliHelp, TopLevelHelpListsCommands) {
    for (const char* flag : {"--help", "-h"}) {
        const RunResult r = run_accel({flag});
        expect_success(r);
        for (const char* command : {"conv2d", "random"}) {
            EXPECT_NE(r.out.find(command), std::string::npos) << flag << ": " << command;
        }
    }
}

TEST(CliHelp, Conv2dHelpListsEveryOptionOfTheContract) {
    const RunResult r = run_accel({"conv2d", "--help"});
    expect_success(r);
    for (const char* option :
         {"--input", "--weights", "--bias", "--stride", "--pad", "--dilation",
          "--input-zero-point", "--output-zero-point", "--scale", "--multiplier", "--shift",
          "--act-min", "--act-max", "--relu", "--output", "--hw", "--backend", "--check",
          "--report", "--trace"}) {
        // Followed by a space or newline, so "--input" is not satisfied by "--input-zero-point".
        const bool found = r.out.find(std::string(option) + " ") != std::string::npos ||
                           r.out.find(std::string(option) + "\n") != std::string::npos;
        EXPECT_TRUE(found) << option << " missing from:\n" << r.out;
    }
    for (const char* backend : {"verilator", "fsim", "ref"}) {
        EXPECT_NE(r.out.find(backend), std::string::npos) << backend;
    }
}

TEST(CliHelp, RandomHelpListsItsOptions) {
    const RunResult r = run_accel({"random", "--help"});
    expect_success(r);
    for (const char* option : {"--shape", "--dtype", "--seed", "--min", "--max", "--output"}) {
        EXPECT_NE(r.out.find(option), std::string::npos) << option;
    }
}

TEST(CliDispatch, NoArgumentsExitsTwo) {
    const RunResult r = run_accel({});
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_TRUE(r.err.starts_with("error: ")) << describe(r);
}

TEST(CliDispatch, UnknownCommandExitsTwoAndNamesIt) {
    const RunResult r = run_accel({"bogus"});
    expect_usage_error(r);
    EXPECT_NE(r.err.find("bogus"), std::string::npos) << r.err;
}

// ---- accel random ------------------------------------------------------------------

TEST_F(CliTest, RandomWritesInt32TensorInRangeReproducibly) {
    auto run = [&](const std::string& out, const std::string& seed) {
        return run_accel({"random", "--shape", "2,3", "--dtype", "int32", "--seed", seed,
                          "--min", "-3", "--max", "3", "--output", path(out)});
    };
    expect_success(run("T.npy", "5"));
    expect_success(run("T_again.npy", "5"));

    const TensorI32 t = accel::read_npy_i32(path("T.npy"));
    EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 3}));
    ASSERT_EQ(t.data.size(), 6u);
    for (int32_t v : t.data) {
        EXPECT_GE(v, -3);
        EXPECT_LE(v, 3);
    }
    EXPECT_EQ(accel::e2e::read_bytes(path("T.npy")), accel::e2e::read_bytes(path("T_again.npy")));
}

TEST_F(CliTest, RandomSeedChangesTheTensor) {
    for (const char* seed : {"1", "2"}) {
        expect_success(run_accel({"random", "--shape", "64", "--seed", seed, "--output",
                                  path(std::string("T") + seed + ".npy")}));
    }
    const TensorI8 a = accel::read_npy_i8(path("T1.npy"));
    EXPECT_EQ(a.shape, (std::vector<int64_t>{64}));
    EXPECT_NE(a.data, accel::read_npy_i8(path("T2.npy")).data);
}

// The draw of docs/cli.md: SplitMix64 seeded with --seed, each element lo + draw mod
// (hi - lo + 1). The draws are SplitMix64's published reference outputs for seed 1234567
// (Vigna's splitmix64.c), so the expected values do not come from the kit itself.
TEST_F(CliTest, RandomIsSplitMix64ModuloTheRange) {
    const std::vector<uint64_t> draws = {6457827717110365317ULL, 3203168211198807973ULL,
                                         9817491932198370423ULL, 4593380528125082431ULL,
                                         16408922859458223821ULL};
    expect_success(run_accel({"random", "--shape", "5", "--seed", "1234567", "--output",
                              path("I8.npy")}));
    expect_success(run_accel({"random", "--shape", "5", "--seed", "1234567", "--dtype", "int32",
                              "--output", path("I32.npy")}));
    expect_success(run_accel({"random", "--shape", "5", "--seed", "1234567", "--min", "-3",
                              "--max", "3", "--output", path("Small.npy")}));
    const TensorI8 i8 = accel::read_npy_i8(path("I8.npy"));
    const TensorI32 i32 = accel::read_npy_i32(path("I32.npy"));
    const TensorI8 small = accel::read_npy_i8(path("Small.npy"));
    ASSERT_EQ(i8.data.size(), draws.size());
    ASSERT_EQ(i32.data.size(), draws.size());
    ASSERT_EQ(small.data.size(), draws.size());
    for (size_t i = 0; i < draws.size(); ++i) {
        EXPECT_EQ(i8.data[i], -128 + static_cast<int>(draws[i] % 256)) << i;
        EXPECT_EQ(i32.data[i], static_cast<int64_t>(INT32_MIN) +
                                   static_cast<int64_t>(draws[i] % (uint64_t{1} << 32)))
            << i;
        EXPECT_EQ(small.data[i], -3 + static_cast<int>(draws[i] % 7)) << i;
    }
}

TEST_F(CliTest, RandomRejectsBadDtype) {
    const RunResult r = run_accel({"random", "--shape", "2,3", "--dtype", "float32", "--output",
                                   path("T.npy")});
    expect_usage_error(r);
    EXPECT_NE(r.err.find("--dtype"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_empty(dir_.path()));
}

TEST_F(CliTest, RandomRejectsExtraPositionalArgument) {
    const RunResult r =
        run_accel({"random", "--shape", "2", "--output", path("T.npy"), "stray_argument"});
    expect_usage_error(r);
    EXPECT_NE(r.err.find("stray_argument"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_empty(dir_.path()));
}

}  // namespace
