// Untrusted YAML (hardware configs, workloads) into a yaml-cpp node, safely. yaml-cpp 0.7's
// YAML::LoadAll never returns on text with a ',' where a document's node should start
// ("," or "[a], b"): it appends empty documents until memory runs out. So the documents
// are counted with the event parser, which stops when one does not advance, and only
// then is the one document built with YAML::Load (which reads the first document only).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace accel {

// Configs and workloads are a few KiB; anything near this is not one.
constexpr uintmax_t kMaxYamlBytes = 1 << 20;

// The one document of `text`, whose top level must be a mapping. Throws accel::Error
// "<source>: ..." for text above kMaxYamlBytes, text that is not YAML, no document,
// more than one, or a top level that is not a mapping; file bytes in the message are
// escaped (printable()).
YAML::Node load_yaml_mapping(std::string_view text, const std::string& source);

// How a node looks in a message: its scalar quoted and escaped, "a sequence",
// "a mapping" or "nothing".
std::string describe_yaml_node(const YAML::Node& n);

// "prefix.key", or "key" at the top level: how a nested key is named in messages.
std::string join_yaml_key(const std::string& prefix, const std::string& key);

// What every parser of one YAML document shares: messages that start with the source's
// name, and the strict reading of a mapping's keys.
class YamlReader {
public:
    using Entries = std::map<std::string, YAML::Node>;

    explicit YamlReader(std::string source) : source_(std::move(source)) {}

    // Throws accel::Error "<source>: <what>".
    [[noreturn]] void fail(const std::string& what) const;
    // Throws accel::Error "<source>: key '<key>': <what>".
    [[noreturn]] void key_error(const std::string& key, const std::string& what) const;
    // The entries of `map` (named `prefix`): every `required` key once, `optional` keys at
    // most once, nothing else. yaml-cpp keeps both copies of a repeated key; it is
    // rejected rather than one picked.
    Entries entries(const YAML::Node& map, const std::string& prefix,
                    const std::vector<std::string>& required,
                    const std::vector<std::string>& optional = {}) const;
    // load_yaml_mapping() of `text`, named by this reader's source.
    YAML::Node load_mapping(std::string_view text) const;

private:
    std::string source_;
};

}  // namespace accel
