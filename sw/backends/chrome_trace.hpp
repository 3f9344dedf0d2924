// A run's unit activity (verilator/activity_timeline.hpp) in the Chrome trace event
// format, which Perfetto (ui.perfetto.dev) and chrome://tracing open: one track per
// unit, DRAM read and write occupancy, and token waits (docs/cli.md, "--timeline"). It
// sits with the backends, the room that links the Verilator device whose recording it
// writes, so that a program besides the CLI can write one too.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "devices/device.hpp"
#include "hw/hw_params.hpp"
#include "activity_timeline.hpp"

namespace accel {

// `title` names the run (a layer and its shape); `counters` are the same run's, written
// beside the events so that a reader can check that the durations add up to them.
nlohmann::ordered_json chrome_trace(const std::string& title, const HwParams& hw,
                                    const ActivityTimeline& timeline,
                                    const DeviceCounters& counters);

}  // namespace accel
