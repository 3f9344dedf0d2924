// What the activity recorder (activity_recorder.hpp) records: per unit, the cycles it
// was busy and waiting, as run-length intervals. Plain data, for the CLI and plots.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace accel {

// [begin, end) in cycles since the run started (the CYCLES counter).
struct ActivityInterval {
    uint64_t begin = 0, end = 0;
    bool operator==(const ActivityInterval&) const = default;
};

struct UnitActivity {
    std::vector<ActivityInterval> busy;  // an instruction under way
    std::vector<ActivityInterval> wait;  // waiting for a dependency token
};

// The last run's activity. Units in the order load, compute, drain.
struct ActivityTimeline {
    static constexpr std::array<const char*, 3> kUnitNames = {"load", "compute", "drain"};
    uint64_t cycles = 0;  // cycles the run took (the CYCLES counter)
    std::array<UnitActivity, 3> units;
};

}  // namespace accel
