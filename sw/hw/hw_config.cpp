// The hardware configuration YAML (docs/hw-config.md): a fixed schema
// checked strictly, because a silently ignored typo would simulate the wrong machine.
#include "base/file_io.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/text.hpp"
#include "base/yaml_document.hpp"
#include "hw/shipped_configs.hpp"

namespace accel {
namespace {

// An integer key: its range, and whether the hardware needs a power of two.
struct IntKey {
    const char* key;
    int HwConfig::*field;
    int64_t min;
    int64_t max;
    bool pow2;
};

struct Section {
    const char* key;
    std::vector<IntKey> ints;
};

const std::vector<Section>& sections() {
    static const std::vector<Section> s = {
        {"core",
         {{"batch", &HwConfig::batch, 1, 64, true},
          {"block_in", &HwConfig::block_in, 1, 256, true},
          {"block_out", &HwConfig::block_out, 1, 256, true}}},
        {"buffers",
         {{"input_kib", &HwConfig::input_kib, 1, 65536, true},
          {"weight_kib", &HwConfig::weight_kib, 1, 65536, true},
          {"acc_kib", &HwConfig::acc_kib, 1, 65536, true}}},
        {"axi", {{"data_bits", &HwConfig::axi_data_bits, 32, 1024, true}}},
        {"dram",
         {{"latency_cycles", &HwConfig::dram_latency_cycles, 1, 100000, false},
          {"max_outstanding", &HwConfig::dram_max_outstanding, 1, 256, true}}},
    };
    return s;
}

const IntKey kClockMhz{"clock_mhz", &HwConfig::clock_mhz, 1, 2000, false};

bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

class ConfigParser : private YamlReader {
public:
    using YamlReader::YamlReader;
    HwConfig parse(const std::string& text) const;

private:
    int64_t integer(const YAML::Node& n, const std::string& key) const;
    void read_int(const Entries& e, const IntKey& k, const std::string& prefix,
                  HwConfig& cfg) const;
    std::string name(const YAML::Node& n) const;
};

// Strict: a plain decimal integer. yaml-cpp's as<int> would also take "0x10", "+5" or
// a quoted "16"; YAML's 1.5 and true are rejected too.
int64_t ConfigParser::integer(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) key_error(key, "expected an integer, got " + describe_yaml_node(n));
    if (n.Tag() == "!") {
        key_error(key, "expected an integer, got the string " + describe_yaml_node(n));
    }
    if (n.Tag() != "?" && n.Tag() != "tag:yaml.org,2002:int") {
        key_error(key, fmt::format("expected an integer, got a value tagged '{}'",
                                   printable(n.Tag())));
    }
    const std::string& s = n.Scalar();
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc::result_out_of_range) {
        key_error(key, fmt::format("integer out of range, got '{}'", printable(s)));
    }
    if (s.empty() || ec != std::errc{} || end != s.data() + s.size()) {
        key_error(key, "expected an integer, got " + describe_yaml_node(n));
    }
    return v;
}

void ConfigParser::read_int(const Entries& e, const IntKey& k, const std::string& prefix,
                            HwConfig& cfg) const {
    const std::string key = join_yaml_key(prefix, k.key);
    const int64_t v = integer(e.at(k.key), key);
    if (v <= 0) key_error(key, fmt::format("must be positive, got {}", v));
    if (k.pow2 && !is_pow2(v)) key_error(key, fmt::format("must be a power of two, got {}", v));
    if (v < k.min || v > k.max) {
        key_error(key, fmt::format("must be between {} and {}, got {}", k.min, k.max, v));
    }
    cfg.*k.field = static_cast<int>(v);  // max <= 100000, so it fits
}

// The name ends up in file names and generated identifiers, so keep it simple.
std::string ConfigParser::name(const YAML::Node& n) const {
    if (!n.IsScalar()) key_error("name", "expected a string, got " + describe_yaml_node(n));
    const std::string& s = n.Scalar();
    if (s.empty()) key_error("name", "must not be empty");
    const bool ok = std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    });
    if (!ok) {
        key_error("name", fmt::format("must match [A-Za-z0-9_-]+, got '{}'", printable(s)));
    }
    return s;
}

HwConfig ConfigParser::parse(const std::string& text) const {
    const YAML::Node root = load_mapping(text);
    std::vector<std::string> top = {"name", kClockMhz.key};
    for (const auto& s : sections()) top.emplace_back(s.key);
    const Entries e = entries(root, "", top);

    HwConfig cfg;
    cfg.name = name(e.at("name"));
    for (const auto& s : sections()) {
        const YAML::Node& node = e.at(s.key);
        if (!node.IsMap()) {
            key_error(s.key, "expected a mapping, got " + describe_yaml_node(node));
        }
        std::vector<std::string> keys;
        for (const auto& k : s.ints) keys.emplace_back(k.key);
        const Entries se = entries(node, s.key, keys);
        for (const auto& k : s.ints) read_int(se, k, s.key, cfg);
    }
    read_int(e, kClockMhz, "", cfg);
    return cfg;
}

}  // namespace

// Deriving the parameters checks the combinations the ISA cannot address, so every
// config that parses derives.
HwParams parse_hw_params(const std::string& yaml_text, const std::string& source) {
    return derive_params(ConfigParser(source).parse(yaml_text), source);
}

HwParams load_hw_params(const std::string& path) {
    return parse_hw_params(read_file(path, kMaxYamlBytes), path);
}

HwParams default_hw_params() {
    return parse_hw_params(shipped_config_yaml("default"), "built-in default config");
}

HwConfig parse_hw_config(const std::string& yaml_text, const std::string& source) {
    return parse_hw_params(yaml_text, source).config;
}

HwConfig load_hw_config(const std::string& path) { return load_hw_params(path).config; }

HwConfig default_hw_config() { return default_hw_params().config; }

}  // namespace accel
