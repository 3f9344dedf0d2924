// What this build of accel is: its version, the git revision it was built from, and
// the hardware configs it has Verilator models of, each with a hash of its YAML (the
// values are written by CMake at configure time).
#pragma once
#include <cstddef>

namespace accel::cli {

struct BuiltConfig {
    const char* name;
    const char* yaml_sha256;  // the first 12 hex digits
};

extern const char* const kVersion;
extern const char* const kGitRevision;
extern const BuiltConfig kBuiltConfigs[];
extern const size_t kBuiltConfigCount;

}  // namespace accel::cli
