// The runtime whose int8 results a run reproduces bit for bit (docs/semantics.md,
// "Matching a runtime"): each picks how the requantizing operators round.
#pragma once
#include <string_view>

namespace accel {

enum class Match {
    ref,  // LiteRT's reference kernels (BUILTIN_REF): gemmlowp's double rounding
    opt,  // its optimized kernels (BUILTIN_WITHOUT_DEFAULT_DELEGATES): final-shift ties upward
};

// "ref" or "opt"; accel::Error "WHAT: 'X' is not one of ref, opt" otherwise (`what`
// names the option: "--match", or "match" in Python).
Match parse_match(std::string_view name, std::string_view what = "--match");
const char* match_name(Match m);

}  // namespace accel
