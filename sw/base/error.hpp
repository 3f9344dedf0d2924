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

// The device failed: hang caught by the watchdog, bus error, illegal instruction.
// The CLI prints the diagnostic and exits 3.
class DeviceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace accel
