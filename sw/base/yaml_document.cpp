#include "base/yaml_document.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>

#include "base/error.hpp"
#include "base/text.hpp"

namespace accel {
namespace {

// Records where each document starts; the nodes themselves are not needed.
class DocumentStarts final : public YAML::EventHandler {
public:
    std::vector<YAML::Mark> starts;

    void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
};

[[noreturn]] void not_yaml(const std::string& source, const YAML::Mark& mark,
                           const std::string& what) {
    if (mark.is_null()) throw Error(fmt::format("{}: not valid YAML: {}", source, what));
    throw Error(fmt::format("{}: not valid YAML: line {}, column {}: {}", source, mark.line + 1,
                            mark.column + 1, what));
}

// The number of documents in `text`. Every well-formed document consumes at least one
// token, so one that starts where the previous one did is the parser stuck on a token
// no document can start with.
size_t count_documents(std::string_view text, const std::string& source) {
    std::istringstream in{std::string(text)};
    YAML::Parser parser(in);
    DocumentStarts docs;
    try {
        while (parser.HandleNextDocument(docs)) {
            const size_t n = docs.starts.size();
            if (n >= 2 && docs.starts[n - 1].pos <= docs.starts[n - 2].pos) {
                const YAML::Mark& at = docs.starts[n - 1];
                const size_t pos = static_cast<size_t>(at.pos);
                not_yaml(source, at,
                         fmt::format("unexpected '{}'",
                                     pos < text.size() ? printable(text.substr(pos, 1)) : ""));
            }
        }
    } catch (const YAML::Exception& e) {
        not_yaml(source, e.mark, printable(e.msg));
    }
    return docs.starts.size();
}

}  // namespace

YAML::Node load_yaml_mapping(std::string_view text, const std::string& source) {
    if (text.size() > kMaxYamlBytes) {
        throw Error(fmt::format("{}: {} bytes, more than the {} a YAML file here may have", source,
                                text.size(), kMaxYamlBytes));
    }
    const size_t documents = count_documents(text, source);
    if (documents > 1) {
        throw Error(fmt::format("{}: expected one YAML document, found {}", source, documents));
    }
    YAML::Node root;
    if (documents == 1) {
        try {
            root = YAML::Load(std::string(text));
        } catch (const YAML::Exception& e) {  // the event parser accepted the same text
            not_yaml(source, e.mark, printable(e.msg));
        }
    }
    if (!root.IsMap()) {
        throw Error(fmt::format("{}: expected a mapping at top level, got {}", source,
                                documents == 0 ? "nothing" : describe_yaml_node(root)));
    }
    return root;
}

std::string describe_yaml_node(const YAML::Node& n) {
    switch (n.Type()) {
        case YAML::NodeType::Scalar: return fmt::format("'{}'", printable(n.Scalar()));
        case YAML::NodeType::Sequence: return "a sequence";
        case YAML::NodeType::Map: return "a mapping";
        default: return "nothing";
    }
}

std::string join_yaml_key(const std::string& prefix, const std::string& key) {
    return prefix.empty() ? key : prefix + "." + key;
}

void YamlReader::fail(const std::string& what) const {
    throw Error(fmt::format("{}: {}", source_, what));
}

void YamlReader::key_error(const std::string& key, const std::string& what) const {
    fail(fmt::format("key '{}': {}", key, what));
}

YamlReader::Entries YamlReader::entries(const YAML::Node& map, const std::string& prefix,
                                        const std::vector<std::string>& required,
                                        const std::vector<std::string>& optional) const {
    auto listed = [](const std::vector<std::string>& keys, const std::string& key) {
        return std::find(keys.begin(), keys.end(), key) != keys.end();
    };
    Entries out;
    for (const auto& kv : map) {
        if (!kv.first.IsScalar()) {
            fail(fmt::format("non-string key {} in '{}'", describe_yaml_node(kv.first),
                             prefix.empty() ? "top level" : prefix));
        }
        const std::string& key = kv.first.Scalar();
        if (!listed(required, key) && !listed(optional, key)) {
            fail(fmt::format("unknown key '{}'", printable(join_yaml_key(prefix, key))));
        }
        if (!out.emplace(key, kv.second).second) {
            fail(fmt::format("duplicate key '{}'", printable(join_yaml_key(prefix, key))));
        }
    }
    for (const auto& key : required) {
        if (out.count(key) == 0) fail(fmt::format("missing key '{}'", join_yaml_key(prefix, key)));
    }
    return out;
}

YAML::Node YamlReader::load_mapping(std::string_view text) const {
    return load_yaml_mapping(text, source_);
}

}  // namespace accel
