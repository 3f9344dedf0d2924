// gen_hw_params: the one bridge from a hardware config YAML to the hardware.
// Writes the RTL packages (sizes, instruction field positions, CSR offsets), so that
// nothing is copied across by hand.
// A file whose content is unchanged is not rewritten: every Verilated model reads the
// packages, and a new timestamp would rebuild them all.
//
//   gen_hw_params CONFIG.yaml OUT_DIR
// writes OUT_DIR/accel_cfg_pkg.sv      package accel_cfg_pkg: this config's sizes
//        OUT_DIR/accel_isa_pkg.sv      package accel_isa_pkg: instruction fields, opcodes,
//                                      error bits, the DRAM bus's limits, CSR offsets (the
//                                      same for every config)
#include <algorithm>
#include <array>
#include <cctype>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "hw/csr.hpp"
#include "hw/dram_bus.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"

namespace {

using accel::isa::Opcode;

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string sv_sizes(const accel::HwParams& p) {
    std::string s;
    auto param = [&s](const char* name, uint64_t v) {
        s += fmt::format("localparam {} = {};\n", name, v);
    };
    param("BATCH", p.batch);
    param("BLOCK_IN", p.block_in);
    param("BLOCK_OUT", p.block_out);
    param("AXI_DATA_BITS", p.config.axi_data_bits);
    param("DRAM_MAX_OUTSTANDING", p.config.dram_max_outstanding);
    param("BEAT_BYTES", p.beat_bytes);
    param("INP_ENTRY_BYTES", p.inp_entry_bytes);
    param("WGT_ENTRY_BYTES", p.wgt_entry_bytes);
    param("ACC_ENTRY_BYTES", p.acc_entry_bytes);
    param("PRM_ENTRY_BYTES", p.prm_entry_bytes);
    param("INP_DEPTH", p.inp_depth);
    param("WGT_DEPTH", p.wgt_depth);
    param("ACC_DEPTH", p.acc_depth);
    param("PRM_DEPTH", p.prm_depth);
    param("UNIT_QUEUE_DEPTH", accel::kUnitQueueDepth);
    param("TOKEN_MAX", accel::kTokenMax);
    return s;
}

std::string sv_fields() {
    std::string s = "// Instruction fields: NAME_LO is the first bit, NAME_W the width.\n";
    s += "localparam INSN_BITS = " + std::to_string(accel::isa::kInsnBytes * 8) + ";\n";
    using accel::isa::kOpcodeBits;
    s += fmt::format("localparam OPCODE_LO = {};\nlocalparam OPCODE_W = {};\n",
                     accel::isa::kOpcodeLo, kOpcodeBits);
    s += "localparam FETCH_SLOTS = " + std::to_string(accel::kFetchSlots) +
         ";  // instructions fetch reads ahead\n";
    for (const auto& [op, name] : {std::pair{Opcode::Load, "LOAD"}, {Opcode::Gemm, "GEMM"},
                                   {Opcode::Drain, "DRAIN"}, {Opcode::Finish, "FINISH"}}) {
        s += fmt::format("localparam [{}:0] OP_{} = {}'d{};\n", kOpcodeBits - 1, name,
                         kOpcodeBits, int(op));
    }
    // The error mask: one bit per kind (isa.hpp, ErrorCode).
    using accel::isa::kErrorKinds;
    s += fmt::format("localparam ERR_W = {};\n", kErrorKinds);
    for (uint32_t kind = 1; kind <= kErrorKinds; ++kind) {
        const auto e = static_cast<accel::isa::ErrorCode>(kind);
        s += fmt::format("localparam [{}:0] ERR_{} = {}'d{};\n", kErrorKinds - 1,
                         accel::isa::error_name(e), kErrorKinds, accel::isa::error_bit(e));
    }
    s += "// PRM shifts and requant's lane the drain makes of them (isa::quant_lane).\n";
    s += fmt::format("localparam int PRM_SHIFT_MIN = {};\n", accel::isa::kPrmShiftMin);
    s += fmt::format("localparam int PRM_SHIFT_MAX = {};\n", accel::isa::kPrmShiftMax);
    s += fmt::format("localparam QUANT_AMOUNT_LO = {};\n", accel::isa::kQuantAmountLo);
    s += fmt::format("localparam QUANT_AMOUNT_W = {};\n", accel::isa::kQuantAmountBits);
    s += fmt::format("localparam QUANT_LEFT_LO = {};\n", accel::isa::kQuantLeftBit);
    s += fmt::format("localparam QUANT_ROUND_UP_LO = {};\n", accel::isa::kQuantRoundUpBit);
    s += fmt::format("localparam QUANT_LANE_W = {};\n", accel::isa::kQuantLaneBits);
    s += fmt::format("localparam QUANT_WORDS_W = {};  // a QUANT lane: {{shift, multiplier}}\n",
                     accel::isa::kQuantWordLaneBits);
    const std::pair<Opcode, const char*> ops[] = {
        {Opcode::Load, "LOAD"}, {Opcode::Gemm, "GEMM"}, {Opcode::Drain, "DRAIN"}};
    for (const auto& [op, prefix] : ops) {
        // The bits an opcode uses (its fields and the opcode); all others must be zero.
        std::array<uint64_t, 8> used{};
        std::vector<accel::isa::FieldInfo> fields = accel::isa::fields_of(op);
        fields.push_back({"opcode", accel::isa::kOpcodeLo, accel::isa::kOpcodeBits});
        for (const auto& f : fields) {
            for (unsigned b = f.lo; b < f.lo + f.width; ++b) used[b / 64] |= uint64_t{1} << (b % 64);
        }
        std::string hex;
        for (int i = 7; i >= 0; --i) hex += fmt::format("{:016x}", used[static_cast<size_t>(i)]);
        s += fmt::format("localparam [511:0] {}_USED_BITS = 512'h{};\n", prefix, hex);
        for (const auto& f : accel::isa::fields_of(op)) {
            const std::string name = fmt::format("{}_{}", prefix, upper(f.name));
            s += fmt::format("localparam {}_LO = {};\n", name, f.lo);
            s += fmt::format("localparam {}_W = {};\n", name, f.width);
        }
    }
    return s;
}

// One packed struct per opcode, MSB first: the decode every module uses, so that no
// module slices instruction bits itself. Bits outside the fields are rsvd_<lo>.
std::string sv_decode() {
    std::string s = "// Instruction decode: a word assigned to <op>_insn_t names its fields.\n";
    const std::pair<Opcode, const char*> ops[] = {
        {Opcode::Load, "load"}, {Opcode::Gemm, "gemm"}, {Opcode::Drain, "drain"}};
    for (const auto& [op, prefix] : ops) {
        std::vector<accel::isa::FieldInfo> fields = accel::isa::fields_of(op);
        fields.push_back({"opcode", accel::isa::kOpcodeLo, accel::isa::kOpcodeBits});
        std::sort(fields.begin(), fields.end(),
                  [](const auto& a, const auto& b) { return a.lo > b.lo; });
        std::string members;
        unsigned top = accel::isa::kInsnBytes * 8;  // the next bit down to declare
        for (const auto& f : fields) {
            if (f.lo + f.width < top) {
                members += fmt::format("    logic [{}:0] rsvd_{};\n", top - (f.lo + f.width) - 1,
                                       f.lo + f.width);
            }
            members += f.width == 1 ? fmt::format("    logic {};\n", f.name)
                                    : fmt::format("    logic [{}:0] {};\n", f.width - 1, f.name);
            top = f.lo;
        }
        s += fmt::format("typedef struct packed {{\n{}}} {}_insn_t;\n", members, prefix);
    }
    return s;
}

// The unit-state codes of UNIT_STATE (csr.hpp), the widths of the SRAM entries,
// computed from the sizes a module is given (hw_params.hpp), and the index width.
std::string sv_units() {
    std::string s = fmt::format("localparam UNIT_STATE_W = {};\ntypedef enum logic [{}:0] {{\n",
                                accel::csr::kUnitStateBits, accel::csr::kUnitStateBits - 1);
    for (size_t i = 0; i < accel::csr::kUnitStates.size(); ++i) {
        const auto& u = accel::csr::kUnitStates[i];
        s += fmt::format("    UNIT_{} = {}'d{}{}  // {}\n", u.name, accel::csr::kUnitStateBits,
                         static_cast<uint32_t>(u.state),
                         i + 1 < accel::csr::kUnitStates.size() ? "," : "", u.words);
    }
    s += "} unit_state_e;\n";
    auto width_fn = [&s](const char* name, const char* args, const std::string& expr) {
        s += fmt::format("function automatic int {0}({1});\n    {0} = {2};\nendfunction\n",
                         name, args, expr);
    };
    s += "// Bits of an SRAM entry (lane j of a vector of N-bit lanes is vec[j*N +: N]).\n";
    width_fn("inp_entry_w", "input int batch, input int block_in", "8 * batch * block_in");
    width_fn("wgt_entry_w", "input int block_in, input int block_out", "8 * block_out * block_in");
    width_fn("acc_entry_w", "input int batch, input int block_out",
             fmt::format("{} * batch * block_out", 8 * accel::kAccLaneBytes));
    width_fn("bias_entry_w", "input int block_out",
             fmt::format("{} * block_out", 8 * accel::kBiasLaneBytes));
    width_fn("quant_entry_w", "input int block_out",
             fmt::format("{} * block_out", accel::isa::kQuantWordLaneBits));
    width_fn("prm_entry_bytes", "input int block_out",
             fmt::format("{} * block_out", accel::kPrmLaneBytes));
    // At least one bit: a one-entry buffer or FIFO still has an index port.
    s += "// Bits of an index into n entries (SRAM address, FIFO pointer, lane number).\n";
    width_fn("index_w", "input int n", "(n > 1) ? $clog2(n) : 1");
    return s;
}

// The DRAM bus (dram_bus.hpp): what the load and drain units' bursts may be.
std::string sv_dram_bus() {
    std::string s = "// The DRAM bus (sw/hw/dram_bus.hpp).\n";
    s += fmt::format("localparam DRAM_ADDR_W = {};\n", accel::isa::kDramAddrBits);
    s += fmt::format("localparam AXI_MAX_BURST_BEATS = {};\n", accel::dram_bus::kMaxBurstBeats);
    s += fmt::format("localparam AXI_PAGE_BYTES = {};  // no burst crosses a page boundary\n",
                     accel::dram_bus::kPageBytes);
    return s;
}

std::string sv_csrs() {
    std::string s = "// CSR byte offsets (sw/hw/csr.hpp).\n";
    for (const auto& r : accel::csr::kAll) {
        s += fmt::format("localparam [11:0] CSR_{} = 12'h{:03x};\n", r.name, r.offset);
    }
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: gen_hw_params CONFIG.yaml OUT_DIR\n";
        return 2;
    }
    try {
        const std::string yaml = accel::read_file(argv[1]);
        const accel::HwParams params = accel::parse_hw_params(yaml, argv[1]);
        const accel::HwConfig& config = params.config;
        const std::string dir = argv[2];
        accel::write_file_if_changed(
            dir + "/accel_cfg_pkg.sv",
            fmt::format("// Generated by gen_hw_params from {} (hardware config '{}') -- do not "
                        "edit.\npackage accel_cfg_pkg;\n{}endpackage\n",
                        argv[1], config.name, sv_sizes(params)));
        accel::write_file_if_changed(
            dir + "/accel_isa_pkg.sv",
            "// Generated by gen_hw_params from sw/hw/isa.hpp and csr.hpp -- do not "
            "edit.\npackage accel_isa_pkg;\n" + sv_fields() + sv_decode() + sv_units() + sv_dram_bus() + sv_csrs() +
                "endpackage\n");
    } catch (const accel::Error& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 2;
    }
    return 0;
}
