// The progress line of accel run, bench and conv2d: on a terminal, one line of stderr
// rewritten in place as the run goes -- the step running, the device cycles so far, the
// time elapsed and an estimate of the time left from the cost model's prediction:
//   run: operator 12/70 CONV_2D (device); 1234567 cycles, 3.2 s, about 9 s left
// Nothing at all when stderr is not a terminal (a log, a pipe, a test).
#pragma once
#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

#include "runtime/run_progress.hpp"

namespace accel::cli {

class ProgressLine {
public:
    // `command` heads the line ("run"), `noun` names a step ("operator"); draws on `out`
    // only when `terminal`.
    ProgressLine(std::string command, std::string noun, std::ostream& out, bool terminal);
    ~ProgressLine();  // clears the line
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    // Whether the CLI's stderr is a terminal.
    static bool stderr_is_terminal();

    // A step starts.
    void step(const RunProgress& p);
    // The running program's cycles so far (the Verilator device's on_cycles).
    void run_cycles(uint64_t cycles);
    // Removes the line, before the command prints its results.
    void clear();

private:
    void draw();

    std::string command_, noun_;
    std::ostream& out_;
    bool terminal_;
    bool shown_ = false;
    RunProgress step_;
    uint64_t run_cycles_ = 0;
    std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace accel::cli
