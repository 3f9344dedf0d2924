// The instruction decoder and its static checks on arbitrary 64-byte words, against a
// hardware config also drawn from the input. Properties that must hold:
// - decode never throws, and an unknown opcode is IllegalInstruction;
// - a word that decodes without IllegalInstruction is exactly what its fields encode
//   (reserved bits zero), and its error is check() of the decoded instruction;
// - a word refused as IllegalInstruction has reserved bits set or fails check();
// - the canonical word encode(decode(w)) decodes to itself, with check()'s verdict;
// - LOAD never uses the previous unit's tokens, DRAIN never the next one's.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <variant>

#include "fuzz_check.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"

namespace {

namespace isa = accel::isa;

constexpr size_t kConfigBytes = 4;

// Core, buffers and bus of the config from the first input bytes, so that alignment and
// SRAM depth checks meet many geometries; nullopt when the combination is not a config.
std::optional<accel::HwParams> params_from(std::span<const uint8_t, kConfigBytes> b) {
    static const accel::HwConfig base = accel::default_hw_config();  // parsed once
    accel::HwConfig c = base;
    c.batch = 1 << (b[0] & 1);
    c.block_in = 4 << (b[0] >> 1 & 3);
    c.block_out = 4 << (b[0] >> 3 & 3);
    c.axi_data_bits = 32 << (b[0] >> 5 & 7) % 6;  // 32 .. 1024
    c.input_kib = 1 << (b[1] & 15);
    c.weight_kib = 1 << (b[1] >> 4);
    c.acc_kib = 1 << (b[2] & 15);
    return parse_or_refuse([&] { return accel::derive_params(c, "fuzz config"); });
}

bool is_illegal(isa::ErrorCode e) { return e == isa::ErrorCode::IllegalInstruction; }

void check_tokens(const isa::Insn& insn) {
    const isa::Tokens t = isa::tokens_of(insn);
    if (std::holds_alternative<isa::Load>(insn)) FUZZ_REQUIRE(!t.pop_prev && !t.push_prev);
    if (std::holds_alternative<isa::Drain>(insn)) FUZZ_REQUIRE(!t.pop_next && !t.push_next);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < kConfigBytes + isa::kInsnBytes) return 0;  // bytes past the word are unused
    const std::optional<accel::HwParams> hw =
        params_from(std::span<const uint8_t, kConfigBytes>(data, kConfigBytes));
    if (!hw) return 0;
    const std::span<const uint8_t, isa::kInsnBytes> word(data + kConfigBytes, isa::kInsnBytes);

    const isa::Decoded d = isa::decode(word, *hw);
    const unsigned opcode = word[0] & 0xf;
    if (opcode < 1 || opcode > 4) {
        FUZZ_REQUIRE(is_illegal(d.error));
        return 0;
    }
    const isa::InsnWord canonical = isa::encode(d.insn);
    const bool reserved_clear = std::equal(canonical.begin(), canonical.end(), word.begin());
    const isa::ErrorCode checked = isa::check(d.insn, *hw);
    if (!is_illegal(d.error)) {
        FUZZ_REQUIRE(reserved_clear && d.error == checked);
    } else {
        FUZZ_REQUIRE(!reserved_clear || is_illegal(checked));
    }

    const isa::Decoded again = isa::decode(canonical, *hw);
    FUZZ_REQUIRE(again.error == checked);
    FUZZ_REQUIRE(isa::encode(again.insn) == canonical);
    FUZZ_REQUIRE(!isa::to_string(again.insn).empty());
    if (checked == isa::ErrorCode::Ok) check_tokens(again.insn);
    return 0;
}
