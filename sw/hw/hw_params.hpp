// Parameters derived from a HwConfig: buffer geometry and architectural constants.
// The generator (sw/hw/gen_hw_params.cpp, run by CMake) writes these into the RTL
// packages and a C++ header, so hardware and software never hold hand-copied numbers.
#pragma once
#include <cstdint>
#include <string>

#include "hw/hw_config.hpp"
#include "hw/isa_fields.hpp"

namespace accel {

// Architectural constants (docs/isa.md).
constexpr uint32_t kPrmDepth = 64;        // parameter table entries (output-channel blocks)
constexpr uint32_t kUnitQueueDepth = 8;   // instructions per unit, counting the executing one
constexpr uint32_t kFetchSlots = 4;       // instructions fetch reads ahead
// Cycles from an instruction entering fetch's checker (rtl/accel_insn_check.sv, one a
// cycle, in program order, once its beats are in) to its verdict; fetch keeps the verdict
// with the instruction's slot and may dispatch it the cycle after.
constexpr uint32_t kCheckLatency = 8;
// Cycles from fetch's dispatch of an instruction (its push into the unit's queue,
// accel_prim_fifo_sync with PUSH_STAGE 1) to the instruction at the queue's head, where
// the unit may start it.
constexpr uint32_t kQueueLatency = 2;
// The drain's pipelines, cycles from an ACC read's data to the result (each module's
// bench checks its LATENCY or STAGES against these): accel_requant (rtl/accel_requant.sv);
// in add mode accel_add_operands (rtl/accel_add_operands.sv) before it; in double-scale
// mode, instead of it, accel_double_requant (rtl/accel_double_requant.sv) with one lane,
// which a beat's lanes go through a cycle each (rtl/accel_double_requant_serial.sv).
constexpr uint32_t kRequantLatency = 10;
constexpr uint32_t kAddOperandsLatency = 9;
constexpr uint32_t kDoubleRequantLatency = 12;
constexpr uint32_t kTokenMax = 255;       // tokens a dependency queue can hold
constexpr uint32_t kMaxSramDepth = uint32_t{1} << isa::kSramAddrBits;  // SRAM addresses
static_assert(kPrmDepth <= isa::field_max(isa::kPrmAddrBits) + 1, "prm_base must reach every entry");

// Bytes per lane of an SRAM entry beyond the int8 inputs and weights: an int32
// accumulator, and a PRM channel's bias, multiplier and shift (three int32); the load
// unit keeps the bias of each in its own table.
constexpr uint32_t kAccLaneBytes = 4;
constexpr uint32_t kPrmLaneBytes = 12;
constexpr uint32_t kBiasLaneBytes = 4;

struct HwParams {
    HwConfig config;
    uint32_t batch, block_in, block_out;
    uint32_t beat_bytes;                           // axi.data_bits / 8
    uint32_t inp_entry_bytes, wgt_entry_bytes, acc_entry_bytes, prm_entry_bytes;
    uint32_t inp_depth, wgt_depth, acc_depth, prm_depth;
};

// Where DRAM regions (a program, a tensor) may start: LOAD and DRAIN addresses must be
// whole beats (docs/isa.md), and instructions are fetched from 64-byte boundaries.
constexpr uint32_t dram_region_alignment(const HwParams& hw) {
    return hw.beat_bytes > 64 ? hw.beat_bytes : 64;
}

// `bytes` rounded up to the next multiple of dram_region_alignment(hw).
constexpr uint64_t align_dram_region(uint64_t bytes, const HwParams& hw) {
    const uint64_t a = dram_region_alignment(hw);
    return (bytes + a - 1) / a * a;
}

// Throws accel::Error, naming `source` and the key, when the config breaks a rule of
// docs/isa.md (a depth above 65536, an entry size the AXI beat does not divide).
// parse_hw_config applies it, so every loaded config derives.
HwParams derive_params(const HwConfig& config, const std::string& source = "hw config");

// A config and its parameters, derived once: parse_hw_config, load_hw_config and
// default_hw_config (hw_config.hpp) with what they derive kept.
HwParams parse_hw_params(const std::string& yaml_text, const std::string& source);
HwParams load_hw_params(const std::string& path);
HwParams default_hw_params();

}  // namespace accel
