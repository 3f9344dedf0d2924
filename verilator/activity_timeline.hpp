// What the activity recorder (activity_recorder.hpp) records: per unit, the cycles it
// was busy and waiting, and the cycles a DRAM beat moved, as run-length intervals. Plain
// data, for the Chrome trace of a run (sw/backends/chrome_trace.hpp).
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

// The cycles in which one beat crossed the AXI bus, by who moved it: the RTL counts
// bytes a beat at a time, so these add up to the FETCH_BYTES, LOAD_BYTES and DRAIN_BYTES
// counters divided by the beat's bytes. Reads share one R channel: fetch and load beats
// never fall in the same cycle.
struct DramActivity {
    std::vector<ActivityInterval> fetch_reads;   // instruction beats read by fetch
    std::vector<ActivityInterval> load_reads;    // data beats read by LOAD
    std::vector<ActivityInterval> drain_writes;  // beats written by DRAIN
};

// The last run's activity. Units in the order load, compute, drain.
struct ActivityTimeline {
    static constexpr std::array<const char*, 3> kUnitNames = {"load", "compute", "drain"};
    uint64_t cycles = 0;  // cycles the run took (the CYCLES counter)
    std::array<UnitActivity, 3> units;
    DramActivity dram;
};

}  // namespace accel
