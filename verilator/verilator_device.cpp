#include "verilator_device.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"
#include "hw/hw_config.hpp"
#include "hw/shipped_configs.hpp"
#include "verilator_models.hpp"

namespace accel {
namespace detail {
extern const CompiledModel* const kCompiledModels[];  // generated: verilator_registry.cpp
extern const size_t kCompiledModelCount;
}  // namespace detail

namespace {

// Same hardware: every parameter but the name.
bool same_hardware(HwConfig a, HwConfig b) {
    a.name = b.name = "";
    return a == b;
}

}  // namespace

std::vector<std::string> verilator_configs() {
    std::vector<std::string> names;
    for (size_t i = 0; i < detail::kCompiledModelCount; ++i) {
        names.emplace_back(detail::kCompiledModels[i]->config_name);
    }
    return names;
}

std::unique_ptr<Device> make_verilator_device(const HwParams& params, uint64_t dram_bytes,
                                              const VerilatorOptions& options) {
    for (size_t i = 0; i < detail::kCompiledModelCount; ++i) {
        const detail::CompiledModel& m = *detail::kCompiledModels[i];
        const char* yaml = shipped_config_yaml(m.config_name);
        if (yaml != nullptr && same_hardware(parse_hw_config(yaml, m.config_name), params.config)) {
            return m.make(params, dram_bytes, options);
        }
    }
    throw Error(fmt::format("no Verilator model was built for hw config "
                            "'{}' (built: {}); add it to ACCEL_HW_CONFIGS and rebuild",
                            params.config.name, fmt::join(verilator_configs(), ", ")));
}

}  // namespace accel
