// The hardware configs shipped in configs/hw/, embedded by name (python/CMakeLists.txt)
// so that hw="tiny" works wherever the package is installed.
#pragma once
#include <cstddef>

namespace accel::python {

struct ShippedConfig {
    const char* name;  // the file's name without .yaml
    const char* yaml;
};

extern const ShippedConfig kShippedConfigs[];
extern const size_t kShippedConfigCount;

}  // namespace accel::python
