// The hardware config YAML: the shipped configs load with the values the docs state,
// and every malformed file is rejected with a message naming the source and the key.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "base/error.hpp"
#include "hw/hw_config.hpp"
#include "yaml_rejection.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kConfigDir = ACCEL_HW_CONFIG_DIR;

// A valid config in block style, so tests can swap one line.
const std::string kValid =
    "name: test\n"
    "core:\n"
    "  batch: 1\n"
    "  block_in: 16\n"
    "  block_out: 16\n"
    "buffers:\n"
    "  input_kib: 32\n"
    "  weight_kib: 256\n"
    "  acc_kib: 128\n"
    "axi:\n"
    "  data_bits: 64\n"
    "dram:\n"
    "  latency_cycles: 64\n"
    "  max_outstanding: 8\n"
    "clock_mhz: 100\n";

const accel::test::YamlReader reader("test.yaml", accel::parse_hw_config, kValid);

// The shipped configs as configs/hw/ documents them (default.yaml also in docs/hw-config.md).
const accel::HwConfig kDocumentedConfigs[] = {
    {.name = "default", .batch = 1, .block_in = 16, .block_out = 16, .input_kib = 32,
     .weight_kib = 256, .acc_kib = 128, .axi_data_bits = 64, .dram_latency_cycles = 64,
     .dram_max_outstanding = 8, .clock_mhz = 100},
    {.name = "tiny", .batch = 1, .block_in = 4, .block_out = 4, .input_kib = 2, .weight_kib = 4,
     .acc_kib = 2, .axi_data_bits = 32, .dram_latency_cycles = 16, .dram_max_outstanding = 4,
     .clock_mhz = 60},
};

TEST(HwConfig, ShippedYamlsHaveDocumentedValues) {
    for (const accel::HwConfig& documented : kDocumentedConfigs) {
        EXPECT_EQ(accel::load_hw_config(kConfigDir + "/" + documented.name + ".yaml"), documented)
            << documented.name;
    }
    const accel::HwConfig c = accel::load_hw_config(kConfigDir + "/default.yaml");
    EXPECT_EQ(c.pes(), 256);
    EXPECT_EQ(c.bus_bytes_per_cycle(), 8);
    EXPECT_EQ(c.input_bytes(), 32 * 1024);
}

TEST(HwConfig, BuiltInDefaultEqualsDefaultYaml) {
    EXPECT_EQ(accel::default_hw_config(), accel::load_hw_config(kConfigDir + "/default.yaml"));
}

TEST(HwConfig, FlowStyleAndBlockStyleAgree) {
    const accel::HwConfig c = accel::parse_hw_config(kValid, "test.yaml");
    EXPECT_EQ(c.name, "test");
    accel::HwConfig d = accel::default_hw_config();
    d.name = "test";
    EXPECT_EQ(c, d);
}

TEST(HwConfig, LatencyNeedNotBeAPowerOfTwo) {
    EXPECT_EQ(accel::parse_hw_config(reader.with("latency_cycles: 64", "latency_cycles: 37"), "t")
                  .dram_latency_cycles,
              37);
}

TEST(HwConfig, RejectsUnknownKeys) {
    EXPECT_TRUE(reader.rejects(kValid + "extra: 1\n", "unknown key 'extra'"));
    EXPECT_TRUE(reader.rejects(reader.with("  batch: 1\n", "  batch: 1\n  foo: 2\n"),
                               "unknown key 'core.foo'"));
    EXPECT_TRUE(reader.rejects(reader.with("  data_bits: 64\n", "  data_bits: 64\n  id_bits: 4\n"),
                               "unknown key 'axi.id_bits'"));
}

TEST(HwConfig, RejectsMissingKeys) {
    EXPECT_TRUE(reader.rejects(reader.with("  latency_cycles: 64\n", ""),
                               "missing key 'dram.latency_cycles'"));
    EXPECT_TRUE(reader.rejects(reader.with("clock_mhz: 100\n", ""), "missing key 'clock_mhz'"));
    EXPECT_TRUE(reader.rejects(reader.with("name: test\n", ""), "missing key 'name'"));
    EXPECT_TRUE(reader.rejects(reader.with("axi:\n  data_bits: 64\n", ""), "missing key 'axi'"));
    // "axi:" with nothing under it is null, not an empty mapping.
    EXPECT_TRUE(reader.rejects(reader.with("  data_bits: 64\n", ""),
                               "key 'axi': expected a mapping"));
    EXPECT_TRUE(reader.rejects(reader.with("  data_bits: 64\n", "  {}\n"),
                               "missing key 'axi.data_bits'"));
}

TEST(HwConfig, RejectsDuplicateKeys) {
    EXPECT_TRUE(reader.rejects(reader.with("  batch: 1\n", "  batch: 1\n  batch: 2\n"),
                               "duplicate key 'core.batch'"));
}

// One value of kValid replaced.
const accel::test::BadEdit kBadValues[] = {
    // Wrong types.
    {"block_in: 16", "block_in: abc", "key 'core.block_in': expected an integer, got 'abc'"},
    {"block_in: 16", "block_in: [16]",
     "key 'core.block_in': expected an integer, got a sequence"},
    {"block_in: 16", "block_in: \"16\"", "key 'core.block_in': expected an integer"},
    {"block_in: 16", "block_in:", "key 'core.block_in': expected an integer, got nothing"},
    {"block_in: 16", "block_in: 0x10", "key 'core.block_in'"},
    {"core:\n  batch: 1\n  block_in: 16\n  block_out: 16\n", "core: 4\n",
     "key 'core': expected a mapping, got '4'"},
    {"name: test", "name: [a, b]", "key 'name': expected a string"},
    {"name: test", "name: two words", "key 'name'"},
    {"name: test", "name: ''", "key 'name': must not be empty"},
    // Floats and bools.
    {"clock_mhz: 100", "clock_mhz: 1.5", "key 'clock_mhz': expected an integer, got '1.5'"},
    {"acc_kib: 128", "acc_kib: 128.0",
     "key 'buffers.acc_kib': expected an integer, got '128.0'"},
    {"batch: 1", "batch: true", "key 'core.batch': expected an integer, got 'true'"},
    // Not powers of two.
    {"block_in: 16", "block_in: 12", "key 'core.block_in': must be a power of two, got 12"},
    {"input_kib: 32", "input_kib: 24",
     "key 'buffers.input_kib': must be a power of two, got 24"},
    {"data_bits: 64", "data_bits: 48", "key 'axi.data_bits': must be a power of two, got 48"},
    {"max_outstanding: 8", "max_outstanding: 3",
     "key 'dram.max_outstanding': must be a power of two, got 3"},
    // Zero and negative.
    {"batch: 1", "batch: 0", "key 'core.batch': must be positive, got 0"},
    {"acc_kib: 128", "acc_kib: -4", "key 'buffers.acc_kib': must be positive, got -4"},
    {"latency_cycles: 64", "latency_cycles: 0",
     "key 'dram.latency_cycles': must be positive, got 0"},
    {"clock_mhz: 100", "clock_mhz: -100", "key 'clock_mhz': must be positive, got -100"},
    // Out of range.
    {"block_out: 16", "block_out: 512",
     "key 'core.block_out': must be between 1 and 256, got 512"},
    {"batch: 1", "batch: 128", "key 'core.batch'"},
    {"data_bits: 64", "data_bits: 16",
     "key 'axi.data_bits': must be between 32 and 1024, got 16"},
    {"latency_cycles: 64", "latency_cycles: 100001", "key 'dram.latency_cycles'"},
    {"clock_mhz: 100", "clock_mhz: 2001", "key 'clock_mhz'"},
    {"weight_kib: 256", "weight_kib: 99999999999999999999",
     "key 'buffers.weight_kib': integer out of range"},
};

TEST(HwConfig, RejectsBadValues) {
    for (const accel::test::BadEdit& v : kBadValues) EXPECT_TRUE(reader.rejects(v));
}

TEST(HwConfig, RejectsBadYaml) {
    EXPECT_TRUE(reader.rejects("core: [1, 2\n", "not valid YAML"));
    EXPECT_TRUE(reader.rejects("a: b: c\n", "not valid YAML"));
    EXPECT_TRUE(reader.rejects(kValid + "---\n" + kValid, "expected one YAML document"));
}

// A binary file given as a config must not put its bytes on the terminal raw.
TEST(HwConfig, ErrorsEscapeControlBytesOfTheFile) {
    const std::string cases[] = {
        "abc\x07\x1b[2Jdef\n",                          // a scalar at top level
        reader.with("name: test", "name: te\x1b[31mst"),         // a value
        reader.with("clock_mhz: 100", "clock_mhz: 100\nfr\x01ob: 1"),  // a key
    };
    for (const std::string& yaml : cases) {
        const std::string msg = reader.error_of(yaml);
        EXPECT_TRUE(msg.rfind("test.yaml: ", 0) == 0) << msg;
        EXPECT_TRUE(std::none_of(msg.begin(), msg.end(),
                                 [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
            << msg;
        EXPECT_NE(msg.find("\\x"), std::string::npos) << msg;
    }
}

// Text that yaml-cpp 0.7's LoadAll never returns from (it appends empty documents until
// memory runs out) is rejected at once. The CLI runs these under a memory limit too
// (tests/e2e/test_cli_limits.cpp).
TEST(HwConfig, RejectsACommaWhereADocumentShouldStart) {
    EXPECT_TRUE(reader.rejects(",", "line 1, column 1: unexpected ','"));
    EXPECT_TRUE(reader.rejects("[a], b", "unexpected ','"));
    EXPECT_TRUE(reader.rejects(kValid + ",\n", "not valid YAML"));
    EXPECT_TRUE(reader.rejects("--- ,", "unexpected ','"));
}

// Configs are a few hundred bytes; a huge file is refused before it is parsed.
TEST(HwConfig, RejectsHugeText) {
    EXPECT_TRUE(reader.rejects(kValid + "#" + std::string(2 << 20, 'x') + "\n", "bytes"));
}

TEST(HwConfig, RejectsTopLevelThatIsNotAMapping) {
    EXPECT_TRUE(reader.rejects("- 1\n- 2\n", "expected a mapping at top level"));
    EXPECT_TRUE(reader.rejects("42\n", "expected a mapping at top level"));
    EXPECT_TRUE(reader.rejects("", "expected a mapping at top level"));
    EXPECT_TRUE(reader.rejects("# only a comment\n", "expected a mapping at top level"));
}

TEST(HwConfig, LoadNamesThePath) {
    std::string dir = (fs::temp_directory_path() / "accel_hw_test.XXXXXX").string();
    ASSERT_NE(::mkdtemp(dir.data()), nullptr);
    const std::string path = dir + "/bad.yaml";
    std::ofstream(path) << reader.with("block_in: 16", "block_in: 12");
    EXPECT_EQ(accel::test::error_of([&path] { accel::load_hw_config(path); }),
              path + ": key 'core.block_in': must be a power of two, got 12");
    fs::remove_all(dir);
}

TEST(HwConfig, LoadMissingFile) {
    const std::string msg =
        accel::test::error_of([] { accel::load_hw_config("/nonexistent/dir/hw.yaml"); });
    EXPECT_EQ(msg.rfind("/nonexistent/dir/hw.yaml: cannot open", 0), 0u) << msg;
    EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
}

}  // namespace
