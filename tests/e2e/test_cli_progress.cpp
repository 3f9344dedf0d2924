// End-to-end tests of what accel run, bench and conv2d say while they run (docs/cli.md):
// a progress line on a terminal, nothing when stderr is not one; and of the cycle budget
// they share with exec: a run past --max-cycles is a device failure on every backend.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_runner.hpp"

namespace accel::e2e {
namespace {

const std::string kWorkload =
    "name: two\n"
    "seed: 3\n"
    "layers:\n"
    "  - {name: A, h: 6, w: 6, cin: 5, cout: 7, kernel: 3, pad: 1, stride: 1}\n"
    "  - {name: B, h: 8, w: 8, cin: 8, cout: 12, kernel: 1, pad: 0, stride: 2}\n";

class CliProgress : public ::testing::Test {
protected:
    CliProgress() : dir_("progress") {
        write_bytes(dir_.path() / "w.yaml", kWorkload);
        // A layer of some 450,000 cycles: long enough for the line to show cycles.
        run({"random", "--shape", "1,56,56,64", "--seed", "1", "--output", file("x.npy")});
        run({"random", "--shape", "3,3,64,64", "--seed", "2", "--output", file("w.npy")});
        run({"random", "--shape", "1,6,6,5", "--seed", "1", "--output", file("xs.npy")});
        run({"random", "--shape", "3,3,5,7", "--seed", "2", "--output", file("ws.npy")});
    }
    std::string file(const std::string& name) const { return dir_.file(name); }
    static void run(const std::vector<std::string>& args) {
        const RunResult r = run_accel(args);
        ASSERT_EQ(r.exit_code, 0) << describe(r);
    }
    std::vector<std::string> conv2d(const std::string& x, const std::string& w,
                                    const std::string& backend) const {
        return {"conv2d", "--input", file(x), "--weights", file(w), "--pad", "1", "--scale",
                "0.0007", "--backend", backend, "--output", file("y.npy")};
    }

    TempDir dir_;
};

TEST_F(CliProgress, QuietWhenStderrIsNotATerminal) {
    for (const char* backend : {"fsim", "verilator"}) {
        SCOPED_TRACE(backend);
        const RunResult c = run_accel(conv2d("xs.npy", "ws.npy", backend));
        EXPECT_EQ(c.exit_code, 0) << describe(c);
        EXPECT_EQ(c.err, "");
        const RunResult b =
            run_accel({"bench", "--workload", file("w.yaml"), "--backend", backend});
        EXPECT_EQ(b.exit_code, 0) << describe(b);
        EXPECT_EQ(b.err, "");
    }
}

TEST_F(CliProgress, ALineOnATerminalWithCyclesAndTheTimeLeft) {
    const RunResult c = run_accel_on_terminal(conv2d("x.npy", "w.npy", "verilator"));
    ASSERT_EQ(c.exit_code, 0) << describe(c);
    EXPECT_NE(c.err.find("conv2d: layer 1/1 1x56x56x64 -> 64, kernel 3x3; "), std::string::npos)
        << c.err;
    EXPECT_NE(c.err.find(" cycles, "), std::string::npos) << c.err;
    EXPECT_NE(c.err.find(" s left"), std::string::npos) << c.err;
    EXPECT_EQ(c.out.find("conv2d: layer"), std::string::npos) << "the line belongs on stderr";

    const RunResult b =
        run_accel_on_terminal({"bench", "--workload", file("w.yaml"), "--backend", "fsim"});
    ASSERT_EQ(b.exit_code, 0) << describe(b);
    EXPECT_NE(b.err.find("bench: layer 1/2 A "), std::string::npos) << b.err;
    EXPECT_NE(b.err.find("bench: layer 2/2 B "), std::string::npos) << b.err;
    EXPECT_EQ(b.out.find("bench: layer"), std::string::npos) << "the line belongs on stderr";
}

// A budget smaller than the layer's first instructions: fsim refuses the instruction that
// would pass it, the RTL stops there too; exit 3 with the units' states, nothing written.
TEST_F(CliProgress, MaxCyclesStopsARunOnEveryBackend) {
    for (const char* backend : {"fsim", "verilator"}) {
        SCOPED_TRACE(backend);
        std::vector<std::string> a = conv2d("xs.npy", "ws.npy", backend);
        a.insert(a.end(), {"--max-cycles", "100"});
        const RunResult c = run_accel(a);
        EXPECT_EQ(c.exit_code, 3) << describe(c);
        EXPECT_NE(c.err.find("cycle budget of 100 exhausted"), std::string::npos) << c.err;
        EXPECT_NE(c.err.find("fetch "), std::string::npos) << "the units' states: " << c.err;
        EXPECT_FALSE(std::filesystem::exists(file("y.npy")));

        const RunResult b = run_accel({"bench", "--workload", file("w.yaml"), "--backend",
                                       backend, "--max-cycles", "100"});
        EXPECT_EQ(b.exit_code, 3) << describe(b);
        EXPECT_NE(b.err.find("layer A: "), std::string::npos) << b.err;
        EXPECT_NE(b.err.find("cycle budget of 100 exhausted"), std::string::npos) << b.err;
    }
    // A generous budget changes nothing.
    std::vector<std::string> a = conv2d("xs.npy", "ws.npy", "verilator");
    a.insert(a.end(), {"--max-cycles", "1000000"});
    EXPECT_EQ(run_accel(a).exit_code, 0);
}

TEST_F(CliProgress, MaxCyclesNeedsANumberAndASimulatedDevice) {
    for (const std::string& bad : {"0", "x", "-1"}) {
        std::vector<std::string> a = conv2d("xs.npy", "ws.npy", "fsim");
        a.insert(a.end(), {"--max-cycles", bad});
        const RunResult r = run_accel(a);
        EXPECT_EQ(r.exit_code, 2) << describe(r);
        EXPECT_EQ(r.err.rfind("error: --max-cycles", 0), 0u) << r.err;
    }
    std::vector<std::string> a = conv2d("xs.npy", "ws.npy", "ref");
    a.insert(a.end(), {"--max-cycles", "1000"});
    const RunResult r = run_accel(a);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_NE(r.err.find("--max-cycles: only the fsim and verilator backends"), std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace accel::e2e
