// For the tests of the strict YAML readers (hardware configs, workloads): a valid text
// edited in one place, and whether a reader refuses a text with the message it should.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include "base/error.hpp"

namespace accel::test {

// `text` with the first `from` replaced by `to` (which may be empty, to delete it).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    if (at == std::string::npos) throw std::logic_error("test bug: no '" + from + "'");
    return text.replace(at, from.size(), to);
}

// The message of the accel::Error `parse` throws, or a note that it threw none.
template <typename Parse>
std::string error_of(Parse&& parse) {
    try {
        parse();
    } catch (const Error& e) {
        return e.what();
    }
    return "<no accel::Error thrown>";
}

// Success when `parse` throws an accel::Error whose message starts with "`source`: " and
// contains `phrase`.
template <typename Parse>
testing::AssertionResult rejected(Parse&& parse, const std::string& source,
                                  const std::string& phrase) {
    const std::string msg = error_of(parse);
    if (msg.rfind(source + ": ", 0) == 0 && msg.find(phrase) != std::string::npos) {
        return testing::AssertionSuccess();
    }
    return testing::AssertionFailure() << "message \"" << msg << "\" lacks \"" << source
                                       << ": \" or \"" << phrase << "\"";
}

// The valid text of a reader's tests edited in one place (`from` -> `to`), and a phrase
// the reader's refusal of the edited text must contain.
struct BadEdit {
    const char* from;
    const char* to;
    const char* phrase;
};

// A strict reader under test, as the tests call it: `parse(text, source)` throws an
// accel::Error whose message starts with "`source`: " for every text it refuses, and
// accepts `valid`.
class YamlReader {
public:
    using Parse = std::function<void(const std::string& text, const std::string& source)>;
    YamlReader(const char* source, Parse parse, std::string valid)
        : source_(source), parse_(std::move(parse)), valid_(std::move(valid)) {}

    // The valid text with the first `from` replaced by `to`.
    std::string with(const std::string& from, const std::string& to) const {
        return replaced(valid_, from, to);
    }

    // The message its refusal of `text` gives, or a note that it gave none.
    std::string error_of(const std::string& text) const {
        return test::error_of([&] { parse_(text, source_); });
    }
    // Success when it refuses `text` with a message that contains `phrase`.
    testing::AssertionResult rejects(const std::string& text, const std::string& phrase) const {
        return rejected([&] { parse_(text, source_); }, source_, phrase);
    }
    testing::AssertionResult rejects(const BadEdit& edit) const {
        return rejects(with(edit.from, edit.to), edit.phrase)
               << " (" << edit.from << " -> " << edit.to << ")";
    }

private:
    std::string source_;
    Parse parse_;
    std::string valid_;
};

}  // namespace accel::test
