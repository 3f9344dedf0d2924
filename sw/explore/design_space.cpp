// SPACE.yaml into points (design_space.hpp). The axes edit the base config's own YAML
// node and the kit's config parser judges the result: the explorer holds no copy of the
// config schema or its rules.
#include "explore/design_space.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "base/text.hpp"
#include "base/yaml_document.hpp"
#include "explore/content_hash.hpp"
#include "hw/shipped_configs.hpp"

namespace accel::explore {
namespace {

// "core.block_in" -> {"core", "block_in"}; "clock_mhz" -> {"clock_mhz"}.
std::vector<std::string> key_path(const std::string& key) {
    std::vector<std::string> path;
    size_t start = 0;
    for (size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', start)) {
        path.push_back(key.substr(start, dot - start));
        start = dot + 1;
    }
    path.push_back(key.substr(start));
    return path;
}

// The node of `path` (from `i` on) inside `n`, or an undefined node when there is none.
// Recursive rather than a loop: assigning one yaml-cpp node to another rewrites the tree.
YAML::Node find_key(const YAML::Node& n, const std::vector<std::string>& path, size_t i = 0) {
    if (i == path.size()) return n;
    if (!n.IsMap() || !n[path[i]]) return YAML::Node(YAML::NodeType::Undefined);
    return find_key(n[path[i]], path, i + 1);
}

void set_key(YAML::Node& config, const std::string& key, const YAML::Node& value) {
    const std::vector<std::string> path = key_path(key);
    std::vector<YAML::Node> chain{config};  // yaml-cpp nodes are handles into the tree
    for (size_t i = 0; i + 1 < path.size(); ++i) chain.push_back(chain.back()[path[i]]);
    chain.back()[path.back()] = value;
}

// The base config: a shipped config's name, else a file next to the space file.
YAML::Node load_base(const YamlReader& reader, const YAML::Node& n, const std::string& dir) {
    if (!n.IsScalar() || n.Scalar().empty()) {
        reader.key_error("base", "expected a config name or file, got " + describe_yaml_node(n));
    }
    const std::string& base = n.Scalar();
    if (const char* text = shipped_config_yaml(base)) return load_yaml_mapping(text, base);
    std::filesystem::path path(base);
    if (path.is_relative()) path = std::filesystem::path(dir) / path;
    if (!std::filesystem::is_regular_file(path)) {
        reader.key_error("base", fmt::format("'{}' is neither a shipped config nor a file",
                                             printable(base)));
    }
    return load_yaml_mapping(read_file(path.string(), kMaxYamlBytes), path.string());
}

Axis parse_axis(const YamlReader& reader, const YAML::Node& base, const std::string& key,
                const YAML::Node& values) {
    const std::string name = join_yaml_key("axes", key);
    if (key == "name") reader.key_error(name, "the name is not an axis (points are named by hash)");
    const YAML::Node current = find_key(base, key_path(key));
    if (!current || !current.IsScalar()) {
        reader.key_error(name, "not a key of the base config (docs/hw-config.md)");
    }
    if (!values.IsSequence() || values.size() == 0) {
        reader.key_error(name, "expected a non-empty list of values, got " +
                                   describe_yaml_node(values));
    }
    Axis axis{key, {}, {}};
    for (const YAML::Node& v : values) {
        if (!v.IsScalar()) reader.key_error(name, "expected scalars, got " + describe_yaml_node(v));
        axis.values.push_back(v);
        axis.texts.push_back(v.Scalar());
    }
    return axis;
}

std::string emit(const YAML::Node& n) {
    YAML::Emitter out;
    out << n;
    return std::string(out.c_str()) + "\n";
}

}  // namespace

int64_t DesignSpace::size() const {
    int64_t n = 1;
    for (const Axis& a : axes) n *= static_cast<int64_t>(a.values.size());
    return n;
}

DesignSpace parse_design_space(const std::string& yaml_text, const std::string& source,
                               const std::string& base_dir) {
    const YamlReader reader(source);
    const YAML::Node root = reader.load_mapping(yaml_text);
    const YamlReader::Entries e = reader.entries(root, "", {"base", "axes"});
    DesignSpace space{source, load_base(reader, e.at("base"), base_dir), {}};
    const YAML::Node& axes = e.at("axes");
    if (!axes.IsMap()) reader.key_error("axes", "expected a mapping, got " + describe_yaml_node(axes));
    std::vector<std::string> keys;
    for (const auto& kv : axes) {
        if (!kv.first.IsScalar()) reader.key_error("axes", "keys must be config keys");
        keys.push_back(kv.first.Scalar());
    }
    const YamlReader::Entries ae = reader.entries(axes, "axes", {}, keys);  // rejects repeats
    long double points = 1;
    for (const std::string& key : keys) {
        space.axes.push_back(parse_axis(reader, space.base, key, ae.at(key)));
        points *= static_cast<long double>(space.axes.back().values.size());
        if (points > kMaxPoints) {
            reader.key_error("axes", fmt::format("more than {} points", kMaxPoints));
        }
    }
    return space;
}

DesignSpace load_design_space(const std::string& path) {
    const std::string dir = std::filesystem::path(path).parent_path().string();
    return parse_design_space(read_file(path, kMaxYamlBytes), path, dir.empty() ? "." : dir);
}

DesignPoint design_point(const DesignSpace& space, int64_t index) {
    DesignPoint p;
    p.index = index;
    YAML::Node config = YAML::Clone(space.base);
    config.remove("name");
    int64_t rest = index;
    std::vector<size_t> picks(space.axes.size());
    for (size_t i = space.axes.size(); i-- > 0;) {
        const auto n = static_cast<int64_t>(space.axes[i].values.size());
        picks[i] = static_cast<size_t>(rest % n);
        rest /= n;
    }
    for (size_t i = 0; i < space.axes.size(); ++i) {
        set_key(config, space.axes[i].key, space.axes[i].values[picks[i]]);
        p.values.push_back(space.axes[i].texts[picks[i]]);
    }
    p.hash = content_hash(emit(config));
    YAML::Node named;
    named["name"] = "x" + p.hash;
    for (const auto& kv : config) named[kv.first] = kv.second;
    p.yaml = emit(named);
    try {
        p.hw = parse_hw_params(p.yaml, fmt::format("point {}", index));
    } catch (const Error& e) {
        p.invalid_reason = e.what();
    }
    return p;
}

}  // namespace accel::explore
