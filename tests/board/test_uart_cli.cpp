// `accel conv2d --device uart:PATH` as a user runs it: the CLI opens a pty through
// termios, and a thread of this test connects the pty's other side to the Verilated
// accel_board_top's UART pins. Bad device specs (uart and zynq) exit 2; a silent port exits 3.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <random>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "base/file_io.hpp"
#include "formats/npy.hpp"
#include "ops/reference.hpp"
#include "board_channel.hpp"
#include "cli_runner.hpp"
#include "random_layer.hpp"
#include "shipped_hw.hpp"

namespace accel::board_test {
namespace {

using e2e::run_accel;
using e2e::TempDir;

// A pty pair; the slave's path is what the CLI opens.
class Pty {
public:
    Pty() {
        char name[256] = {};
        if (::openpty(&master_, &slave_, name, nullptr, nullptr) != 0) throw std::runtime_error("openpty");
        path_ = name;
    }
    ~Pty() {
        ::close(master_);
        ::close(slave_);
    }
    int master() const { return master_; }
    const std::string& path() const { return path_; }

private:
    int master_ = -1, slave_ = -1;
    std::string path_;
};

// Pumps bytes between the pty master and the simulated board until stopped.
class PtyBoard {
public:
    explicit PtyBoard(const Pty& pty) : pty_(pty), thread_([this] { pump(); }) {}
    ~PtyBoard() {
        stop_ = true;
        thread_.join();
    }

private:
    void pump() {
        BoardChannel board(BOARD_CLK_HZ, BOARD_BAUD, 7);
        uint8_t buf[4096];
        while (!stop_) {
            pollfd p{pty_.master(), POLLIN, 0};
            if (::poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
                const ssize_t n = ::read(pty_.master(), buf, sizeof buf);
                if (n > 0) board.write(std::span<const uint8_t>(buf, static_cast<size_t>(n)));
            }
            board.idle(512);
            const std::vector<uint8_t> out = board.take();
            if (!out.empty() && ::write(pty_.master(), out.data(), out.size()) < 0) return;
        }
    }

    const Pty& pty_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

struct Files {
    std::string x, w, b, y, report;
    testing::LayerCase layer;
};

Files write_layer(const TempDir& dir) {
    std::mt19937 rng(77);
    Conv2dParams geometry;
    geometry.stride_h = geometry.stride_w = 1;
    Files f{dir.file("x.npy"), dir.file("w.npy"), dir.file("b.npy"), dir.file("y.npy"),
            dir.file("r.json"), testing::make_case(rng, Conv2dShape{1, 5, 5, 6, 4, 3, 3}, geometry)};
    // One multiplier and shift for all channels, as the command line gives them.
    Conv2dParams& p = f.layer.layer.params;
    p.multiplier.assign(4, p.multiplier[0]);
    p.shift.assign(4, p.shift[0]);
    write_npy(f.x, f.layer.x);
    write_npy(f.w, f.layer.w);
    TensorI32 bias;
    bias.shape = {4};
    bias.data = f.layer.bias;
    write_npy(f.b, bias);
    return f;
}

std::vector<std::string> conv2d_args(const Files& f, const std::string& device) {
    return {"conv2d", "--input", f.x, "--weights", f.w, "--bias", f.b, "--multiplier",
            std::to_string(f.layer.layer.params.multiplier[0]), "--shift",
            std::to_string(f.layer.layer.params.shift[0]), "--input-zero-point",
            std::to_string(f.layer.layer.params.input_zero_point), "--output-zero-point",
            std::to_string(f.layer.layer.params.output_zero_point), "--act-min",
            std::to_string(f.layer.layer.params.act_min), "--act-max",
            std::to_string(f.layer.layer.params.act_max), "--output", f.y, "--hw",
            test::shipped_hw_path("tiny"), "--device", device, "--check", "--report",
            f.report};
}

TEST(UartCli, Conv2dOverAPtyIsBitExact) {
    TempDir dir("uart");
    const Files f = write_layer(dir);
    Pty pty;
    PtyBoard board(pty);
    const e2e::RunResult r = run_accel(conv2d_args(f, "uart:" + pty.path()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const TensorI8 y = read_npy_i8(f.y);
    const TensorI8 want = conv2d_reference(f.layer.layer, f.layer.x, f.layer.w, f.layer.bias);
    EXPECT_EQ(y.shape, want.shape);
    EXPECT_EQ(y.data, want.data);
    EXPECT_GT(testing::distinct_values(want), 10u);
    const nlohmann::json rep = nlohmann::json::parse(read_file(f.report));
    EXPECT_EQ(rep["backend"], "uart");
    EXPECT_EQ(rep["bit_exact"], true);
    EXPECT_GT(rep["cycles"].get<double>(), 0);
}

TEST(UartCli, BadSpecsExit2AndASilentPortExits3) {
    TempDir dir("uart-bad");
    const Files f = write_layer(dir);
    for (const std::string spec : {"uart:" + dir.file("no-such-tty"), std::string("uart:/dev/null"),
                                   std::string("uart:"), std::string("serial:/dev/ttyS0"),
                                   std::string("uart:/dev/null@fast"), std::string("zynq:/dev/uio0"),
                                   "zynq:" + dir.file("uio0") + "," + dir.file("udmabuf0")}) {
        const e2e::RunResult r = run_accel(conv2d_args(f, spec));
        EXPECT_EQ(r.exit_code, 2) << spec << ": " << r.err;
        EXPECT_EQ(r.err.rfind("error: --device", 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    Pty silent;  // nobody answers
    const e2e::RunResult r = run_accel(conv2d_args(f, "uart:" + silent.path()));
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("no response"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(f.y));
    EXPECT_FALSE(std::filesystem::exists(f.report));
}

}  // namespace
}  // namespace accel::board_test
