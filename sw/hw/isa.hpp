// The instruction set of docs/isa.md: the one place in software where the encoding
// is written. Encoding, decoding and the static checks that fetch applies before it
// dispatches an instruction (shared by fsim; the RTL implements the same checks).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "hw/hw_params.hpp"
#include "hw/isa_fields.hpp"

namespace accel::isa {

constexpr size_t kInsnBytes = 64;
using InsnWord = std::array<uint8_t, kInsnBytes>;

enum class Opcode : uint8_t { Load = 1, Gemm = 2, Drain = 3, Finish = 4 };
enum class Buffer : uint8_t { Inp = 0, Wgt = 1, Prm = 2 };

// Error kinds. The device reports the set of kinds that occurred as a bit mask
// (bit = 1 << (kind - 1)): with that, the report is the same on every device however
// the units' timing interleaves (docs/isa.md, "Errors").
enum class ErrorCode : uint32_t {
    Ok = 0,
    IllegalInstruction = 1,
    SramRange = 2,
    BusError = 3,
    TokenOverflow = 4,
    Deadlock = 5,
    NoFinish = 6,
};
constexpr uint32_t kErrorKinds = 6;  // the kinds 1 .. kErrorKinds: the error mask's bits
static_assert(kErrorKinds == static_cast<uint32_t>(ErrorCode::NoFinish));
constexpr uint32_t error_bit(ErrorCode e) {
    return e == ErrorCode::Ok ? 0u : 1u << (static_cast<uint32_t>(e) - 1);
}
const char* error_name(ErrorCode e);
// "OK", or the names of the set bits joined by '+', e.g. "BUS_ERROR+DEADLOCK".
std::string error_names(uint32_t mask);

struct Tokens {
    bool pop_prev = false, pop_next = false, push_prev = false, push_next = false;
};

struct Load {
    Tokens tokens;
    Buffer buffer = Buffer::Inp;
    uint32_t sram_base = 0;
    uint32_t dram_base = 0;
    uint32_t z_size = 1, y_size = 1, x_size = 1;
    uint32_t dram_z_stride = 0, dram_y_stride = 0;
    uint32_t dram_x_stride = 0;  // 0: contiguous (entry bytes apart)
    uint32_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
    int8_t pad_value = 0;
    // Channel packing (INP only; docs/isa.md, LOAD): with pack_taps P > 0, each entry
    // written holds the first pack_bytes bytes (per image) of P consecutive entries of
    // the padded row, side by side; a row of W entries writes W - P + 1.
    uint32_t pack_taps = 0, pack_bytes = 0;
};

struct Gemm {
    Tokens tokens;
    bool init = false;
    uint32_t acc_base = 0, inp_base = 0, wgt_base = 0, prm_base = 0;
    uint32_t n_kb = 1, n_oy = 1, n_ox = 1, n_r = 1, n_s = 1, n_cb = 1;
    uint32_t acc_kb = 0, acc_oy = 0, acc_ox = 0;
    uint32_t inp_oy = 0, inp_ox = 0, inp_r = 0, inp_s = 0, inp_cb = 0;
    uint32_t wgt_kb = 0, wgt_r = 0, wgt_s = 0, wgt_cb = 0;
};

struct Drain {
    Tokens tokens;
    uint32_t acc_base = 0, prm_base = 0;
    uint32_t n_kb = 1, n_y = 1, n_x = 1;
    uint32_t acc_kb = 0, acc_y = 0, acc_x = 0;
    uint32_t dram_base = 0, dram_kb = 0, dram_y = 0, dram_x = 0, dram_b = 0;
    int8_t zy = 0, act_min = -128, act_max = 127;
    // Add mode (docs/isa.md, "DRAIN"): each output sums two entries, ACC[a] and
    // ACC[a + acc_add], each rescaled by its own PRM lane after a left shift.
    bool add = false;
    uint32_t acc_add = 0, add_shift = 0;
    // Double-scale mode: each channel's PRM multiplier and shift words hold the IEEE-754
    // bits of a double scale (low word, high word), applied as TFLite's reference
    // FULLY_CONNECTED does (ops/double_rounding.hpp). Not together with `add`.
    bool double_scale = false;
    // Every MBQM of the drain rounds its final shift's ties upward (ops/quant.hpp,
    // mbqm_up), as LiteRT's optimized kernels do. Not together with `double_scale`.
    bool round_up = false;
};

struct Finish {};

using Insn = std::variant<Load, Gemm, Drain, Finish>;

// A PRM entry's shift (docs/isa.md, "DRAIN") is an int32 with TFLite's meaning in
// [kPrmShiftMin, kPrmShiftMax]: positive shifts the accumulator left, negative shifts
// the product right. The table is data that fetch cannot check, so rather than an error
// any other value acts as the nearest end of that range.
constexpr int32_t kPrmShiftMin = -31, kPrmShiftMax = 30;
constexpr int32_t prm_shift(int32_t raw) { return std::clamp(raw, kPrmShiftMin, kPrmShiftMax); }

// The QUANT table keeps a PRM channel's multiplier and shift words unchanged, a 64-bit
// lane {shift, multiplier}: a double-scale DRAIN reads them as one double's bits. For
// the other modes the drain makes requant's lane of them, {round_up, left, amount,
// multiplier[31:0]} (docs/architecture.md): sign and magnitude, so that requant needs
// no negation: shift by `amount` left if `left` is set, else right; `round_up` is the
// DRAIN's, the final shift's ties upward.
constexpr unsigned kQuantWordLaneBits = 64;
constexpr unsigned kQuantAmountLo = 32, kQuantAmountBits = 5;
constexpr unsigned kQuantLeftBit = kQuantAmountLo + kQuantAmountBits;
constexpr unsigned kQuantRoundUpBit = kQuantLeftBit + 1;
constexpr unsigned kQuantLaneBits = kQuantRoundUpBit + 1;
static_assert(kPrmShiftMax < (1 << kQuantAmountBits) && -kPrmShiftMin < (1 << kQuantAmountBits));
constexpr uint64_t quant_lane(int32_t multiplier, int32_t shift, bool round_up = false) {
    const int32_t s = prm_shift(shift);
    const uint64_t left = s > 0 ? 1 : 0, amount = static_cast<uint64_t>(s > 0 ? s : -s);
    return uint64_t{round_up} << kQuantRoundUpBit | left << kQuantLeftBit |
           amount << kQuantAmountLo | static_cast<uint32_t>(multiplier);
}

InsnWord encode(const Insn& insn);

// A program's instructions encoded one after another from `dst`, which must hold
// program.size() * kInsnBytes bytes.
void encode_program(std::span<const Insn> program, uint8_t* dst);

struct Decoded {
    ErrorCode error = ErrorCode::Ok;  // IllegalInstruction or SramRange when not Ok
    Insn insn;
};

// Decodes and checks one instruction exactly as fetch does (docs/isa.md, "Errors").
Decoded decode(std::span<const uint8_t, kInsnBytes> word, const HwParams& hw);

// Checks a decoded instruction against the rules of docs/isa.md ("Errors"): Ok,
// IllegalInstruction or SramRange.
ErrorCode check(const Insn& insn, const HwParams& hw);

// The field layout of an opcode, for the RTL parameter generator and the docs.
struct FieldInfo {
    const char* name;
    unsigned lo, width;
};
std::vector<FieldInfo> fields_of(Opcode op);

// Token flags a unit may use: LOAD has no previous unit, DRAIN no next one.
Tokens tokens_of(const Insn& insn);

// The units that execute instructions, in pipeline order; FINISH runs on none.
enum class Unit : uint8_t { Load = 0, Gemm = 1, Drain = 2 };
constexpr size_t kUnits = 3;
std::optional<Unit> unit_of(const Insn& insn);
const char* unit_name(Unit u);  // "LOAD", "GEMM", "DRAIN"

// The four dependency-token queues between neighbouring units (docs/isa.md, "Common
// header"), and the flag of an instruction that names one.
enum class TokenQueue : uint8_t { Ld2Cp = 0, Cp2Ld = 1, Cp2Dr = 2, Dr2Cp = 3 };
constexpr size_t kTokenQueues = 4;
enum class TokenFlag : uint8_t { PopPrev = 0, PopNext = 1, PushPrev = 2, PushNext = 3 };

// The queue a flag of unit `u`'s instructions addresses: a unit pops what its neighbour
// pushed towards it and pushes towards its neighbour. None where the ISA makes the flag
// illegal (fetch rejects it): LOAD has no previous unit, DRAIN no next one.
constexpr std::optional<TokenQueue> token_queue(Unit u, TokenFlag f) {
    using Q = TokenQueue;
    constexpr std::optional<Q> kNone;
    const std::optional<Q> table[kUnits][4] = {
        // pop_prev, pop_next, push_prev, push_next
        {kNone, Q::Cp2Ld, kNone, Q::Ld2Cp},      // LOAD
        {Q::Ld2Cp, Q::Dr2Cp, Q::Cp2Ld, Q::Cp2Dr},  // GEMM
        {Q::Cp2Dr, kNone, Q::Dr2Cp, kNone},      // DRAIN
    };
    return table[static_cast<size_t>(u)][static_cast<size_t>(f)];
}

// A GEMM's reduction steps, one issue cycle each: the product of its six loop extents,
// saturating at UINT64_MAX (the fields allow products beyond 64 bits).
uint64_t gemm_steps(const Gemm& g);

// The ACC entries a DRAIN reads (one output entry each, batch x block_out int8 to DRAM)
// and the bytes it writes, saturating like gemm_steps.
uint64_t drain_entries(const Drain& d);
uint64_t drain_bytes(const Drain& d, const HwParams& hw);

// The ACC reads a DRAIN makes per AXI beat of output, a cycle each at least: two in add
// mode (both operands), beat_bytes in double-scale mode (its pipeline takes a lane a
// cycle, so the drain reads the beat again until the beat has had its cycles), else one.
uint32_t drain_reads_per_beat(const Drain& d, const HwParams& hw);

// The entry size and depth of the SRAM a LOAD writes.
uint32_t entry_bytes(Buffer b, const HwParams& hw);
uint32_t depth_of(Buffer b, const HwParams& hw);

// The DRAM bytes between consecutive entries of a LOAD's row: dram_x_stride, where 0
// means one entry. A row is contiguous, one run of bursts, when that is one entry;
// otherwise the load unit reads each entry as a burst of its own (docs/isa.md, LOAD).
uint32_t load_x_stride(const Load& l, const HwParams& hw);
bool load_row_contiguous(const Load& l, const HwParams& hw);

// A LOAD's padded rows per plane and entries per padded row (padding included), and the
// entries it writes per row: the padded width, less pack_taps - 1 when packing.
uint64_t load_padded_rows(const Load& l);
uint64_t load_padded_width(const Load& l);
uint64_t load_row_entries(const Load& l);

std::string to_string(const Insn& insn);

}  // namespace accel::isa
