// The device program of an element-wise ADD of two activations of one shape
// (docs/networks.md, "ADD on the device"). Both inputs and the output lie in the blocked
// activation layout (layout.hpp), so the operator is element-wise over their entries.
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

// Where the program finds everything in device DRAM (byte addresses, each a whole
// beat): its constants (identity weights, then two PRM entries) and the activations.
struct AddAddresses {
    uint32_t constants = 0, input1 = 0, input2 = 0, output = 0;
};

struct AddProgram {
    std::vector<isa::Insn> insns;
    std::vector<uint8_t> constants;  // to be written at AddAddresses::constants
    int64_t tile_entries = 0;        // T
};

// `entries`: the activations' entries of batch x block_in int8 (layout.hpp). Needs
// block_in == block_out; throws accel::Error when the parameters are outside what the
// device's add mode computes (docs/isa.md: shifts in [-31, 0], left shift in [0, 31]).
AddProgram schedule_add(const AddParams& params, int64_t entries, const HwParams& hw,
                        const AddAddresses& at);

// The bytes of the constants block, for laying out DRAM before scheduling.
uint32_t add_constant_bytes(const HwParams& hw);

}  // namespace accel
