// gen_hw_params: the one bridge from a hardware config YAML to the hardware.
// Writes the RTL parameter include (sizes, instruction field positions, CSR offsets)
// and a C++ header embedding the config, so that nothing is copied across by hand.
//
//   gen_hw_params CONFIG.yaml OUT_DIR
// writes OUT_DIR/accel_cfg_pkg.sv      package accel_cfg_pkg: this config's sizes
//        OUT_DIR/accel_isa_pkg.sv      package accel_isa_pkg: instruction fields, opcodes,
//                                      error bits, CSR offsets (the same for every config)
//        OUT_DIR/hw_config_NAME.hpp    the config's YAML for the C++ device wrapper
#include <array>
#include <cctype>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "hw/csr.hpp"
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
    s += "localparam OPCODE_LO = 0;\nlocalparam OPCODE_W = 4;\n";
    s += "localparam FETCH_SLOTS = " + std::to_string(accel::kFetchSlots) +
         ";  // instructions fetch reads ahead\n";
    s += fmt::format("localparam [3:0] OP_LOAD = 4'd{};\n", int(Opcode::Load));
    s += fmt::format("localparam [3:0] OP_GEMM = 4'd{};\n", int(Opcode::Gemm));
    s += fmt::format("localparam [3:0] OP_DRAIN = 4'd{};\n", int(Opcode::Drain));
    s += fmt::format("localparam [3:0] OP_FINISH = 4'd{};\n", int(Opcode::Finish));
    for (uint32_t kind = 1; kind <= 6; ++kind) {
        const auto e = static_cast<accel::isa::ErrorCode>(kind);
        s += fmt::format("localparam [5:0] ERR_{} = 6'd{};\n", accel::isa::error_name(e),
                         accel::isa::error_bit(e));
    }
    s += "// PRM shifts and the quant-table lane the load unit makes of them (isa::quant_lane).\n";
    s += fmt::format("localparam int PRM_SHIFT_MIN = {};\n", accel::isa::kPrmShiftMin);
    s += fmt::format("localparam int PRM_SHIFT_MAX = {};\n", accel::isa::kPrmShiftMax);
    s += fmt::format("localparam QUANT_AMOUNT_LO = {};\n", accel::isa::kQuantAmountLo);
    s += fmt::format("localparam QUANT_AMOUNT_W = {};\n", accel::isa::kQuantAmountBits);
    s += fmt::format("localparam QUANT_LEFT_LO = {};\n", accel::isa::kQuantLeftBit);
    s += fmt::format("localparam QUANT_LANE_W = {};\n", accel::isa::kQuantLaneBits);
    const std::pair<Opcode, const char*> ops[] = {
        {Opcode::Load, "LOAD"}, {Opcode::Gemm, "GEMM"}, {Opcode::Drain, "DRAIN"}};
    for (const auto& [op, prefix] : ops) {
        // The bits an opcode uses (its fields and the opcode); all others must be zero.
        std::array<uint64_t, 8> used{0xF, 0, 0, 0, 0, 0, 0, 0};
        for (const auto& f : accel::isa::fields_of(op)) {
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

std::string sv_csrs() {
    std::string s = "// CSR byte offsets (sw/hw/csr.hpp).\n";
    for (const auto& r : accel::csr::kAll) {
        s += fmt::format("localparam [11:0] CSR_{} = 12'h{:03x};\n", r.name, r.offset);
    }
    return s;
}

// Config names may hold '-', which a C++ namespace may not.
std::string identifier(std::string name) {
    for (char& ch : name) {
        if (ch == '-') ch = '_';
    }
    return name;
}

std::string cpp_header(const accel::HwConfig& c, const std::string& yaml) {
    return fmt::format(
        "// Generated by gen_hw_params from the '{0}' hardware config -- do not edit.\n"
        "#pragma once\n"
        "namespace accel::generated::cfg_{0} {{\n"
        "inline constexpr const char* kConfigYaml = R\"accel_yaml({1})accel_yaml\";\n"
        "}}  // namespace accel::generated::cfg_{0}\n",
        identifier(c.name), yaml);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: gen_hw_params CONFIG.yaml OUT_DIR\n";
        return 2;
    }
    try {
        const std::string yaml = accel::read_file(argv[1]);
        const accel::HwConfig config = accel::parse_hw_config(yaml, argv[1]);
        const accel::HwParams params = accel::derive_params(config, argv[1]);
        const std::string dir = argv[2];
        accel::write_file_atomic(
            dir + "/accel_cfg_pkg.sv",
            fmt::format("// Generated by gen_hw_params from {} (hardware config '{}') -- do not "
                        "edit.\npackage accel_cfg_pkg;\n{}endpackage\n",
                        argv[1], config.name, sv_sizes(params)));
        accel::write_file_atomic(
            dir + "/accel_isa_pkg.sv",
            "// Generated by gen_hw_params from sw/hw/isa.hpp and csr.hpp -- do not "
            "edit.\npackage accel_isa_pkg;\n" + sv_fields() + sv_csrs() + "endpackage\n");
        accel::write_file_atomic(dir + "/hw_config_" + config.name + ".hpp",
                                 cpp_header(config, yaml));
    } catch (const accel::Error& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 2;
    }
    return 0;
}
