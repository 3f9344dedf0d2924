// For the tests of the strict YAML readers (hardware configs, workloads): a valid text
// edited in one place, and whether a reader refuses a text with the message it should.
#pragma once
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

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

}  // namespace accel::test
