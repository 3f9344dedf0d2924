// The hardware-config YAML loader on arbitrary text. A config parses or is an
// accel::Error; one that parses derives its hardware parameters, and parses again to
// the same config (the loader is a function of the text alone).
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto config = parse_or_refuse([&] { return accel::parse_hw_config(text, "fuzz.yaml"); });
    if (!config) return 0;
    FUZZ_REQUIRE(config->pes() > 0 && config->bus_bytes_per_cycle() > 0);
    const accel::HwParams hw = accel::derive_params(*config, "fuzz.yaml");
    FUZZ_REQUIRE(hw.beat_bytes > 0 && hw.inp_depth > 0 && hw.wgt_depth > 0 && hw.acc_depth > 0);
    FUZZ_REQUIRE(accel::parse_hw_config(text, "fuzz.yaml") == *config);
    return 0;
}
