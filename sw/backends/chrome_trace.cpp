#include "backends/chrome_trace.hpp"

#include <vector>

#include "runtime/report.hpp"

namespace accel {
namespace {

using Json = nlohmann::ordered_json;

// The tracks, top to bottom: thread ids of the one process, the accelerator.
enum Track : int { kFetch = 1, kLoad, kCompute, kDrain, kDramRead, kDramWrite };

Json track_name(int tid, const char* name) {
    return {{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", tid},
            {"args", {{"name", name}}}};
}

// Complete events ("ph": "X"), one per interval. A timestamp is a clock cycle since the
// run started; the viewers show it as one microsecond.
void add_slices(Json& events, int tid, const char* name,
                const std::vector<ActivityInterval>& spans) {
    for (const ActivityInterval& s : spans) {
        events.push_back({{"name", name}, {"ph", "X"}, {"ts", s.begin},
                          {"dur", s.end - s.begin}, {"pid", 1}, {"tid", tid}});
    }
}

}  // namespace

Json chrome_trace(const std::string& title, const HwParams& hw, const ActivityTimeline& t,
                  const DeviceCounters& c) {
    Json events = Json::array();
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1},
                      {"args", {{"name", "accel " + hw.config.name + ": " + title}}}});
    const std::pair<int, const char*> tracks[] = {
        {kFetch, "fetch"}, {kLoad, "load"},          {kCompute, "compute"},
        {kDrain, "drain"}, {kDramRead, "DRAM read"}, {kDramWrite, "DRAM write"}};
    for (const auto& [tid, name] : tracks) {
        events.push_back(track_name(tid, name));
        events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", 1},
                          {"tid", tid}, {"args", {{"sort_index", tid}}}});
    }
    add_slices(events, kFetch, "read instructions", t.dram.fetch_reads);
    for (size_t u = 0; u < t.units.size(); ++u) {
        const int tid = kLoad + static_cast<int>(u);
        add_slices(events, tid, ActivityTimeline::kUnitNames[u], t.units[u].busy);
        add_slices(events, tid, "token wait", t.units[u].wait);
    }
    add_slices(events, kDramRead, "fetch", t.dram.fetch_reads);
    add_slices(events, kDramRead, "load", t.dram.load_reads);
    add_slices(events, kDramWrite, "drain", t.dram.drain_writes);

    const Json other = {
        {"schema_version", kJsonSchemaVersion},
        {"title", title},
        {"hw", hw.config.name},
        {"time_unit", "clock cycle"},
        {"cycles", c.cycles},
        {"beat_bytes", hw.beat_bytes},
        {"unit_busy_cycles",
         {{"load", c.load_busy}, {"compute", c.gemm_busy}, {"drain", c.drain_busy}}},
        {"unit_wait_cycles",
         {{"load", c.load_wait}, {"compute", c.gemm_wait}, {"drain", c.drain_wait}}},
        {"dram_read_bytes", {{"fetch", c.fetch_bytes}, {"load", c.load_bytes}}},
        {"dram_write_bytes", {{"drain", c.drain_bytes}}}};
    return {{"otherData", other}, {"traceEvents", events}};
}

}  // namespace accel
