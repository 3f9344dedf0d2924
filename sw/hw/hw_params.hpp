// Parameters derived from a HwConfig: buffer geometry and architectural constants.
// The generator (sw/hw/gen_hw_params.cpp, run by CMake) writes these into the RTL
// packages and a C++ header, so hardware and software never hold hand-copied numbers.
#pragma once
#include <cstdint>
#include <string>

#include "hw/hw_config.hpp"

namespace accel {

// Architectural constants (docs/isa.md).
constexpr uint32_t kPrmDepth = 64;        // parameter table entries (output-channel blocks)
constexpr uint32_t kUnitQueueDepth = 8;   // instructions per unit, counting the executing one
constexpr uint32_t kFetchSlots = 4;       // instructions fetch reads ahead
constexpr uint32_t kTokenMax = 255;       // tokens a dependency queue can hold
constexpr uint32_t kMaxSramDepth = 65536; // 16-bit SRAM addresses

struct HwParams {
    HwConfig config;
    uint32_t batch, block_in, block_out;
    uint32_t beat_bytes;                           // axi.data_bits / 8
    uint32_t inp_entry_bytes, wgt_entry_bytes, acc_entry_bytes, prm_entry_bytes;
    uint32_t inp_depth, wgt_depth, acc_depth, prm_depth;
};

// Throws accel::Error, naming `source` and the key, when the config breaks a rule of
// docs/isa.md (a depth above 65536, an entry size the AXI beat does not divide).
// parse_hw_config applies it, so every loaded config derives.
HwParams derive_params(const HwConfig& config, const std::string& source = "hw config");

}  // namespace accel
