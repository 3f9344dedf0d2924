// The hardware configs tests run on: those of configs/hw/ by name, each file read and
// derived once and kept for the test binary's life -- the one place a test loads a
// shipped config -- and batch2, which no file ships.
#pragma once
#include <map>
#include <string>

#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"

namespace accel::test {

// configs/hw/<name>.yaml: the path, for a test that hands it to the CLI.
inline std::string shipped_hw_path(const std::string& name) {
    return std::string(ACCEL_HW_CONFIG_DIR) + "/" + name + ".yaml";
}

// Its derived parameters; accel::Error when there is no such config.
inline const HwParams& shipped_hw(const std::string& name) {
    static std::map<std::string, HwParams> cache;
    auto it = cache.find(name);
    if (it == cache.end()) it = cache.emplace(name, load_hw_params(shipped_hw_path(name))).first;
    return it->second;
}

// Two images per entry and a non-square 8x16 core: the default config otherwise. It
// takes the functional simulator's generic (runtime block size) GEMM path.
inline const HwParams& batch2_hw() {
    static const HwParams hw = [] {
        HwConfig c = default_hw_config();
        c.name = "batch2";
        c.batch = 2, c.block_in = 8, c.block_out = 16;
        c.input_kib = 8, c.weight_kib = 16, c.acc_kib = 16;
        return derive_params(c);
    }();
    return hw;
}

}  // namespace accel::test
