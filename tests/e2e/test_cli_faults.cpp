// accel conv2d --faults as a user runs it (docs/cli.md): stalls, backpressure and
// reordering give the same output bit for bit; an error response is exit 3 naming the
// unit, the response and the address, with no output written; a malformed SPEC, or one
// for another backend, is exit 2 with one error line.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace accel::e2e {
namespace {

class CliFaults : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(run_accel({"random", "--shape", "1,9,9,16", "--seed", "3", "--output", x_})
                      .exit_code, 0);
        ASSERT_EQ(run_accel({"random", "--shape", "3,3,16,24", "--seed", "4", "--output", w_})
                      .exit_code, 0);
    }

    RunResult conv2d(const std::string& output, std::vector<std::string> extra) {
        std::vector<std::string> args = {"conv2d", "--input", x_, "--weights", w_, "--pad", "1",
                                         "--scale", "0.002", "--output", output};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_accel(args);
    }

    TempDir dir_{"faults"};
    std::string x_ = dir_.file("x.npy"), w_ = dir_.file("w.npy");
};

TEST_F(CliFaults, StallsBackpressureAndReorderingKeepTheOutputBitExact) {
    const RunResult clean = conv2d(dir_.file("clean.npy"), {"--backend", "fsim"});
    ASSERT_EQ(clean.exit_code, 0) << clean.err;
    const RunResult r = conv2d(dir_.file("y.npy"),
                               {"--faults", "seed=5,stall=0.05,backpressure=0.5,reorder=0.5",
                                "--check"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_bytes(dir_.file("y.npy")), read_bytes(dir_.file("clean.npy")));
}

TEST_F(CliFaults, AnErrorResponseIsExitThreeNamingUnitFaultAndAddress) {
    const auto before = snapshot(dir_.path());
    const RunResult load = conv2d(dir_.file("y.npy"), {"--faults", "slverr=read:3"});
    EXPECT_EQ(load.exit_code, 3) << load.err;
    EXPECT_NE(load.err.find("unit: DRAM answered SLVERR on a read at 0x"), std::string::npos)
        << load.err;
    const RunResult drain = conv2d(dir_.file("y.npy"), {"--faults", "decerr=write:1"});
    EXPECT_EQ(drain.exit_code, 3) << drain.err;
    EXPECT_NE(drain.err.find("drain unit: DRAM answered DECERR on a write at 0x"),
              std::string::npos)
        << drain.err;
    EXPECT_EQ(snapshot(dir_.path()), before);  // no output appeared
}

TEST_F(CliFaults, MalformedSpecsAndOtherBackendsAreExitTwo) {
    const std::vector<std::vector<std::string>> bad = {
        {"--faults", "stall=2"},
        {"--faults", "slverr=read"},
        {"--faults", "nonsense"},
        {"--faults", "stall=0.1", "--backend", "fsim"},
    };
    for (const std::vector<std::string>& extra : bad) {
        const RunResult r = conv2d(dir_.file("y.npy"), extra);
        EXPECT_EQ(r.exit_code, 2) << extra[1];
        EXPECT_EQ(r.err.rfind("error: --faults", 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
}

}  // namespace
}  // namespace accel::e2e
