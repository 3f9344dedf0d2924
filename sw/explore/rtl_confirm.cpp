// RTL confirmation jobs (rtl_confirm.hpp). A run's report is named after the model's
// bytes, so one config's build serves every model and a changed model runs again.
#include "explore/rtl_confirm.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/file_io.hpp"
#include "explore/content_hash.hpp"

namespace accel::explore {
namespace fs = std::filesystem;
namespace {

std::string report_path(const FlowSetup& s, const std::string& hash, const std::string& name) {
    return fmt::format("{}/{}/rtl/{}", s.cache_dir, hash, name);
}

}  // namespace

std::string rtl_report_name(const std::string& model) {
    return fmt::format("run-{}.json", content_hash(read_file(model)));
}

std::vector<std::string> confirm_on_rtl(const FlowSetup& s, const std::vector<DesignPoint>& points,
                                        const std::string& model, const EngineOptions& engine,
                                        const std::string& log_dir) {
    const std::string name = rtl_report_name(model);
    const auto done = [&](const std::string& hash) { return fs::is_regular_file(report_path(s, hash, name)); };
    return run_jobs(engine,
                    {s.source_dir + "/scripts/explore/rtl-point", s.cache_dir,
                     fs::absolute(model).string(), name},
                    pending_in_cache(s, points, done), log_dir, done);
}

std::optional<int64_t> rtl_cycles(const FlowSetup& s, const std::string& hash,
                                  const std::string& name) {
    const std::string path = report_path(s, hash, name);
    if (!fs::is_regular_file(path)) return std::nullopt;
    return nlohmann::json::parse(read_file(path)).at("totals").at("device_cycles").get<int64_t>();
}

}  // namespace accel::explore
