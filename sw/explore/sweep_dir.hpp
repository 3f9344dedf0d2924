// A sweep's shared directory (docs/explore.md, "Jobs"): the manifest every job reads,
// and one result file per chunk of points, written whole by the job that evaluated it.
// A chunk whose result exists is done; a sweep run again does only the others.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "explore/design_space.hpp"
#include "explore/point_cost.hpp"
#include "explore/point_row.hpp"

namespace accel::explore {

// What a sweep's stage 1 is: the same inputs give the same chunks.
struct SweepInputs {
    std::string space_path;
    std::string model;  // a .tflite path, or empty for `suite`
    std::string suite;
    int64_t chunk_points = 0;
};

class SweepDir {
public:
    // DIR/jobs with a new manifest, or the manifest of an interrupted run of the same
    // sweep. Throws accel::Error when DIR/jobs holds another sweep's manifest.
    static SweepDir create(const std::string& dir, const SweepInputs& inputs);
    // The sweep a job belongs to (accel explore-job DIR CHUNK).
    static SweepDir open(const std::string& dir);

    const std::string& dir() const { return dir_; }
    std::string jobs_dir() const { return dir_ + "/jobs"; }
    int64_t points() const { return points_; }
    int64_t chunks() const;
    std::string chunk_result(int64_t chunk) const;
    bool chunk_done(int64_t chunk) const;  // its job wrote its result
    std::vector<std::string> pending_chunks() const;  // without a result, as job ids

    DesignSpace space() const;
    ExploreTarget target() const;

    // Evaluates every point of `chunk` and writes its result whole. A point the kit
    // refuses is an invalid row; anything else fails the job.
    void run_chunk(int64_t chunk) const;
    // Every point's row, in index order; the points of a chunk without a result are
    // invalid rows saying their job failed.
    std::vector<PointRow> rows() const;

private:
    SweepDir(std::string dir, nlohmann::json manifest);
    std::string dir_;
    nlohmann::json manifest_;
    int64_t points_ = 0, chunk_points_ = 1;
};

}  // namespace accel::explore
