// Random instruction streams for differential tests (fsim against the RTL, and fsim
// against itself): valid, race-free programs whose results every correct device
// reproduces bit for bit, and programs that raise one chosen error kind.
#pragma once
#include <cstdint>
#include <vector>

#include "devices/device.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"

namespace accel::test {

struct DramRange {
    uint32_t addr = 0;
    uint32_t bytes = 0;
};

struct RandomProgramOptions {
    uint32_t max_rounds = 3;             // load -> compute -> drain rounds
    uint32_t max_gemms_per_round = 3;    // all accumulate into the round's ACC tile
    uint32_t max_drains_per_round = 3;   // the tile drained in this many pieces
    uint64_t max_steps_per_gemm = 1024;  // keeps an RTL simulation of the program short
};

struct RandomProgram {
    // The whole DRAM image: input data, instructions, zeroed output regions. Run it on a
    // device of exactly dram.size() bytes (the bus-error programs rely on the size).
    std::vector<uint8_t> dram;
    uint32_t insn_addr = 0;
    uint32_t insn_count = 0;
    std::vector<isa::Insn> insns;    // what the stream holds, for diagnostics
    std::vector<DramRange> outputs;  // where the DRAINs write (gaps between entries stay 0)
    uint32_t expected_errors = 0;    // the error mask a correct device reports
};

// A valid program in rounds: LOADs into INP/WGT/PRM, GEMMs with random loop nests and
// strides over the loaded regions into one ACC tile, DRAINs of the tile to distinct
// DRAM regions. Tokens order the rounds so that every SRAM region is written before it
// is read and not overwritten while in use (PRM is double-buffered by round, so a round's
// loads may overlap the previous round's drains). Deterministic in (params, seed).
RandomProgram make_random_program(const HwParams& params, uint32_t seed,
                                  const RandomProgramOptions& options = {});

// A program that raises exactly `kind` (any ErrorCode but Ok); expected_errors is its
// bit. The variant (which instruction, which rule) is chosen by the seed. All are free of
// data races, so the DRAM contents must agree between devices too -- except after a
// BUS_ERROR, which leaves DRAM unspecified (docs/isa.md).
RandomProgram make_error_program(const HwParams& params, uint32_t seed, isa::ErrorCode kind);

// Writes the image into the device (which must hold dram.size() bytes) and runs it.
DeviceCounters run_program(Device& device, const RandomProgram& program);

}  // namespace accel::test
