// How far a run of device programs has got, for a display of the time left: which step
// (an operator of a model, a layer of a suite) is starting, and the device cycles run so
// far against the cost model's prediction for them all.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace accel {

struct RunProgress {
    int64_t step = 0, steps = 0;   // step `step` (from 1) of `steps` is starting
    std::string what;              // what it is, e.g. "CONV_2D (device)"
    int64_t cycles_done = 0;       // device cycles of the steps before it (0 on fsim)
    int64_t predicted_cycles = 0;  // the cost model's prediction for every step
};

// Called as each step starts.
using ProgressSink = std::function<void(const RunProgress&)>;

// The seconds still to go: the cycles predicted but not yet run, at the rate the run has
// kept so far. Negative when there is nothing to go on: no cycles run yet (or a device
// that keeps no time), or no prediction left.
inline double seconds_left(int64_t predicted_cycles, int64_t cycles_run, double elapsed) {
    if (cycles_run <= 0 || predicted_cycles <= cycles_run || elapsed <= 0) return -1;
    return elapsed * static_cast<double>(predicted_cycles - cycles_run) /
           static_cast<double>(cycles_run);
}

}  // namespace accel
