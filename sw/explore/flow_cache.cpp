// pending_in_cache (flow_cache.hpp).
#include "explore/flow_cache.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "base/file_io.hpp"

namespace accel::explore {
namespace fs = std::filesystem;

std::vector<std::string> pending_in_cache(const FlowSetup& s, const std::vector<DesignPoint>& points,
                                          const std::function<bool(const std::string&)>& done) {
    std::vector<std::string> ids;
    for (const DesignPoint& p : points) {
        if (!p.hw || std::find(ids.begin(), ids.end(), p.hash) != ids.end()) continue;
        const std::string config = fmt::format("{}/{}/config.yaml", s.cache_dir, p.hash);
        if (!fs::exists(config)) {
            fs::create_directories(fs::path(config).parent_path());
            write_file_atomic(config, p.yaml);
        }
        if (!done(p.hash)) ids.push_back(p.hash);
    }
    return ids;
}

}  // namespace accel::explore
