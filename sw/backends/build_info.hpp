// What this build of accel is: its version, the git revision it was built from, and
// the hardware configs it has Verilator models of, each with a hash of its YAML (the
// values are written by CMake at configure time), for `accel --version` and the Python
// package's accel.__version__.
#pragma once
#include <cstddef>

namespace accel {

struct BuiltConfig {
    const char* name;
    const char* yaml_sha256;  // the first 12 hex digits
};

extern const char* const kVersion;
extern const char* const kGitRevision;
extern const BuiltConfig kBuiltConfigs[];
extern const size_t kBuiltConfigCount;

}  // namespace accel
