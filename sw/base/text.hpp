// Quoting untrusted text in one-line messages.
#pragma once
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace accel {

// `s` with every byte outside printable ASCII written as \xNN, cut after `max_len`
// bytes ("..."): a binary file's bytes must not reach the terminal raw.
inline std::string printable(std::string_view s, size_t max_len = 80) {
    std::string out;
    for (const char c : s.substr(0, max_len)) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) {
            out += c;
        } else {
            out += fmt::format("\\x{:02x}", u);
        }
    }
    if (s.size() > max_len) out += "...";
    return out;
}

}  // namespace accel
