#include "hw/isa.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include <fmt/format.h>

#include "base/int_math.hpp"

namespace accel::isa {
namespace {

// 512-bit little-endian word access.
uint64_t get_bits(std::span<const uint8_t, kInsnBytes> w, unsigned lo, unsigned width) {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) {
        const unsigned bit = lo + i;
        v |= uint64_t{(w[bit / 8] >> (bit % 8)) & 1u} << i;
    }
    return v;
}

void set_bits(InsnWord& w, unsigned lo, unsigned width, uint64_t v) {
    for (unsigned i = 0; i < width; ++i) {
        const unsigned bit = lo + i;
        const auto mask = static_cast<uint8_t>(1u << (bit % 8));
        if ((v >> i) & 1u) {
            w[bit / 8] |= mask;
        } else {
            w[bit / 8] &= static_cast<uint8_t>(~mask);
        }
    }
}

template <typename T>
uint64_t to_bits(const T& v) {
    if constexpr (std::is_enum_v<T>) {
        return static_cast<uint64_t>(v);
    } else if constexpr (std::is_same_v<T, int8_t>) {
        return static_cast<uint8_t>(v);
    } else {
        return static_cast<uint64_t>(v);
    }
}

template <typename T>
T from_bits(uint64_t v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v != 0;
    } else if constexpr (std::is_same_v<T, int8_t>) {
        return static_cast<int8_t>(static_cast<uint8_t>(v));
    } else {
        return static_cast<T>(v);
    }
}

}  // namespace

// The field tables of docs/isa.md. `f(name, lo, width, member)` is called per field.
template <typename Self, typename F>
void visit_fields(Self& t, F&& f) {
    f("pop_prev", 4, 1, t.tokens.pop_prev);
    f("pop_next", 5, 1, t.tokens.pop_next);
    f("push_prev", 6, 1, t.tokens.push_prev);
    f("push_next", 7, 1, t.tokens.push_next);
    using T = std::remove_const_t<Self>;
    if constexpr (std::is_same_v<T, Load>) {
        f("buffer", 8, 2, t.buffer);
        f("sram_base", 16, kSramAddrBits, t.sram_base);
        f("dram_base", 32, kDramAddrBits, t.dram_base);
        f("z_size", 64, kExtentBits, t.z_size);
        f("y_size", 80, kExtentBits, t.y_size);
        f("x_size", 96, kExtentBits, t.x_size);
        f("dram_z_stride", 128, kDramAddrBits, t.dram_z_stride);
        f("dram_y_stride", 160, kDramAddrBits, t.dram_y_stride);
        f("pad_top", 192, kPadBits, t.pad_top);
        f("pad_bottom", 200, kPadBits, t.pad_bottom);
        f("pad_left", 208, kPadBits, t.pad_left);
        f("pad_right", 216, kPadBits, t.pad_right);
        f("pad_value", 224, 8, t.pad_value);
        f("dram_x_stride", 256, kDramAddrBits, t.dram_x_stride);
        f("pack_taps", 288, kPackBits, t.pack_taps);
        f("pack_bytes", 296, kPackBits, t.pack_bytes);
    } else if constexpr (std::is_same_v<T, Gemm>) {
        f("init", 8, 1, t.init);
        f("acc_base", 16, kSramAddrBits, t.acc_base);
        f("inp_base", 32, kSramAddrBits, t.inp_base);
        f("wgt_base", 48, kSramAddrBits, t.wgt_base);
        f("prm_base", 64, kPrmAddrBits, t.prm_base);
        f("n_kb", 80, kExtentBits, t.n_kb);
        f("n_oy", 96, kExtentBits, t.n_oy);
        f("n_ox", 112, kExtentBits, t.n_ox);
        f("n_r", 128, kKernelExtentBits, t.n_r);
        f("n_s", 136, kKernelExtentBits, t.n_s);
        f("n_cb", 144, kExtentBits, t.n_cb);
        f("acc_kb", 160, kSramAddrBits, t.acc_kb);
        f("acc_oy", 176, kSramAddrBits, t.acc_oy);
        f("acc_ox", 192, kSramAddrBits, t.acc_ox);
        f("inp_oy", 208, kSramAddrBits, t.inp_oy);
        f("inp_ox", 224, kSramAddrBits, t.inp_ox);
        f("inp_r", 240, kSramAddrBits, t.inp_r);
        f("inp_s", 256, kSramAddrBits, t.inp_s);
        f("inp_cb", 272, kSramAddrBits, t.inp_cb);
        f("wgt_kb", 288, kSramAddrBits, t.wgt_kb);
        f("wgt_r", 304, kSramAddrBits, t.wgt_r);
        f("wgt_s", 320, kSramAddrBits, t.wgt_s);
        f("wgt_cb", 336, kSramAddrBits, t.wgt_cb);
    } else if constexpr (std::is_same_v<T, Drain>) {
        f("add", 8, 1, t.add);
        f("double_scale", 9, 1, t.double_scale);
        f("round_up", 10, 1, t.round_up);
        f("acc_base", 16, kSramAddrBits, t.acc_base);
        f("prm_base", 32, kPrmAddrBits, t.prm_base);
        f("n_kb", 48, kExtentBits, t.n_kb);
        f("n_y", 64, kExtentBits, t.n_y);
        f("n_x", 80, kExtentBits, t.n_x);
        f("acc_kb", 96, kSramAddrBits, t.acc_kb);
        f("acc_y", 112, kSramAddrBits, t.acc_y);
        f("acc_x", 128, kSramAddrBits, t.acc_x);
        f("acc_add", 144, kSramAddrBits, t.acc_add);
        f("dram_base", 160, kDramAddrBits, t.dram_base);
        f("dram_kb", 192, kDramAddrBits, t.dram_kb);
        f("dram_y", 224, kDramAddrBits, t.dram_y);
        f("dram_x", 256, kDramAddrBits, t.dram_x);
        f("dram_b", 288, kDramAddrBits, t.dram_b);
        f("zy", 320, 8, t.zy);
        f("act_min", 328, 8, t.act_min);
        f("act_max", 336, 8, t.act_max);
        f("add_shift", 344, kAddShiftBits, t.add_shift);
    }
}

std::vector<FieldInfo> fields_of(Opcode op) {
    std::vector<FieldInfo> out;
    auto collect = [&out](const char* name, unsigned lo, unsigned width, const auto&) {
        out.push_back({name, lo, width});
    };
    switch (op) {
        case Opcode::Load: { const Load l{}; visit_fields(l, collect); break; }
        case Opcode::Gemm: { const Gemm g{}; visit_fields(g, collect); break; }
        case Opcode::Drain: { const Drain d{}; visit_fields(d, collect); break; }
        case Opcode::Finish: break;
    }
    return out;
}

void encode_program(std::span<const Insn> program, uint8_t* dst) {
    for (size_t k = 0; k < program.size(); ++k) {
        const InsnWord word = encode(program[k]);
        std::memcpy(dst + k * kInsnBytes, word.data(), word.size());
    }
}

InsnWord encode(const Insn& insn) {
    InsnWord w{};
    std::visit(
        [&w](const auto& t) {
            using T = std::decay_t<decltype(t)>;
            Opcode op = Opcode::Finish;
            if constexpr (std::is_same_v<T, Load>) op = Opcode::Load;
            if constexpr (std::is_same_v<T, Gemm>) op = Opcode::Gemm;
            if constexpr (std::is_same_v<T, Drain>) op = Opcode::Drain;
            set_bits(w, kOpcodeLo, kOpcodeBits, static_cast<uint64_t>(op));
            if constexpr (!std::is_same_v<T, Finish>) {
                visit_fields(t, [&w](const char*, unsigned lo, unsigned width, const auto& m) {
                    set_bits(w, lo, width, to_bits(m));
                });
            }
        },
        insn);
    return w;
}

namespace {

template <typename T>
T decode_fields(std::span<const uint8_t, kInsnBytes> w) {
    T t{};
    visit_fields(t, [&w](const char*, unsigned lo, unsigned width, auto& m) {
        m = from_bits<std::remove_reference_t<decltype(m)>>(get_bits(w, lo, width));
    });
    return t;
}

}  // namespace

Decoded decode(std::span<const uint8_t, kInsnBytes> word, const HwParams& hw) {
    Decoded d;
    switch (static_cast<Opcode>(get_bits(word, kOpcodeLo, kOpcodeBits))) {
        case Opcode::Load: d.insn = decode_fields<Load>(word); break;
        case Opcode::Gemm: d.insn = decode_fields<Gemm>(word); break;
        case Opcode::Drain: d.insn = decode_fields<Drain>(word); break;
        case Opcode::Finish: d.insn = Finish{}; break;
        default: d.error = ErrorCode::IllegalInstruction; return d;
    }
    // Reserved bits must be zero: the word must be exactly what its fields encode.
    const InsnWord again = encode(d.insn);
    if (!std::equal(again.begin(), again.end(), word.begin())) {
        d.error = ErrorCode::IllegalInstruction;
        return d;
    }
    d.error = check(d.insn, hw);
    return d;
}

Tokens tokens_of(const Insn& insn) {
    return std::visit(
        [](const auto& t) -> Tokens {
            if constexpr (std::is_same_v<std::decay_t<decltype(t)>, Finish>) {
                return {};
            } else {
                return t.tokens;
            }
        },
        insn);
}

std::optional<Unit> unit_of(const Insn& insn) {
    if (std::holds_alternative<Load>(insn)) return Unit::Load;
    if (std::holds_alternative<Gemm>(insn)) return Unit::Gemm;
    if (std::holds_alternative<Drain>(insn)) return Unit::Drain;
    return std::nullopt;
}

const char* unit_name(Unit u) {
    constexpr const char* kNames[kUnits] = {"LOAD", "GEMM", "DRAIN"};  // by Unit
    return static_cast<size_t>(u) < kUnits ? kNames[static_cast<size_t>(u)] : "?";
}

uint64_t gemm_steps(const Gemm& g) {
    return saturating_product<uint64_t>({g.n_kb, g.n_oy, g.n_ox, g.n_r, g.n_s, g.n_cb});
}

uint64_t drain_entries(const Drain& d) {
    return saturating_product<uint64_t>({d.n_kb, d.n_y, d.n_x});
}

uint64_t drain_bytes(const Drain& d, const HwParams& hw) {
    return saturating_product<uint64_t>({drain_entries(d), hw.batch, hw.block_out});
}

uint32_t drain_reads_per_beat(const Drain& d, const HwParams& hw) {
    if (d.add) return 2;
    return d.double_scale ? hw.beat_bytes : 1;
}

namespace {

// Where HwParams holds a LOAD destination's entry size and depth; none for a buffer
// code the ISA does not have.
struct BufferFields {
    uint32_t HwParams::*entry_bytes = nullptr;
    uint32_t HwParams::*depth = nullptr;
};
BufferFields buffer_fields(Buffer b) {
    switch (b) {
        case Buffer::Inp: return {&HwParams::inp_entry_bytes, &HwParams::inp_depth};
        case Buffer::Wgt: return {&HwParams::wgt_entry_bytes, &HwParams::wgt_depth};
        case Buffer::Prm: return {&HwParams::prm_entry_bytes, &HwParams::prm_depth};
    }
    return {};
}

}  // namespace

uint32_t entry_bytes(Buffer b, const HwParams& hw) {
    const BufferFields f = buffer_fields(b);
    return f.entry_bytes ? hw.*f.entry_bytes : 0;
}

uint32_t depth_of(Buffer b, const HwParams& hw) {
    const BufferFields f = buffer_fields(b);
    return f.depth ? hw.*f.depth : 0;
}

uint32_t load_x_stride(const Load& l, const HwParams& hw) {
    return l.dram_x_stride != 0 ? l.dram_x_stride : entry_bytes(l.buffer, hw);
}

uint64_t load_padded_rows(const Load& l) { return uint64_t{l.pad_top} + l.y_size + l.pad_bottom; }

uint64_t load_padded_width(const Load& l) { return uint64_t{l.pad_left} + l.x_size + l.pad_right; }

uint64_t load_row_entries(const Load& l) {
    const uint64_t padded = load_padded_width(l);
    return l.pack_taps == 0 ? padded : padded - (l.pack_taps - 1);
}

bool load_row_contiguous(const Load& l, const HwParams& hw) {
    return load_x_stride(l, hw) == entry_bytes(l.buffer, hw);
}

const char* error_name(ErrorCode e) {
    switch (e) {
        case ErrorCode::Ok: return "OK";
        case ErrorCode::IllegalInstruction: return "ILLEGAL_INSTRUCTION";
        case ErrorCode::SramRange: return "SRAM_RANGE";
        case ErrorCode::BusError: return "BUS_ERROR";
        case ErrorCode::TokenOverflow: return "TOKEN_OVERFLOW";
        case ErrorCode::Deadlock: return "DEADLOCK";
        case ErrorCode::NoFinish: return "NO_FINISH";
    }
    return "UNKNOWN";
}

std::string error_names(uint32_t mask) {
    if (mask == 0) return "OK";
    std::string s;
    for (uint32_t kind = 1; kind <= kErrorKinds; ++kind) {
        if (mask & error_bit(static_cast<ErrorCode>(kind))) {
            if (!s.empty()) s += '+';
            s += error_name(static_cast<ErrorCode>(kind));
        }
    }
    const uint32_t unknown = mask & ~((1u << kErrorKinds) - 1);
    if (unknown) s += fmt::format("{}UNKNOWN(0x{:x})", s.empty() ? "" : "+", unknown);
    return s;
}

std::string to_string(const Insn& insn) {
    return std::visit(
        [](const auto& t) -> std::string {
            using T = std::decay_t<decltype(t)>;
            if constexpr (std::is_same_v<T, Finish>) {
                return "FINISH";
            } else {
                std::string s = std::is_same_v<T, Load> ? "LOAD" : std::is_same_v<T, Gemm> ? "GEMM" : "DRAIN";
                visit_fields(t, [&s](const char* name, unsigned, unsigned, const auto& m) {
                    const uint64_t v = to_bits(m);
                    if (v != 0) s += fmt::format(" {}={}", name, v);
                });
                return s;
            }
        },
        insn);
}

}  // namespace accel::isa
