// A design space (docs/explore.md): a base hardware config and axes over its keys. Each
// point is the base config with one value per axis, as YAML text that goes through the
// kit's own config parser, so a point is valid exactly when `accel run --hw` would take
// its file.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "hw/hw_params.hpp"

namespace accel::explore {

struct Axis {
    std::string key;                  // a config key, "core.block_in" or "clock_mhz"
    std::vector<YAML::Node> values;   // scalars, as the space file wrote them
    std::vector<std::string> texts;   // the same, for tables
};

struct DesignSpace {
    std::string source;  // the space file, for messages
    YAML::Node base;     // the base config's YAML mapping
    std::vector<Axis> axes;
    int64_t size() const;  // points: the product of the axes' lengths
};

// Points a space may hold; more is a mistake rather than a sweep.
constexpr int64_t kMaxPoints = 1'000'000;

// Parses SPACE.yaml: `base` (a shipped config's name or a config file, relative to the
// space file) and `axes` (config key -> list of values). Throws accel::Error naming the
// file and key for a malformed space, an axis that is not a key of the base config, an
// empty or repeated axis, or more than kMaxPoints points.
DesignSpace parse_design_space(const std::string& yaml_text, const std::string& source,
                               const std::string& base_dir);
DesignSpace load_design_space(const std::string& path);

struct DesignPoint {
    int64_t index = 0;
    std::vector<std::string> values;  // one per axis, in the space's order
    std::string yaml;                 // the point's config file
    std::string hash;                 // 16 hex digits of the config without its name
    std::optional<HwParams> hw;       // when the config parser takes it
    std::string invalid_reason;       // otherwise, its message
};

// Point `index` (0 <= index < size()): the last axis varies fastest. Its config is
// named "x<hash>", so equal configs share a name and every cache keyed by it.
DesignPoint design_point(const DesignSpace& space, int64_t index);

}  // namespace accel::explore
