// The key of the explorer's caches: a config's text (design_space.cpp) or a model's
// bytes (rtl_confirm.cpp), as 16 hex digits.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace accel::explore {

// FNV-1a, 64 bits: a cache key, not a defence against anyone.
inline std::string content_hash(std::string_view bytes) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
    return fmt::format("{:016x}", h);
}

}  // namespace accel::explore
