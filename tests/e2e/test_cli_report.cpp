// accel conv2d --report on the device backends: every key of docs/cli.md ("--report"), with
// values that agree with MACs, compulsory DRAM bytes and the roofline computed here from
// the layer's dimensions by the test's own formulas (not the library's metrics).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/tensor.hpp"
#include "formats/npy.hpp"
#include "hw/hw_config.hpp"
#include "cli_runner.hpp"
#include "shipped_hw.hpp"
#include "conv2d_report.hpp"

using accel::e2e::RunResult;
using accel::e2e::run_accel;
using accel::e2e::TempDir;

namespace {

struct Layer {
    const char* name;
    int64_t n, h, w, c, k, r, s;
    int sh, sw, pt, pb, pl, pr, dh, dw;

    int64_t oh() const { return (h + pt + pb - dh * (r - 1) - 1) / sh + 1; }
    int64_t ow() const { return (w + pl + pr - dw * (s - 1) - 1) / sw + 1; }
    int64_t macs() const { return n * oh() * ow() * k * r * s * c; }
    // Input pixels some output tap lands on, by walking every output and tap over a map
    // of the image (padding taps land outside and count nothing).
    int64_t input_elements_read() const {
        std::vector<char> hit(static_cast<size_t>(h * w), 0);
        for (int64_t y = 0; y < oh(); ++y)
            for (int64_t x = 0; x < ow(); ++x)
                for (int64_t i = 0; i < r; ++i)
                    for (int64_t j = 0; j < s; ++j) {
                        const int64_t iy = y * sh - pt + i * dh, ix = x * sw - pl + j * dw;
                        if (iy >= 0 && iy < h && ix >= 0 && ix < w) hit[iy * w + ix] = 1;
                    }
        return n * c * std::count(hit.begin(), hit.end(), 1);
    }
    // docs/cli.md, `compulsory_dram_bytes`: input read + weights + bias and
    // requantization (int32 bias, int32 multiplier, int8 shift per output channel)
    // + outputs, each once.
    int64_t compulsory_bytes() const {
        return input_elements_read() + r * s * c * k + 9 * k + n * oh() * ow() * k;
    }
};

const Layer kLayers[] = {
    // 1x1 stride 2: reads a quarter of its input.
    {"1x1 stride 2", 2, 8, 10, 20, 24, 1, 1, 2, 2, 0, 0, 0, 0, 1, 1},
    // Asymmetric padding, stride and dilation.
    {"3x3 asymmetric", 1, 9, 11, 5, 7, 3, 3, 2, 1, 1, 0, 2, 1, 1, 2},
    // Stride 3 without padding leaves the last rows and columns unread.
    {"3x3 stride 3", 1, 11, 10, 17, 9, 3, 3, 3, 3, 0, 0, 0, 0, 1, 1},
};

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

accel::TensorI8 random_i8(std::vector<int64_t> shape, uint32_t seed) {
    accel::TensorI8 t(std::move(shape));
    std::mt19937 rng(seed);
    for (int8_t& v : t.data) v = static_cast<int8_t>(rng() >> 24);
    return t;
}

class CliReport : public ::testing::TestWithParam<std::string> {
protected:
    TempDir dir_{"report"};
};

TEST_P(CliReport, EveryKeyAgreesWithAnIndependentRoofline) {
    const std::string backend = GetParam();
    for (const char* cfg : {"default", "tiny"}) {
        const std::string yaml = accel::test::shipped_hw_path(cfg);
        const accel::HwConfig hw = accel::load_hw_config(yaml);
        const int64_t pes = int64_t{hw.batch} * hw.block_in * hw.block_out;
        const int64_t bus_bytes = hw.axi_data_bits / 8;
        int seed = 0;
        for (const Layer& l : kLayers) {
            const std::string tag = backend + " " + cfg + " " + l.name;
            const std::string x = dir_.file("X.npy"), w = dir_.file("W.npy");
            accel::write_npy(x, random_i8({l.n, l.h, l.w, l.c}, ++seed));
            accel::write_npy(w, random_i8({l.r, l.s, l.c, l.k}, ++seed));
            const std::string pad = std::to_string(l.pt) + "," + std::to_string(l.pb) + "," +
                                    std::to_string(l.pl) + "," + std::to_string(l.pr);
            const RunResult run = run_accel(
                {"conv2d", "--backend", backend, "--hw", yaml, "--input", x, "--weights", w,
                 "--stride", std::to_string(l.sh) + "," + std::to_string(l.sw), "--pad", pad,
                 "--dilation", std::to_string(l.dh) + "," + std::to_string(l.dw),
                 "--input-zero-point", "5", "--scale", "0.003", "--check", "--output",
                 dir_.file("Y.npy"), "--report", dir_.file("R.json")});
            ASSERT_EQ(run.exit_code, 0) << tag << "\n" << describe(run);
            const auto rep = nlohmann::json::parse(accel::e2e::read_bytes(dir_.file("R.json")));

            for (const char* key : accel::e2e::kConv2dReportKeys) {
                ASSERT_TRUE(rep.contains(key)) << tag << " lacks " << key;
            }
            EXPECT_EQ(rep["backend"], backend) << tag;
            EXPECT_EQ(rep["bit_exact"], true) << tag;

            const int64_t macs = l.macs();
            const int64_t compulsory = l.compulsory_bytes();
            const int64_t roofline = std::max(ceil_div(macs, pes), ceil_div(compulsory, bus_bytes));
            EXPECT_EQ(rep["macs"].get<int64_t>(), macs) << tag;
            EXPECT_EQ(rep["roofline_cycles"].get<int64_t>(), roofline) << tag;
            if (rep.contains("compulsory_dram_bytes"))
                EXPECT_EQ(rep["compulsory_dram_bytes"].get<int64_t>(), compulsory) << tag;
            if (std::string(l.name) == "1x1 stride 2") {
                EXPECT_EQ(l.input_elements_read() * 4, l.n * l.h * l.w * l.c) << "a quarter";
            }

            // ideal_cycles: the GEMM issue cycles; no core issues fewer than MACs / PEs.
            const int64_t ideal = rep["ideal_cycles"].get<int64_t>();
            EXPECT_GE(ideal, ceil_div(macs, pes)) << tag;
            EXPECT_GT(rep["predicted_cycles"].get<int64_t>(), 0) << tag;
            // DRAM traffic is at least the compulsory part of each direction.
            EXPECT_GE(rep["dram_read_bytes"].get<int64_t>(),
                      l.input_elements_read() + l.r * l.s * l.c * l.k + 9 * l.k)
                << tag;
            EXPECT_GE(rep["dram_write_bytes"].get<int64_t>(), l.n * l.oh() * l.ow() * l.k) << tag;

            const std::pair<const char*, int64_t> caps[] = {
                {"input", int64_t{hw.input_kib} * 1024},
                {"weight", int64_t{hw.weight_kib} * 1024},
                {"acc", int64_t{hw.acc_kib} * 1024}};
            for (const auto& [buf, cap] : caps) {
                ASSERT_TRUE(rep["buffers"].contains(buf)) << tag << " " << buf;
                EXPECT_EQ(rep["buffers"][buf]["capacity_bytes"].get<int64_t>(), cap) << tag << buf;
                const int64_t used = rep["buffers"][buf]["used_bytes"].get<int64_t>();
                EXPECT_GT(used, 0) << tag << buf;
                EXPECT_LE(used, cap) << tag << buf;
            }
            EXPECT_TRUE(rep["tile"].is_object() && !rep["tile"].empty()) << tag;

            const double seconds = rep["sim_seconds"].get<double>();
            EXPECT_GT(seconds, 0.0) << tag;
            if (backend == "verilator") {
                const int64_t cycles = rep["cycles"].get<int64_t>();
                EXPECT_GE(cycles, roofline) << tag << ": the roofline is a lower bound";
                EXPECT_GE(cycles, ideal) << tag;
                const double eff = rep["efficiency"].get<double>();
                EXPECT_DOUBLE_EQ(eff, static_cast<double>(roofline) / static_cast<double>(cycles))
                    << tag;
                EXPECT_GT(eff, 0.0) << tag;
                EXPECT_LE(eff, 1.0) << tag;
                EXPECT_NEAR(rep["sim_cycles_per_second"].get<double>(),
                            static_cast<double>(cycles) / seconds,
                            1e-6 * static_cast<double>(cycles) / seconds)
                    << tag;
            } else {
                // fsim measures no time: no cycle figures rather than invented ones.
                EXPECT_TRUE(rep["cycles"].is_null()) << tag;
                EXPECT_TRUE(rep["efficiency"].is_null()) << tag;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, CliReport, ::testing::Values("fsim", "verilator"));

}  // namespace
