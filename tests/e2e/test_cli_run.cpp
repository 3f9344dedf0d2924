// End-to-end tests of `accel run` on inputs it must refuse, and of `accel --version`
// (docs/cli.md). Whole models against TFLite are in tests/models/.
#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_runner.hpp"

namespace accel::e2e {
namespace {

void expect_one_error_line(const RunResult& r, const std::string& phrase) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(phrase), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliVersion, NamesTheVersionRevisionAndEveryBuiltConfig) {
    const RunResult r = run_accel({"--version"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(^accel \d+\.\d+\.\d+ \(git [0-9a-f]+|unknown\))")))
        << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(default \(sha256 [0-9a-f]{12}\))"))) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(tiny \(sha256 [0-9a-f]{12}\))"))) << r.out;
}

TEST(CliRun, RefusesBadInvocationsWithOneLine) {
    TempDir dir("run");
    expect_one_error_line(run_accel({"run"}), "no model given");
    expect_one_error_line(run_accel({"run", dir.file("missing.tflite"), "--backend", "ref"}),
                          "missing.tflite");
    write_bytes(dir.file("garbage.tflite"), std::string(64, 'x'));
    expect_one_error_line(run_accel({"run", dir.file("garbage.tflite"), "--backend", "ref"}),
                          "not a valid TFLite flatbuffer");
    expect_one_error_line(
        run_accel({"run", dir.file("garbage.tflite"), "--backend", "gpu"}), "--backend gpu");
    expect_one_error_line(
        run_accel({"run", dir.file("garbage.tflite"), "--backend", "ref", "--check"}),
        "--check");
    // An output may not overwrite the model, however it is spelled.
    expect_one_error_line(run_accel({"run", dir.file("garbage.tflite"), "--backend", "fsim",
                                     "--output", dir.path().string() + "/./garbage.tflite"}),
                          "is also an input");
    expect_one_error_line(run_accel({"run", dir.file("garbage.tflite"), "--backend", "fsim",
                                     "--output", dir.file("y.npy"), "--report",
                                     dir.path().string() + "/./y.npy"}),
                          "same file");
    EXPECT_FALSE(std::filesystem::exists(dir.file("y.npy")));
}

// --device: a board instead of a backend, checked before the model is read.
TEST(CliRun, RefusesBadDeviceChoicesWithOneLine) {
    TempDir dir("run");
    write_bytes(dir.file("garbage.tflite"), std::string(64, 'x'));
    const std::string model = dir.file("garbage.tflite");
    expect_one_error_line(run_accel({"run", model, "--device", "uart:/dev/ttyUSB0", "--backend",
                                     "fsim"}),
                          "--device: runs on a board; do not also give --backend");
    expect_one_error_line(run_accel({"run", model, "--device", "usb:0"}), "--device usb:0: unknown");
    expect_one_error_line(run_accel({"run", model, "--device", "uart:"}), "names no serial port");
    expect_one_error_line(run_accel({"run", model, "--device", "uart:/dev/ttyUSB0", "--trace",
                                     dir.file("t.fst")}),
                          "--trace: only the verilator backend");
    expect_one_error_line(run_accel({"run", model, "--device", "uart:/dev/ttyUSB0", "--max-cycles",
                                     "100"}),
                          "--max-cycles");
}

// Before the model is read: the model here is garbage.
TEST(CliRun, InferencesMustBeAPositiveCount) {
    TempDir dir("run");
    write_bytes(dir.file("garbage.tflite"), std::string(64, 'x'));
    for (const char* bad : {"0", "-1", "two", "1.5", "1000001"}) {
        expect_one_error_line(
            run_accel({"run", dir.file("garbage.tflite"), "--backend", "fsim", "--inferences", bad}),
            "--inferences");
    }
}

// Before the model is read (it is garbage here), and nothing is written.
TEST(CliRun, MatchMustNameARuntime) {
    TempDir dir("run");
    write_bytes(dir.file("garbage.tflite"), std::string(64, 'x'));
    for (const char* bad : {"", "REF", "xnn", "ref,opt"}) {
        expect_one_error_line(run_accel({"run", dir.file("garbage.tflite"), "--backend", "fsim",
                                         "--match", bad, "--output", dir.file("y.npy")}),
                              "--match");
    }
    EXPECT_FALSE(std::filesystem::exists(dir.file("y.npy")));
}

// As conv2d's (test_cli_faults.cpp), and before the model is read: the model here is garbage.
TEST(CliRun, MalformedFaultSpecsAndOtherBackendsAreExitTwo) {
    TempDir dir("run");
    write_bytes(dir.file("garbage.tflite"), std::string(64, 'x'));
    const std::vector<std::vector<std::string>> bad = {
        {"--faults", "stall=2"},
        {"--faults", "slverr=read"},
        {"--faults", "nonsense"},
        {"--faults", "stall=0.1", "--backend", "fsim"},
        {"--faults", "stall=0.1", "--backend", "ref"},
    };
    for (const std::vector<std::string>& extra : bad) {
        std::vector<std::string> args = {"run", dir.file("garbage.tflite")};
        args.insert(args.end(), extra.begin(), extra.end());
        expect_one_error_line(run_accel(args), "--faults");
    }
}

}  // namespace
}  // namespace accel::e2e
