// A child process run to its end: the engines' tools (parallel, sbatch) and the
// synthesis flow. No shell in between, so paths need no quoting.
#pragma once
#include <string>
#include <vector>

namespace accel::explore {

// Runs argv[0] (searched on PATH) with its stdout and stderr appended to `log`, or
// inherited when `log` is empty. Returns its exit status, or 128 + the signal that ended
// it. Throws accel::Error when it cannot be started.
int run_process(const std::vector<std::string>& argv, const std::string& log = "");

// Whether `program` is on PATH.
bool on_path(const std::string& program);

}  // namespace accel::explore
