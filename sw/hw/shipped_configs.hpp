// The hardware configs shipped in configs/hw/, embedded at build time by name: the
// default config, the Verilator models' configs and the Python package's hw="tiny" all
// read these, so no file is needed at run time and the YAML files stay the one source.
#pragma once
#include <span>
#include <string_view>

namespace accel {

struct ShippedConfig {
    const char* name;  // the file's name without .yaml
    const char* yaml;  // its text
};

// Every config of configs/hw/, by name.
std::span<const ShippedConfig> shipped_configs();

// The text of configs/hw/<name>.yaml; nullptr when no such config was shipped.
const char* shipped_config_yaml(std::string_view name);

}  // namespace accel
