#include "timeline_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace accel::e2e {

using Json = nlohmann::json;

namespace {

struct Slice {
    int64_t ts = 0, dur = 0;
};

// The thread ids of the "thread_name" metadata events, by track name.
std::map<std::string, int64_t> track_ids(const Json& events) {
    std::map<std::string, int64_t> tids;
    for (const Json& e : events) {
        if (e.value("ph", "") == "M" && e.value("name", "") == "thread_name") {
            tids[e["args"]["name"].get<std::string>()] = e["tid"].get<int64_t>();
        }
    }
    return tids;
}

int64_t total(const std::vector<Slice>& slices) {
    int64_t sum = 0;
    for (const Slice& s : slices) sum += s.dur;
    return sum;
}

}  // namespace

void expect_timeline_matches_report(const Json& trace, const Json& report) {
    ASSERT_TRUE(trace.is_object());
    ASSERT_TRUE(trace["traceEvents"].is_array());
    const Json& other = trace["otherData"];
    EXPECT_EQ(other["schema_version"], 1);
    const int64_t cycles = report["cycles"].get<int64_t>();
    EXPECT_EQ(other["cycles"].get<int64_t>(), cycles);

    const std::map<std::string, int64_t> tids = track_ids(trace["traceEvents"]);
    for (const char* track : {"fetch", "load", "compute", "drain", "DRAM read", "DRAM write"}) {
        EXPECT_EQ(tids.count(track), 1u) << "no track " << track;
    }
    std::map<int64_t, std::vector<Slice>> by_track;                 // tid -> slices
    std::map<std::pair<int64_t, std::string>, int64_t> by_name;     // (tid, name) -> cycles
    for (const Json& e : trace["traceEvents"]) {
        ASSERT_TRUE(e["ph"].is_string()) << e;
        ASSERT_TRUE(e["pid"].is_number_integer()) << e;
        if (e["ph"] == "M") continue;
        ASSERT_EQ(e["ph"], "X") << e;
        ASSERT_TRUE(e["name"].is_string()) << e;
        ASSERT_TRUE(e["ts"].is_number_unsigned()) << e;
        ASSERT_TRUE(e["dur"].is_number_unsigned()) << e;
        ASSERT_TRUE(e["tid"].is_number_integer()) << e;
        const Slice s{e["ts"].get<int64_t>(), e["dur"].get<int64_t>()};
        EXPECT_GT(s.dur, 0) << e;
        EXPECT_LE(s.ts + s.dur, cycles) << "outside the run: " << e;
        by_track[e["tid"].get<int64_t>()].push_back(s);
        by_name[{e["tid"].get<int64_t>(), e["name"].get<std::string>()}] += s.dur;
    }
    for (auto& [tid, slices] : by_track) {
        std::sort(slices.begin(), slices.end(),
                  [](const Slice& a, const Slice& b) { return a.ts < b.ts; });
        for (size_t i = 1; i < slices.size(); ++i) {
            EXPECT_GE(slices[i].ts, slices[i - 1].ts + slices[i - 1].dur)
                << "overlapping slices on track " << tid;
        }
    }
    // Busy and token-wait cycles per unit: the RTL's own counters.
    const auto cycles_of = [&](const std::string& track, const std::string& name) {
        return by_name[std::make_pair(tids.at(track), name)];
    };
    for (const char* unit : {"load", "compute", "drain"}) {
        SCOPED_TRACE(unit);
        EXPECT_GT(cycles_of(unit, unit), 0) << "every unit works in a conv2d";
        EXPECT_EQ(cycles_of(unit, unit), report["unit_busy_cycles"][unit].get<int64_t>());
        EXPECT_EQ(cycles_of(unit, "token wait"), report["unit_wait_cycles"][unit].get<int64_t>());
    }
    // One beat per cycle of DRAM occupancy: the bytes the report counts.
    const int64_t beat = other["beat_bytes"].get<int64_t>();
    const std::vector<Slice>& reads = by_track[tids.at("DRAM read")];
    const std::vector<Slice>& writes = by_track[tids.at("DRAM write")];
    EXPECT_EQ(total(reads) * beat, report["dram_read_bytes"].get<int64_t>());
    EXPECT_EQ(total(writes) * beat, report["dram_write_bytes"].get<int64_t>());
    EXPECT_EQ(total(by_track[tids.at("fetch")]) * beat,
              other["dram_read_bytes"]["fetch"].get<int64_t>());
    EXPECT_EQ(cycles_of("DRAM read", "fetch"), total(by_track[tids.at("fetch")]));
    EXPECT_GT(total(by_track[tids.at("fetch")]), 0) << "a run fetches its instructions";
}

}  // namespace accel::e2e
