#include "progress_line.hpp"

#include <unistd.h>

#include <fmt/format.h>

namespace accel::cli {
namespace {

constexpr auto kRedrawEvery = std::chrono::milliseconds(200);  // between cycle updates

double seconds(std::chrono::steady_clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

}  // namespace

ProgressLine::ProgressLine(std::string command, std::string noun, std::ostream& out,
                           bool terminal)
    : command_(std::move(command)),
      noun_(std::move(noun)),
      out_(out),
      terminal_(terminal),
      start_(std::chrono::steady_clock::now()) {}

ProgressLine::~ProgressLine() { clear(); }

bool ProgressLine::stderr_is_terminal() { return ::isatty(STDERR_FILENO) != 0; }

void ProgressLine::step(const RunProgress& p) {
    step_ = p;
    run_cycles_ = 0;
    draw();
}

void ProgressLine::run_cycles(uint64_t cycles) {
    run_cycles_ = cycles;
    if (std::chrono::steady_clock::now() - last_draw_ >= kRedrawEvery) draw();
}

void ProgressLine::clear() {
    if (!shown_) return;
    out_ << "\r\033[K" << std::flush;
    shown_ = false;
}

void ProgressLine::draw() {
    if (!terminal_) return;
    last_draw_ = std::chrono::steady_clock::now();
    const double elapsed = seconds(last_draw_ - start_);
    const int64_t cycles = step_.cycles_done + static_cast<int64_t>(run_cycles_);
    std::string line = fmt::format("{}: {} {}/{} {}; ", command_, noun_, step_.step,
                                   step_.steps, step_.what);
    if (cycles > 0) line += fmt::format("{} cycles, ", cycles);
    line += fmt::format("{:.1f} s", elapsed);
    const double left = seconds_left(step_.predicted_cycles, cycles, elapsed);
    if (left >= 0) line += fmt::format(", about {:.0f} s left", left);
    out_ << "\r\033[K" << line << std::flush;
    shown_ = true;
}

}  // namespace accel::cli
