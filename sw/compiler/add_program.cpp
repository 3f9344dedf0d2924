#include "compiler/add_program.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/int_math.hpp"
#include "compiler/cost_model.hpp"

namespace accel {
namespace {

// The PRM entries: the first carries input 1's offset as its bias and, in lanes 0-2,
// the rescalings of input 1, input 2 and the sum (drain's add mode reads them there);
// the second carries input 2's offset.
constexpr uint32_t kPrmFirst = 0, kPrmSecond = 1;
static_assert(kPrmSecond < kAddParamEntries);

uint64_t constant_bytes(const HwParams& hw) {
    return align_dram_region(uint64_t{kAddWeightEntries} * hw.wgt_entry_bytes +
                                 uint64_t{kAddParamEntries} * hw.prm_entry_bytes, hw);
}

// Two tiles in flight, each with both operands: 4T entries of INP and of ACC.
int64_t tile_entries(const HwParams& hw) {
    return std::min<int64_t>({int64_t{hw.inp_depth} / 4, int64_t{hw.acc_depth} / 4,
                              static_cast<int64_t>(isa::field_max(isa::kExtentBits))});
}

// The constants' LOADs, per tile two LOADs, two GEMMs and a DRAIN, the FINISH.
int64_t add_instructions(int64_t entries, const HwParams& hw) {
    return 2 + ceil_div(entries, tile_entries(hw)) * 5 + 1;
}

uint64_t program_bytes(int64_t entries, const HwParams& hw) {
    const auto bytes = static_cast<uint64_t>(add_instructions(entries, hw)) * isa::kInsnBytes;
    return align_dram_region(bytes, hw);
}

void put_i32(std::vector<uint8_t>& bytes, size_t at, int32_t v) {
    std::memcpy(bytes.data() + at, &v, sizeof v);
}

std::vector<uint8_t> add_constants(const AddParams& p, const HwParams& hw) {
    const uint32_t bo = hw.block_out;
    std::vector<uint8_t> c(constant_bytes(hw), 0);
    for (uint32_t o = 0; o < bo; ++o) c[o * hw.block_in + o] = 1;  // identity, [o][i]
    const size_t prm = kAddWeightEntries * hw.wgt_entry_bytes;
    const size_t first = prm + kPrmFirst * hw.prm_entry_bytes;
    const size_t second = prm + kPrmSecond * hw.prm_entry_bytes;
    for (uint32_t o = 0; o < bo; ++o) {
        put_i32(c, first + 4 * o, p.input1_offset);
        put_i32(c, second + 4 * o, p.input2_offset);
    }
    const int32_t multipliers[3] = {p.input1_multiplier, p.input2_multiplier, p.output_multiplier};
    const int32_t shifts[3] = {p.input1_shift, p.input2_shift, p.output_shift};
    for (uint32_t lane = 0; lane < 3; ++lane) {  // bias [BO], multiplier [BO], shift [BO]
        put_i32(c, first + 4 * (bo + lane), multipliers[lane]);
        put_i32(c, first + 4 * (2 * bo + lane), shifts[lane]);
    }
    return c;
}

void check_params(const AddParams& p, const HwParams& hw) {
    if (hw.block_in != hw.block_out) {
        throw Error(fmt::format("add on the device needs block_in == block_out (got {} and {})",
                                hw.block_in, hw.block_out));
    }
    for (int shift : {p.input1_shift, p.input2_shift, p.output_shift}) {
        if (shift < -31 || shift > 0) {
            throw Error(fmt::format("add: rescaling shift {} is not in [-31, 0]", shift));
        }
    }
    if (p.left_shift < 0 || p.left_shift > static_cast<int>(isa::field_max(isa::kAddShiftBits))) {
        throw Error(fmt::format("add: left shift {} does not fit the DRAIN's add_shift",
                                p.left_shift));
    }
}

}  // namespace


uint64_t add_block_bytes(int64_t entries, const HwParams& hw) {
    return program_bytes(entries, hw) + constant_bytes(hw);
}

AddPlan plan_add(const AddParams& params, int64_t entries, const HwParams& hw) {
    const AddProgram program = schedule_add(params, entries, hw, {});
    return {static_cast<int64_t>(program.insns.size()), predict_cycles(program.insns, hw).cycles};
}

AddProgram schedule_add(const AddParams& p, int64_t entries, const HwParams& hw,
                        const AddPlacement& at) {
    check_params(p, hw);
    if (entries < 1) throw Error("add: an activation of no entries");
    AddProgram out;
    out.constants = add_constants(p, hw);
    out.constants_base = at.base + static_cast<uint32_t>(program_bytes(entries, hw));
    const int64_t t = tile_entries(hw);
    out.tile_entries = t;
    const uint32_t entry = hw.inp_entry_bytes;
    auto& insns = out.insns;

    isa::Load weights;
    weights.buffer = isa::Buffer::Wgt;
    weights.dram_base = out.constants_base;
    weights.x_size = kAddWeightEntries;
    insns.push_back(weights);
    isa::Load prm;
    prm.buffer = isa::Buffer::Prm;
    prm.dram_base = out.constants_base + kAddWeightEntries * hw.wgt_entry_bytes;
    prm.x_size = kAddParamEntries;
    insns.push_back(prm);

    const int64_t tiles = (entries + t - 1) / t;
    for (int64_t i = 0; i < tiles; ++i) {
        const auto first = static_cast<uint32_t>(i * t);
        const auto n = static_cast<uint32_t>(std::min(t, entries - i * t));
        const auto slot = static_cast<uint32_t>((i % 2) * 2 * t);  // INP and ACC alike
        const bool reuse = i >= 2;  // the slot held tile i-2: wait until it is free
        for (uint32_t operand = 0; operand < 2; ++operand) {
            isa::Load ld;
            ld.buffer = isa::Buffer::Inp;
            ld.sram_base = slot + operand * static_cast<uint32_t>(t);
            ld.dram_base = (operand == 0 ? at.input1 : at.input2) + first * entry;
            ld.x_size = n;
            ld.tokens.pop_next = reuse && operand == 0;  // compute freed the INP slot
            ld.tokens.push_next = operand == 1;
            insns.push_back(ld);
        }
        for (uint32_t operand = 0; operand < 2; ++operand) {
            isa::Gemm g;  // ACC[slot + operand*T + x] = offset + INP[...] . identity
            g.init = true;
            g.prm_base = operand == 0 ? kPrmFirst : kPrmSecond;
            g.inp_base = slot + operand * static_cast<uint32_t>(t);
            g.acc_base = g.inp_base;
            g.n_ox = n;
            g.inp_ox = 1;
            g.acc_ox = 1;
            g.tokens.pop_prev = operand == 0;            // the operands are loaded
            g.tokens.pop_next = reuse && operand == 0;   // drain freed the ACC slot
            g.tokens.push_prev = operand == 1;           // the INP slot is free
            g.tokens.push_next = operand == 1;           // the ACC slot is full
            insns.push_back(g);
        }
        isa::Drain d;
        d.add = true;
        d.add_shift = static_cast<uint32_t>(p.left_shift);
        d.acc_base = slot;
        d.acc_add = static_cast<uint32_t>(t);
        d.prm_base = kPrmFirst;
        d.n_x = n;
        d.acc_x = 1;
        d.dram_base = at.output + first * entry;
        d.dram_x = entry;
        d.dram_b = hw.block_out;
        d.zy = static_cast<int8_t>(p.output_offset);
        d.act_min = static_cast<int8_t>(p.act_min);
        d.act_max = static_cast<int8_t>(p.act_max);
        d.tokens.pop_prev = true;
        d.tokens.push_prev = true;
        insns.push_back(d);
    }
    insns.push_back(isa::Finish{});
    if (static_cast<int64_t>(insns.size()) != add_instructions(entries, hw)) {
        throw std::logic_error("schedule_add: the program's length is not add_instructions'");
    }
    return out;
}

}  // namespace accel
