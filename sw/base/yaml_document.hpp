// Untrusted YAML (hardware configs, workloads) into a yaml-cpp node, safely. yaml-cpp 0.7's
// YAML::LoadAll never returns on text with a ',' where a document's node should start
// ("," or "[a], b"): it appends empty documents until memory runs out. So the documents
// are counted with the event parser, which stops when one does not advance, and only
// then is the one document built with YAML::Load (which reads the first document only).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

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

}  // namespace accel
