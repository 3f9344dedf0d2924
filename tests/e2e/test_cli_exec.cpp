// accel exec: a raw instruction program on a device, as an accelerator designer runs
// one. A good program exits 0 with the DRAM and counters of the functional simulator
// (run here in-process as the model); deliberately corrupted streams exit 3 on both
// devices with the error named and no output written -- never a hang; bad usage exits 2.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "devices/fsim.hpp"
#include "hw/hw_config.hpp"
#include "hw/isa.hpp"
#include "cli_runner.hpp"
#include "shipped_hw.hpp"

namespace fs = std::filesystem;
using accel::e2e::RunResult;
using accel::e2e::run_accel;
using accel::e2e::TempDir;

namespace {

using accel::test::shipped_hw;
using accel::test::shipped_hw_path;

// load INP, WGT, PRM -> GEMM over 4 pixels -> DRAIN -> FINISH, with its data.
struct Program {
    std::vector<uint8_t> image;
    std::vector<accel::isa::Insn> insns;
    uint32_t insn_addr = 0, out = 0, out_bytes = 0;

    uint32_t count() const { return static_cast<uint32_t>(insns.size()); }
    // The image with the instructions (re-)encoded, then `patch` applied to the words.
    std::string bytes(const std::function<void(std::vector<accel::isa::InsnWord>&)>& patch = {}) const {
        std::vector<accel::isa::InsnWord> words;
        for (const auto& i : insns) words.push_back(accel::isa::encode(i));
        if (patch) patch(words);
        std::string s(image.begin(), image.end());
        for (size_t i = 0; i < words.size(); ++i)
            std::memcpy(&s[insn_addr + i * accel::isa::kInsnBytes], words[i].data(),
                        accel::isa::kInsnBytes);
        return s;
    }
};

Program good_program(const accel::HwParams& hw) {
    using namespace accel::isa;
    std::mt19937 rng(5);
    Program p;
    const uint32_t px = 4, b = hw.batch, bo = hw.block_out;
    auto alloc = [&p](size_t n) {
        const size_t at = (p.image.size() + 63) / 64 * 64;
        p.image.resize(at + n, 0);
        return static_cast<uint32_t>(at);
    };
    const uint32_t inp = alloc(px * hw.inp_entry_bytes), wgt = alloc(hw.wgt_entry_bytes);
    for (uint32_t i = inp; i < wgt + hw.wgt_entry_bytes; ++i) p.image[i] = static_cast<uint8_t>(rng() >> 24);
    const uint32_t prm = alloc(hw.prm_entry_bytes);
    const double scale = 60.0 / (74.0 * 74.0 * std::sqrt(double(hw.block_in)));
    for (uint32_t o = 0; o < bo; ++o) {
        const int32_t bias = static_cast<int32_t>(rng() % 2001) - 1000;
        const int exp = std::ilogb(scale);
        const auto mult = static_cast<int32_t>(std::ldexp(scale * (1 + o / 64.0), 30 - exp));
        const int32_t shift = exp + 1;
        std::memcpy(&p.image[prm + 4 * o], &bias, 4);
        std::memcpy(&p.image[prm + 4 * (bo + o)], &mult, 4);
        std::memcpy(&p.image[prm + 4 * (2 * bo + o)], &shift, 4);
    }
    p.out_bytes = px * b * bo;
    p.out = alloc(p.out_bytes);
    p.insns = {
        Load{.buffer = Buffer::Inp, .dram_base = inp, .x_size = px},
        Load{.buffer = Buffer::Wgt, .dram_base = wgt},
        Load{.tokens = {.push_next = true}, .buffer = Buffer::Prm, .dram_base = prm},
        Gemm{.tokens = {.pop_prev = true, .push_next = true}, .init = true, .n_ox = px,
             .acc_ox = 1, .inp_ox = 1},
        Drain{.tokens = {.pop_prev = true}, .n_x = px, .acc_x = 1, .dram_base = p.out,
              .dram_x = b * bo, .dram_b = bo, .zy = 3},
        Finish{}};
    p.insn_addr = alloc(p.insns.size() * kInsnBytes + 128);
    return p;
}

class CliExec : public ::testing::Test {
protected:
    std::string put(const std::string& name, const std::string& bytes) const {
        accel::e2e::write_bytes(dir_.path() / name, bytes);
        return dir_.file(name);
    }
    std::vector<std::string> args(const std::string& image, const Program& p, const std::string& cfg,
                                  const std::string& backend, uint32_t count) const {
        return {"exec", "--dram", image, "--insn-addr", std::to_string(p.insn_addr),
                "--insn-count", std::to_string(count), "--hw", shipped_hw_path(cfg), "--backend",
                backend};
    }
    TempDir dir_{"exec"};
};

TEST_F(CliExec, GoodProgramExitsZeroWithTheDramAndCountersOfTheModel) {
    for (const char* cfg : {"default", "tiny"}) {
        const accel::HwParams& hw = shipped_hw(cfg);
        const Program p = good_program(hw);
        const std::string image = p.bytes();
        // The model: the functional simulator, in-process.
        accel::FunctionalSim model(hw, image.size());
        model.write_dram(0, {reinterpret_cast<const uint8_t*>(image.data()), image.size()});
        const accel::DeviceCounters want = model.run(p.insn_addr, p.count());
        ASSERT_EQ(want.errors, 0u);
        std::string want_dram(image.size(), '\0');
        model.read_dram(0, {reinterpret_cast<uint8_t*>(want_dram.data()), want_dram.size()});
        ASSERT_NE(want_dram.substr(p.out, p.out_bytes), std::string(p.out_bytes, '\0'));

        for (const char* backend : {"fsim", "verilator"}) {
            const std::string tag = std::string(cfg) + "_" + backend;
            const std::string in = put("image_" + tag + ".bin", image);
            std::vector<std::string> a = args(in, p, cfg, backend, p.count());
            a.insert(a.end(), {"--dump", dir_.file("dump_" + tag + ".bin"), "--counters",
                               dir_.file("c_" + tag + ".json")});
            const RunResult r = run_accel(a);
            ASSERT_EQ(r.exit_code, 0) << tag << "\n" << describe(r);
            EXPECT_EQ(r.err, "") << tag;
            EXPECT_NE(r.out.find("OK"), std::string::npos) << describe(r);
            EXPECT_EQ(accel::e2e::read_bytes(in), image) << "the input image was changed";
            const std::string dump = accel::e2e::read_bytes(dir_.file("dump_" + tag + ".bin"));
            EXPECT_TRUE(dump == want_dram) << tag << ": the dump differs from the model's DRAM";
            const auto c =
                nlohmann::json::parse(accel::e2e::read_bytes(dir_.file("c_" + tag + ".json")));
            EXPECT_EQ(c["errors"], 0) << tag;
            EXPECT_EQ(c["error_names"], "OK") << tag;
            EXPECT_EQ(c["load_insns"], want.load_insns) << tag;
            EXPECT_EQ(c["gemm_insns"], want.gemm_insns) << tag;
            EXPECT_EQ(c["drain_insns"], want.drain_insns) << tag;
            EXPECT_EQ(c["gemm_steps"], want.gemm_steps) << tag;
            EXPECT_EQ(c["load_bytes"], want.load_bytes) << tag;
            EXPECT_EQ(c["drain_bytes"], want.drain_bytes) << tag;
            if (std::string(backend) == "verilator") {
                EXPECT_GT(c["cycles"].get<uint64_t>(), 0u) << tag;
                EXPECT_GT(c["fetch_bytes"].get<uint64_t>(), 0u) << tag;
            }
        }
    }
}

// A corruption of the good program's stream and the error the device must name.
struct Corruption {
    const char* name;
    const char* error;  // isa::error_name of the expected bit
    std::function<void(const accel::HwParams&, std::vector<accel::isa::InsnWord>&)> patch;
    int count_delta = 0;  // instructions run relative to the program's count
};

std::vector<Corruption> corruptions() {
    using namespace accel::isa;
    return {
        {"illegal opcode", "ILLEGAL_INSTRUCTION",
         [](const accel::HwParams&, std::vector<InsnWord>& w) { w[3][0] = (w[3][0] & 0xF0) | 0x0B; }},
        {"random bytes with opcode 0", "ILLEGAL_INSTRUCTION",
         [](const accel::HwParams&, std::vector<InsnWord>& w) {
             std::mt19937 rng(3);
             for (auto& byte : w[1]) byte = static_cast<uint8_t>(rng() >> 24);
             w[1][0] &= 0xF0;
         }},
        {"token misuse: LOAD pops its previous unit", "ILLEGAL_INSTRUCTION",
         [](const accel::HwParams&, std::vector<InsnWord>& w) { w[0][0] |= 0x10; }},
        {"token misuse: FINISH with a flag", "ILLEGAL_INSTRUCTION",
         [](const accel::HwParams&, std::vector<InsnWord>& w) { w[5][0] |= 0x40; }},
        {"token underflow: the GEMM pops a token never pushed", "DEADLOCK",
         [](const accel::HwParams&, std::vector<InsnWord>& w) { w[2][0] &= 0x7F; }},
        {"token underflow: the DRAIN pops twice", "DEADLOCK",
         [](const accel::HwParams&, std::vector<InsnWord>& w) {
             Drain d = std::get<Drain>(decode(w[4], shipped_hw("default")).insn);
             d.n_x = 1;  // fits every config
             w.insert(w.begin() + 5, encode(d));
         },
         1},
        {"SRAM address out of range", "SRAM_RANGE",
         [](const accel::HwParams& hw, std::vector<InsnWord>& w) {
             w[0] = encode(Load{.sram_base = hw.inp_depth - 2, .x_size = 4});
         }},
        {"DRAM address out of range", "BUS_ERROR",
         [](const accel::HwParams&, std::vector<InsnWord>& w) {
             w[1] = encode(Load{.buffer = Buffer::Wgt, .dram_base = 0x7FFF0000});
         }},
        {"count cuts off the FINISH", "NO_FINISH",
         [](const accel::HwParams&, std::vector<InsnWord>&) {}, -1},
    };
}

TEST_F(CliExec, CorruptedStreamsExitThreeWithTheErrorNamedOnBothDevices) {
    for (const char* backend : {"fsim", "verilator"}) {
        for (const char* cfg : {"default", "tiny"}) {
            const accel::HwParams& hw = shipped_hw(cfg);
            const Program p = good_program(hw);
            int n = 0;
            for (const Corruption& c : corruptions()) {
                const std::string tag =
                    std::string(backend) + " " + cfg + ": " + c.name;
                const std::string in = put("bad" + std::to_string(n) + ".bin",
                                           p.bytes([&](auto& w) { c.patch(hw, w); }));
                std::vector<std::string> a =
                    args(in, p, cfg, backend, static_cast<uint32_t>(p.count() + c.count_delta));
                const std::string dump = dir_.file("dump" + std::to_string(n) + ".bin");
                const std::string counters = dir_.file("c" + std::to_string(n) + ".json");
                a.insert(a.end(), {"--dump", dump, "--counters", counters});
                ++n;
                const RunResult r = run_accel(a);
                EXPECT_EQ(r.exit_code, 3) << tag << "\n" << describe(r);
                EXPECT_TRUE(r.err.starts_with("error: device failure: ")) << tag << describe(r);
                EXPECT_NE(r.err.find(c.error), std::string::npos) << tag << describe(r);
                EXPECT_EQ(r.err.find("watchdog"), std::string::npos) << tag << describe(r);
                EXPECT_FALSE(fs::exists(dump)) << tag << ": an output after a failure";
                EXPECT_FALSE(fs::exists(counters)) << tag << ": an output after a failure";
            }
        }
    }
}

TEST_F(CliExec, BadUsageExitsTwoWithOneErrorLine) {
    const Program p = good_program(shipped_hw("default"));
    const std::string in = put("image.bin", p.bytes());
    const std::string count = std::to_string(p.count()), addr = std::to_string(p.insn_addr);
    const std::vector<std::vector<std::string>> cases = {
        {"exec", "--dram", in, "--insn-addr", addr},
        {"exec", "--dram", in, "--insn-addr", "12x", "--insn-count", count},
        {"exec", "--dram", in, "--insn-addr", "0x100000000", "--insn-count", count},
        {"exec", "--dram", in, "--insn-addr", addr, "--insn-count", count, "--backend", "ref"},
        {"exec", "--dram", in, "--insn-addr", addr, "--insn-count", count, "--backend", "fsim",
         "--trace", dir_.file("t.fst")},
        {"exec", "--dram", in, "--insn-addr", addr, "--insn-count", count, "--dump", in},
        {"exec", "--dram", in, "--insn-addr", addr, "--insn-count", count, "--dram-size", "64"},
        {"exec", "--dram", dir_.file("missing.bin"), "--insn-addr", addr, "--insn-count", count},
        {"exec", "--dram", in, "--insn-addr", addr, "--insn-count", count, "stray"},
        {"exec", "--dram", in, "--insn-addr", addr, "--insn-count", count, "--max-cycles", "0"},
        // one file spelled two ways
        {"exec", "--dram", in, "--insn-addr", addr, "--insn-count", count, "--dump",
         dir_.file("d.bin"), "--counters", (dir_.path() / "." / "d.bin").string()},
        {"exec", "--dram", in, "--insn-addr", addr, "--insn-count", count, "--hw", ""},
    };
    const std::string before = accel::e2e::read_bytes(in);
    for (const auto& c : cases) {
        const RunResult r = run_accel(c);
        EXPECT_EQ(r.exit_code, 2) << describe(r);
        EXPECT_TRUE(r.err.starts_with("error: ")) << describe(r);
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << describe(r);
    }
    EXPECT_EQ(accel::e2e::read_bytes(in), before);
    EXPECT_FALSE(fs::exists(dir_.file("t.fst")));
    EXPECT_FALSE(fs::exists(dir_.file("d.bin")));
}

// The dump fits the disk, the counters do not: neither may be left behind.
TEST_F(CliExec, DumpAndCountersAppearTogetherOrNotAtAll) {
    accel::e2e::SmallTmpfs disk(8192);  // two pages: a 5000-byte dump fills it
    if (!disk.mounted()) GTEST_SKIP() << disk.why();
    const Program p = good_program(shipped_hw("default"));
    const std::string in = put("image.bin", p.bytes());
    std::vector<std::string> a = args(in, p, "default", "fsim", p.count());
    a.insert(a.end(), {"--dram-size", "5000", "--dump", disk.file("d.bin"), "--counters",
                       disk.file("c.json")});
    const RunResult r = run_accel(a);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_NE(r.err.find("c.json"), std::string::npos) << describe(r);
    EXPECT_TRUE(fs::is_empty(disk.path())) << "a file was left behind";
}

// As root, writing over a device node would replace it.
TEST_F(CliExec, ADeviceNodeIsNeverReplaced) {
    const std::string node = dir_.file("null");
    if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
        GTEST_SKIP() << "mknod: " << std::strerror(errno) << " (needs root)";
    }
    const Program p = good_program(shipped_hw("default"));
    const std::string in = put("image.bin", p.bytes());
    for (const char* option : {"--dump", "--counters"}) {
        std::vector<std::string> a = args(in, p, "default", "fsim", p.count());
        a.insert(a.end(), {option, node});
        const RunResult r = run_accel(a);
        EXPECT_EQ(r.exit_code, 2) << describe(r);
        EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << describe(r);
        EXPECT_TRUE(fs::is_character_file(node)) << "the device node was replaced";
    }
}

TEST_F(CliExec, HexAddressesAndALargerDramWork) {
    const Program p = good_program(shipped_hw("default"));
    const std::string in = put("image.bin", p.bytes());
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%X", p.insn_addr);
    const RunResult r = run_accel({"exec", "--dram", in, "--insn-addr", hex, "--insn-count",
                                   std::to_string(p.count()), "--backend", "fsim", "--dram-size",
                                   std::to_string(p.image.size() + 4096), "--dump",
                                   dir_.file("d.bin")});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(accel::e2e::read_bytes(dir_.file("d.bin")).size(), p.image.size() + 4096);
}

// Legal programs that would run for ages while making progress all the time, which no
// watchdog of stalls catches: one GEMM of 64 x 65535^3 x 255^2 steps over one ACC entry,
// or one DRAIN of 64 x 65535^2 entries onto one DRAM address.
Program endless_program(bool gemm) {
    using namespace accel::isa;
    Program p;
    p.image.assign(4096, 0);
    p.insn_addr = 1024;
    if (gemm) {
        p.insns = {Gemm{.init = true, .n_kb = 64, .n_oy = 65535, .n_ox = 65535, .n_r = 255,
                        .n_s = 255, .n_cb = 65535},
                   Finish{}};
    } else {
        p.insns = {Drain{.n_kb = 64, .n_y = 65535, .n_x = 65535, .dram_base = 0}, Finish{}};
    }
    return p;
}

TEST_F(CliExec, EndlessProgramsStopAtTheCycleBudgetWithTheUnitStates) {
    for (const bool gemm : {true, false}) {
        const Program p = endless_program(gemm);
        const std::string unit = gemm ? "compute busy" : "drain busy";
        const std::string in = put(gemm ? "gemm.bin" : "drain.bin", p.bytes());
        // fsim charges each instruction the most cycles it can take before running it:
        // the default budget (at most 2^30 cycles) refuses these at once.
        for (const std::vector<std::string>& budget :
             {std::vector<std::string>{}, std::vector<std::string>{"--max-cycles", "5000"}}) {
            std::vector<std::string> a = args(in, p, "default", "fsim", p.count());
            a.insert(a.end(), budget.begin(), budget.end());
            a.insert(a.end(), {"--dump", dir_.file("dump.bin")});
            const RunResult r = accel::e2e::run_program(ACCEL_BIN, a, 20.0);
            EXPECT_EQ(r.exit_code, 3) << describe(r);
            EXPECT_TRUE(r.err.starts_with("error: device failure: fsim: cycle budget"))
                << describe(r);
            EXPECT_NE(r.err.find(unit), std::string::npos) << describe(r);
            EXPECT_FALSE(fs::exists(dir_.file("dump.bin")));
        }
        // The RTL stops them as they start, since they need more cycles than the budget
        // holds: with the default budget, well within a minute, instead of running 2^30
        // cycles.
        const RunResult d = accel::e2e::run_program(
            ACCEL_BIN, args(in, p, "default", "verilator", p.count()), 60.0);
        EXPECT_EQ(d.exit_code, 3) << describe(d);
        EXPECT_TRUE(d.err.starts_with("error: device failure: verilator:default: cycle budget "
                                      "of 1073741824 exhausted: the instructions started need "
                                      "at least "))
            << describe(d);
        EXPECT_NE(d.err.find(unit), std::string::npos) << describe(d);
        // And stops at a given budget.
        std::vector<std::string> a = args(in, p, "default", "verilator", p.count());
        a.insert(a.end(), {"--max-cycles", "20000", "--counters", dir_.file("c.json")});
        const RunResult r = accel::e2e::run_program(ACCEL_BIN, a, 60.0);
        EXPECT_EQ(r.exit_code, 3) << describe(r);
        EXPECT_TRUE(r.err.starts_with("error: device failure: verilator:default: cycle budget "
                                      "of 20000 exhausted"))
            << describe(r);
        EXPECT_NE(r.err.find(unit), std::string::npos) << describe(r);
        EXPECT_FALSE(fs::exists(dir_.file("c.json")));
    }
}

TEST_F(CliExec, AGenerousBudgetLetsTheProgramFinish) {
    const Program p = good_program(shipped_hw("default"));
    const std::string in = put("image.bin", p.bytes());
    for (const char* backend : {"fsim", "verilator"}) {
        std::vector<std::string> a = args(in, p, "default", backend, p.count());
        a.insert(a.end(), {"--max-cycles", "1000000"});
        const RunResult r = run_accel(a);
        EXPECT_EQ(r.exit_code, 0) << backend << describe(r);
    }
}

TEST(CliExecHelp, ListsEveryOption) {
    const RunResult r = run_accel({"exec", "--help"});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    for (const char* opt : {"--dram", "--insn-addr", "--insn-count", "--dram-size", "--hw",
                            "--backend", "--dump", "--counters", "--trace", "--watchdog",
                            "--max-cycles"})
        EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
    const RunResult top = run_accel({"--help"});
    EXPECT_NE(top.out.find("exec"), std::string::npos) << describe(top);
}

}  // namespace
