// The device program of an element-wise ADD of two activations of one shape
// (docs/networks.md, "ADD on the device"). Both inputs and the output lie in the blocked
// activation layout (packing.hpp), so the operator is element-wise over their entries.
// Each tile of T entries: two LOADs bring the operands' entries into INP; two GEMMs
// with identity weights copy them into ACC, each starting from a bias that is its input
// offset (-zero point), so ACC holds x + offset exactly; one DRAIN in add mode
// (docs/isa.md) rescales both, adds them and requantizes the sum, as TFLite's ADD does.
// INP and ACC hold two tiles, so loads, copies and drains of neighbouring tiles overlap.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/hw_params.hpp"
#include "hw/isa.hpp"
#include "ops/add.hpp"

namespace accel {

// The on-chip entries an ADD's program uses, from entry 0 of each buffer: its identity
// weights in WGT, its two parameter entries in PRM.
inline constexpr int64_t kAddWeightEntries = 1;
inline constexpr int64_t kAddParamEntries = 2;

// Where an ADD goes in the device's DRAM (byte addresses, each a whole beat): its
// program at `base`, its constants (identity weights, then two PRM entries) behind it,
// the activations where the network keeps them.
struct AddPlacement {
    uint32_t base = 0, input1 = 0, input2 = 0, output = 0;
};

struct AddProgram {
    std::vector<isa::Insn> insns;
    uint32_t constants_base = 0;     // where `constants` go: behind the program
    std::vector<uint8_t> constants;
    int64_t tile_entries = 0;        // T
};

// What the network plan keeps of a device ADD, as of a conv2d its plan: the program's
// length, which places it, and its predicted cycles (cost_model.hpp).
struct AddPlan {
    int64_t instructions = 0;
    int64_t predicted_cycles = 0;
};

// `entries`: the activations' entries of batch x block_in int8 (packing.hpp). Needs
// block_in == block_out; throws accel::Error when the parameters are outside what the
// device's add mode computes (docs/isa.md: shifts in [-31, 0], left shift in [0, 31]).
AddPlan plan_add(const AddParams& params, int64_t entries, const HwParams& hw);

// The program, every LOAD and DRAIN at its final address. Throws as plan_add does.
AddProgram schedule_add(const AddParams& params, int64_t entries, const HwParams& hw,
                        const AddPlacement& at);

// The DRAM bytes of an ADD's program (aligned) and constants, from its base.
uint64_t add_block_bytes(int64_t entries, const HwParams& hw);

}  // namespace accel
