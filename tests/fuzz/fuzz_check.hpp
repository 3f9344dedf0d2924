// What a fuzz harness counts as a finding besides crashes, sanitizer reports and
// escaping exceptions: a property of the code under test that does not hold. And what
// is not one: a loader refusing bad input with the project's accel::Error.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "base/error.hpp"

// Aborts, so that libFuzzer reports a finding and saves the input, when `cond` is false.
#define FUZZ_REQUIRE(cond)                                                              \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            std::fprintf(stderr, "fuzz property broken: %s (%s:%d)\n", #cond, __FILE__, \
                         __LINE__);                                                     \
            std::abort();                                                               \
        }                                                                               \
    } while (0)

// What `parse()` returns, or nullopt when it refuses the input with accel::Error. Any
// other exception escapes to libFuzzer, which reports it.
template <typename Parse>
auto parse_or_refuse(Parse&& parse) -> std::optional<decltype(parse())> {
    try {
        return parse();
    } catch (const accel::Error&) {
        return std::nullopt;
    }
}
