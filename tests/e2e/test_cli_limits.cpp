// The accel CLI at the limits of its input (docs/cli.md, "Exit codes"): YAML that sends
// yaml-cpp into an endless loop, layers far too large for the device, shapes whose
// element count wraps, empty option values, device nodes named as outputs and a full
// disk all exit 2 with one error line, quickly, and leave nothing behind.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "base/tensor.hpp"
#include "formats/npy.hpp"
#include "cli_runner.hpp"

namespace fs = std::filesystem;
using accel::e2e::RunResult;
using accel::e2e::run_accel;
using accel::e2e::run_program;
using accel::e2e::TempDir;

namespace {

// docs/cli.md, "Exit codes": exit 2 and exactly one line on stderr starting "error: ".
void expect_usage_error(const RunResult& r, const std::vector<std::string>& phrases) {
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_TRUE(r.err.starts_with("error: ")) << describe(r);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << describe(r);
    for (const std::string& p : phrases) {
        EXPECT_NE(r.err.find(p), std::string::npos) << "'" << p << "' in\n" << describe(r);
    }
}

// accel under a limit of 2 GB of address space, killed after 20 s: a run that grows
// without bound fails fast instead of taking the machine down.
RunResult run_accel_limited(const std::vector<std::string>& args) {
    std::vector<std::string> sh = {"-c", "ulimit -v 2000000 && exec \"$0\" \"$@\"", ACCEL_BIN};
    sh.insert(sh.end(), args.begin(), args.end());
    return run_program("/bin/sh", sh, 20.0);
}

// yaml-cpp 0.7's YAML::LoadAll appends empty documents forever when a ',' stands where
// a document's node should start.
TEST(CliLimits, YamlThatNeverEndsInYamlCppIsRejectedNamingTheFile) {
    TempDir dir("yaml");
    const std::string texts[] = {",", ",,", "[a], b", "{a: 1}, b", "--- ,", "- a\n,",
                                 "# comment\n,", "name: x\n---\n,", "[", "{", "- ,", ": ,",
                                 "? ,"};
    int n = 0;
    for (const std::string& text : texts) {
        const std::string file = dir.file("f" + std::to_string(n++) + ".yaml");
        accel::e2e::write_bytes(file, text);
        SCOPED_TRACE("'" + text + "'");
        expect_usage_error(run_accel_limited({"plan", "--hw", file, "--shape", "1,5,5,3",
                                              "--kernel", "3", "--out-channels", "4"}),
                           {file, "not valid YAML"});
        expect_usage_error(run_accel_limited({"bench", "--workload", file, "--backend", "fsim"}),
                           {file, "not valid YAML"});
    }
}

// A YAML error quotes the file's bytes escaped, never raw.
TEST(CliLimits, YamlErrorsOfABinaryFileHaveNoControlBytes) {
    TempDir dir("yaml-binary");
    const std::string file = dir.file("binary.yaml");
    accel::e2e::write_bytes(file, std::string("\x7f" "ELF\x02\x01\x01\x1b[2J\x07junk", 14));
    const RunResult r = run_accel({"plan", "--hw", file, "--shape", "1,5,5,3", "--kernel", "3",
                                   "--out-channels", "4"});
    expect_usage_error(r, {file});
    const std::string line = r.err.substr(0, r.err.size() - 1);
    EXPECT_TRUE(std::none_of(line.begin(), line.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    })) << describe(r);
}

// Layers that pass the shape checks but whose tensors cannot fit the 4 GiB the ISA
// addresses: refused before the planner searches (it ran for minutes on these).
TEST(CliLimits, LayersBeyondTheDeviceDramExitTwoQuickly) {
    const std::vector<std::vector<std::string>> cases = {
        {"plan", "--shape", "1,4096,4096,16777216", "--kernel", "4096", "--out-channels",
         "16777216"},
        {"plan", "--shape", "1,65536,65536,65536", "--kernel", "65536", "--out-channels",
         "65536"},
    };
    for (const auto& c : cases) {
        expect_usage_error(run_program(ACCEL_BIN, c, 20.0), {"4 GiB"});
    }
}

// 2^24 x 2^24 x 2^24 wraps int64 to 0 elements.
TEST(CliLimits, RandomRefusesShapesWhoseElementCountWraps) {
    TempDir dir("random");
    for (const char* shape : {"16777216,16777216,16777216", "65536,65536"}) {
        expect_usage_error(run_accel({"random", "--shape", shape, "--output",
                                      dir.file("big.npy")}),
                           {"--shape", "elements"});
        EXPECT_FALSE(fs::exists(dir.file("big.npy")));
    }
}

// An empty value is not "no option": `--hw ''` must not mean the default config.
TEST(CliLimits, EmptyOptionValuesAreErrors) {
    TempDir dir("empty");
    const std::vector<std::string> plan = {"plan", "--shape", "1,5,5,3", "--kernel", "3",
                                           "--out-channels", "4"};
    for (const char* option : {"--hw", "--json", "--stride", "--pad"}) {
        std::vector<std::string> args = plan;
        args.insert(args.end(), {option, ""});
        expect_usage_error(run_accel(args), {std::string(option) + ": empty value"});
    }
    expect_usage_error(run_accel({"random", "--shape", "2", "--seed", "", "--output",
                                  dir.file("t.npy")}),
                       {"--seed: empty value"});
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

// Messages print one-dimensional shapes as Python does.
TEST(CliLimits, OneDimensionalShapesPrintWithATrailingComma) {
    TempDir dir("shape");
    accel::write_npy(dir.file("x.npy"), accel::TensorI8({108}));
    accel::write_npy(dir.file("w.npy"), accel::TensorI8({3, 3, 3, 4}));
    expect_usage_error(run_accel({"conv2d", "--backend", "ref", "--input", dir.file("x.npy"),
                                  "--weights", dir.file("w.npy"), "--scale", "0.01",
                                  "--output", dir.file("y.npy")}),
                       {"(108,)"});
}

// A tensor pair for a conv2d on the reference backend: 200 output channels make a
// 5 KB output, which fills an 8 KiB tmpfs (two 4 KiB pages) by itself.
struct Conv2dFiles {
    std::string x, w;
    explicit Conv2dFiles(const TempDir& dir)
        : x(dir.file("x.npy")), w(dir.file("w.npy")) {
        accel::write_npy(x, accel::TensorI8({1, 5, 5, 3}));
        accel::write_npy(w, accel::TensorI8({3, 3, 3, 200}));
    }
    std::vector<std::string> args(const std::string& output) const {
        return {"conv2d", "--backend", "ref", "--input", x, "--weights", w, "--scale", "0.01",
                "--pad", "1", "--output", output};
    }
};

// As root, writing over a device node would replace it: outputs must be regular files.
TEST(CliLimits, DeviceNodesAreNeverReplaced) {
    TempDir dir("node");
    const std::string node = dir.file("null");
    if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
        GTEST_SKIP() << "mknod: " << std::strerror(errno) << " (creating a device node needs "
                     << "root)";
    }
    const Conv2dFiles files(dir);
    std::vector<std::vector<std::string>> cases = {
        files.args(node),
        files.args(dir.file("y.npy")),
        {"random", "--shape", "2,3", "--output", node},
        {"plan", "--shape", "1,5,5,3", "--kernel", "3", "--out-channels", "4", "--json", node},
        {"bench", "--workload", "$W", "--backend", "fsim", "--json", node},
    };
    cases[1].insert(cases[1].end(), {"--report", node});
    accel::e2e::write_bytes(dir.file("w.yaml"),
                            "name: one\nlayers:\n  - {name: A, h: 4, w: 4, cin: 3, cout: 4, "
                            "kernel: 3, pad: 1, stride: 1}\n");
    for (auto& c : cases) {
        std::replace(c.begin(), c.end(), std::string("$W"), dir.file("w.yaml"));
        SCOPED_TRACE(c[0]);
        expect_usage_error(run_accel(c), {"not a regular file"});
        struct stat st {};
        ASSERT_EQ(::stat(node.c_str(), &st), 0);
        EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device node was replaced";
    }
    EXPECT_FALSE(fs::exists(dir.file("y.npy")));
}

// The output fits the disk, the report does not: neither may be left behind.
TEST(CliLimits, Conv2dOutputsAppearTogetherOrNotAtAll) {
    accel::e2e::SmallTmpfs disk(8192);
    if (!disk.mounted()) GTEST_SKIP() << disk.why();
    TempDir dir("full-disk");
    const Conv2dFiles files(dir);
    std::vector<std::string> args = files.args(disk.file("y.npy"));
    args.insert(args.end(), {"--report", disk.file("r.json")});
    const RunResult r = run_accel(args);
    expect_usage_error(r, {"r.json"});
    EXPECT_TRUE(fs::is_empty(disk.path())) << "a file was left behind";
    // With room for both, both appear.
    args = files.args(dir.file("y.npy"));
    args.insert(args.end(), {"--report", dir.file("r.json")});
    const RunResult ok = run_accel(args);
    EXPECT_EQ(ok.exit_code, 0) << describe(ok);
    EXPECT_TRUE(fs::exists(dir.file("y.npy")) && fs::exists(dir.file("r.json")));
}

}  // namespace
