#include "ops/match.hpp"

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {

Match parse_match(std::string_view name, std::string_view what) {
    if (name == "ref") return Match::ref;
    if (name == "opt") return Match::opt;
    throw Error(fmt::format("{}: '{}' is not one of ref, opt", what, name));
}

const char* match_name(Match m) {
    switch (m) {
        case Match::ref: return "ref";
        case Match::opt: return "opt";
    }
    return "?";
}

}  // namespace accel
