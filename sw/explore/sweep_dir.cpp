// The shared directory of a sweep's stage-1 jobs (sweep_dir.hpp).
#include "explore/sweep_dir.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "base/yaml_document.hpp"

namespace accel::explore {
namespace fs = std::filesystem;

namespace {

constexpr const char* kManifest = "sweep.json";
constexpr uintmax_t kMaxChunkBytes = uintmax_t{1} << 30;

// A point's row before it is evaluated: which point, and not (yet) valid.
PointRow row_of(const DesignPoint& p) {
    PointRow row;
    row.index = p.index;
    row.hash = p.hash;
    row.values = p.values;
    return row;
}

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

}  // namespace

SweepDir::SweepDir(std::string dir, nlohmann::json manifest)
    : dir_(std::move(dir)), manifest_(std::move(manifest)) {
    points_ = manifest_.at("points").get<int64_t>();
    chunk_points_ = manifest_.at("chunk_points").get<int64_t>();
}

SweepDir SweepDir::create(const std::string& dir, const SweepInputs& in) {
    const DesignSpace space = load_design_space(in.space_path);
    const std::string space_dir = fs::absolute(in.space_path).parent_path().string();
    const nlohmann::json manifest = {
        {"space_text", read_file(in.space_path, kMaxYamlBytes)},
        {"space_source", absolute(in.space_path)},  // as every job sees it, wherever it runs
        {"space_dir", space_dir},
        {"model", in.model.empty() ? "" : absolute(in.model)},
        {"suite", in.suite},
        {"chunk_points", in.chunk_points},
        {"points", space.size()}};
    SweepDir sweep(dir, manifest);
    fs::create_directories(sweep.jobs_dir() + "/chunks");
    const std::string path = sweep.jobs_dir() + "/" + kManifest;
    if (fs::exists(path)) {
        if (nlohmann::json::parse(read_file(path)) != manifest) {
            throw Error(fmt::format("{}: holds another sweep (another space, model or chunk "
                                    "size); give another --out or remove it", sweep.jobs_dir()));
        }
        return sweep;
    }
    write_file_atomic(path, manifest.dump(2) + "\n");
    return sweep;
}

SweepDir SweepDir::open(const std::string& dir) {
    const std::string path = dir + "/jobs/" + kManifest;
    nlohmann::json manifest;
    try {
        manifest = nlohmann::json::parse(read_file(path));
    } catch (const nlohmann::json::exception& e) {
        throw Error(fmt::format("{}: not a sweep manifest: {}", path, e.what()));
    }
    return SweepDir(dir, manifest);
}

int64_t SweepDir::chunks() const { return (points_ + chunk_points_ - 1) / chunk_points_; }

std::string SweepDir::chunk_result(int64_t chunk) const {
    return fmt::format("{}/chunks/{}.json", jobs_dir(), chunk);
}

bool SweepDir::chunk_done(int64_t chunk) const { return fs::is_regular_file(chunk_result(chunk)); }

std::vector<std::string> SweepDir::pending_chunks() const {
    std::vector<std::string> ids;
    for (int64_t c = 0; c < chunks(); ++c) {
        if (!chunk_done(c)) ids.push_back(std::to_string(c));
    }
    return ids;
}

DesignSpace SweepDir::space() const {
    return parse_design_space(manifest_.at("space_text").get<std::string>(),
                              manifest_.at("space_source").get<std::string>(),
                              manifest_.at("space_dir").get<std::string>());
}

ExploreTarget SweepDir::target() const {
    const std::string model = manifest_.at("model").get<std::string>();
    return model.empty() ? suite_target(manifest_.at("suite").get<std::string>())
                         : model_target(model);
}

void SweepDir::run_chunk(int64_t chunk) const {
    if (chunk < 0 || chunk >= chunks()) {
        throw Error(fmt::format("chunk {}: the sweep has chunks 0 to {}", chunk, chunks() - 1));
    }
    const DesignSpace s = space();
    const ExploreTarget t = target();
    nlohmann::json rows = nlohmann::json::array();
    const int64_t end = std::min(points_, (chunk + 1) * chunk_points_);
    for (int64_t i = chunk * chunk_points_; i < end; ++i) {
        const DesignPoint p = design_point(s, i);
        PointRow row = row_of(p);
        try {
            if (!p.hw) throw Error(p.invalid_reason);
            const PointCost cost = point_cost(t, *p.hw);
            row.valid = true;
            row.cycles = cost.cycles;
            row.sram_bytes = cost.sram_bytes;
            row.device_layers = cost.device_layers;
            row.clock_mhz = p.hw->config.clock_mhz;
            row.micros = cost.micros;
        } catch (const Error& e) {
            row.reason = e.what();
        }
        rows.push_back(row_json(row));
    }
    write_file_atomic(chunk_result(chunk), rows.dump() + "\n");
}

std::vector<PointRow> SweepDir::rows() const {
    const DesignSpace s = space();
    std::vector<PointRow> out;
    out.reserve(static_cast<size_t>(points_));
    for (int64_t c = 0; c < chunks(); ++c) {
        if (chunk_done(c)) {
            for (const nlohmann::json& j :
                 nlohmann::json::parse(read_file(chunk_result(c), kMaxChunkBytes))) {
                out.push_back(row_from_json(j));
            }
            continue;
        }
        const int64_t end = std::min(points_, (c + 1) * chunk_points_);
        for (int64_t i = c * chunk_points_; i < end; ++i) {
            PointRow row = row_of(design_point(s, i));
            row.reason = fmt::format("job {} failed twice (logs in {}/logs)", c, jobs_dir());
            out.push_back(row);
        }
    }
    return out;
}

}  // namespace accel::explore
