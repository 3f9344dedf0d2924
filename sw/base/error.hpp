// The two kinds of failure a user sees, each with its own exit code (docs/cli.md).
#pragma once
#include <stdexcept>
#include <string>

namespace accel {

// Bad usage or bad input: the message names the file/option and what is wrong.
// The CLI prints "error: <message>" and exits 2.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What a failed allocation means to a user: the tensors asked for do not fit in memory.
// Bad input (exit 2 in the CLI, accel.Error in Python), never an internal error.
inline constexpr const char* kOutOfMemory =
    "out of memory: the tensors are too large for this machine";

// The device failed: hang caught by the watchdog, bus error, illegal instruction.
// The CLI prints the diagnostic and exits 3.
class DeviceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace accel
