// The instruction encoding against docs/isa.md: the field tables written out again here
// from the docs, encode/decode round trips, reserved bits, and one test per check rule.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"

namespace accel::isa {
namespace {

const HwParams& hw() {
    static const HwParams p = default_hw_params();
    return p;
}

// ---- the tables of docs/isa.md, copied by hand ------------------------------------------

struct DocField {
    std::string name;
    unsigned lo, width;
    bool operator==(const DocField&) const = default;
};

const std::vector<DocField> kHeader = {
    {"pop_prev", 4, 1}, {"pop_next", 5, 1}, {"push_prev", 6, 1}, {"push_next", 7, 1}};

std::vector<DocField> doc_fields(Opcode op) {
    std::vector<DocField> f = op == Opcode::Finish ? std::vector<DocField>{} : kHeader;
    std::vector<DocField> body;
    switch (op) {
        case Opcode::Load:
            body = {{"buffer", 8, 2},           {"sram_base", 16, 16},      {"dram_base", 32, 32},
                    {"z_size", 64, 16},         {"y_size", 80, 16},         {"x_size", 96, 16},
                    {"dram_z_stride", 128, 32}, {"dram_y_stride", 160, 32}, {"pad_top", 192, 8},
                    {"pad_bottom", 200, 8},     {"pad_left", 208, 8},       {"pad_right", 216, 8},
                    {"pad_value", 224, 8},      {"dram_x_stride", 256, 32}, {"pack_taps", 288, 8},
                    {"pack_bytes", 296, 8}};
            break;
        case Opcode::Gemm:
            body = {{"init", 8, 1},       {"acc_base", 16, 16}, {"inp_base", 32, 16},
                    {"wgt_base", 48, 16}, {"prm_base", 64, 8},  {"n_kb", 80, 16},
                    {"n_oy", 96, 16},     {"n_ox", 112, 16},    {"n_r", 128, 8},
                    {"n_s", 136, 8},      {"n_cb", 144, 16},    {"acc_kb", 160, 16},
                    {"acc_oy", 176, 16},  {"acc_ox", 192, 16},  {"inp_oy", 208, 16},
                    {"inp_ox", 224, 16},  {"inp_r", 240, 16},   {"inp_s", 256, 16},
                    {"inp_cb", 272, 16},  {"wgt_kb", 288, 16},  {"wgt_r", 304, 16},
                    {"wgt_s", 320, 16},   {"wgt_cb", 336, 16}};
            break;
        case Opcode::Drain:
            body = {{"add", 8, 1},        {"double_scale", 9, 1}, {"round_up", 10, 1},
                    {"acc_base", 16, 16},
                    {"prm_base", 32, 8},
                    {"n_kb", 48, 16},     {"n_y", 64, 16},      {"n_x", 80, 16},
                    {"acc_kb", 96, 16},   {"acc_y", 112, 16},   {"acc_x", 128, 16},
                    {"acc_add", 144, 16}, {"dram_base", 160, 32}, {"dram_kb", 192, 32},
                    {"dram_y", 224, 32},  {"dram_x", 256, 32},  {"dram_b", 288, 32},
                    {"zy", 320, 8},       {"act_min", 328, 8},  {"act_max", 336, 8},
                    {"add_shift", 344, 5}};
            break;
        case Opcode::Finish: break;
    }
    f.insert(f.end(), body.begin(), body.end());
    return f;
}

const Opcode kOpcodes[] = {Opcode::Load, Opcode::Gemm, Opcode::Drain, Opcode::Finish};

uint64_t bits_of(const InsnWord& w, unsigned lo, unsigned width) {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i)
        v |= uint64_t{(w[(lo + i) / 8] >> ((lo + i) % 8)) & 1u} << i;
    return v;
}

TEST(IsaFields, FieldsOfMatchesTheDocsTables) {
    for (Opcode op : kOpcodes) {
        std::vector<DocField> got;
        for (const FieldInfo& f : fields_of(op)) got.push_back({f.name, f.lo, f.width});
        EXPECT_EQ(got, doc_fields(op)) << "opcode " << static_cast<int>(op);
    }
}

TEST(IsaFields, SpotValues) {
    auto find = [](Opcode op, const std::string& name) {
        for (const FieldInfo& f : fields_of(op)) {
            if (name == f.name) return std::pair{f.lo, f.width};
        }
        return std::pair{~0u, 0u};
    };
    EXPECT_EQ(find(Opcode::Gemm, "n_cb"), (std::pair{144u, 16u}));
    EXPECT_EQ(find(Opcode::Gemm, "prm_base"), (std::pair{64u, 8u}));
    EXPECT_EQ(find(Opcode::Load, "dram_base"), (std::pair{32u, 32u}));
    EXPECT_EQ(find(Opcode::Load, "pad_value"), (std::pair{224u, 8u}));
    EXPECT_EQ(find(Opcode::Drain, "dram_b"), (std::pair{288u, 32u}));
    EXPECT_EQ(find(Opcode::Drain, "act_max"), (std::pair{336u, 8u}));
    EXPECT_TRUE(fields_of(Opcode::Finish).empty());
}

TEST(IsaFields, EncodePutsValuesWhereTheDocsSay) {
    Gemm g;
    g.n_cb = 0xBEEF;
    g.wgt_cb = 0x1234;
    g.tokens.push_next = true;
    const InsnWord w = encode(g);
    EXPECT_EQ(bits_of(w, 0, 4), 2u);
    EXPECT_EQ(bits_of(w, 7, 1), 1u);
    EXPECT_EQ(bits_of(w, 144, 16), 0xBEEFu);
    EXPECT_EQ(bits_of(w, 336, 16), 0x1234u);
    Drain d;
    d.act_min = -3;
    EXPECT_EQ(bits_of(encode(d), 328, 8), 0xFDu);  // int8 fields are two's complement
    EXPECT_EQ(bits_of(encode(Finish{}), 0, 4), 4u);
}

// ---- round trips ----------------------------------------------------------------------

auto tie_of(const Tokens& t) {
    return std::tie(t.pop_prev, t.pop_next, t.push_prev, t.push_next);
}
bool same(const Load& a, const Load& b) {
    return tie_of(a.tokens) == tie_of(b.tokens) &&
           std::tie(a.buffer, a.sram_base, a.dram_base, a.z_size, a.y_size, a.x_size,
                    a.dram_z_stride, a.dram_y_stride, a.dram_x_stride, a.pad_top, a.pad_bottom,
                    a.pad_left, a.pad_right, a.pad_value) ==
               std::tie(b.buffer, b.sram_base, b.dram_base, b.z_size, b.y_size, b.x_size,
                        b.dram_z_stride, b.dram_y_stride, b.dram_x_stride, b.pad_top, b.pad_bottom,
                        b.pad_left, b.pad_right, b.pad_value);
}
bool same(const Gemm& a, const Gemm& b) {
    return tie_of(a.tokens) == tie_of(b.tokens) &&
           std::tie(a.init, a.acc_base, a.inp_base, a.wgt_base, a.prm_base, a.n_kb, a.n_oy, a.n_ox,
                    a.n_r, a.n_s, a.n_cb, a.acc_kb, a.acc_oy, a.acc_ox, a.inp_oy, a.inp_ox, a.inp_r,
                    a.inp_s, a.inp_cb, a.wgt_kb, a.wgt_r, a.wgt_s, a.wgt_cb) ==
               std::tie(b.init, b.acc_base, b.inp_base, b.wgt_base, b.prm_base, b.n_kb, b.n_oy,
                        b.n_ox, b.n_r, b.n_s, b.n_cb, b.acc_kb, b.acc_oy, b.acc_ox, b.inp_oy,
                        b.inp_ox, b.inp_r, b.inp_s, b.inp_cb, b.wgt_kb, b.wgt_r, b.wgt_s, b.wgt_cb);
}
bool same(const Drain& a, const Drain& b) {
    return tie_of(a.tokens) == tie_of(b.tokens) &&
           std::tie(a.acc_base, a.prm_base, a.n_kb, a.n_y, a.n_x, a.acc_kb, a.acc_y, a.acc_x,
                    a.dram_base, a.dram_kb, a.dram_y, a.dram_x, a.dram_b, a.zy, a.act_min,
                    a.act_max) == std::tie(b.acc_base, b.prm_base, b.n_kb, b.n_y, b.n_x, b.acc_kb,
                                           b.acc_y, b.acc_x, b.dram_base, b.dram_kb, b.dram_y,
                                           b.dram_x, b.dram_b, b.zy, b.act_min, b.act_max);
}

class Rand {
public:
    explicit Rand(uint32_t seed) : rng_(seed) {}
    uint32_t bits(unsigned width) {
        return static_cast<uint32_t>(rng_() & ((uint64_t{1} << width) - 1));
    }
    bool flag() { return bits(1) != 0; }
    int8_t i8() { return static_cast<int8_t>(bits(8)); }
    Tokens tokens() { return {flag(), flag(), flag(), flag()}; }

private:
    std::mt19937_64 rng_;
};

Load random_load(Rand& r) {
    Load l;
    l.tokens = r.tokens();
    l.buffer = static_cast<Buffer>(r.bits(2));
    l.sram_base = r.bits(16), l.dram_base = r.bits(32);
    l.z_size = r.bits(16), l.y_size = r.bits(16), l.x_size = r.bits(16);
    l.dram_z_stride = r.bits(32), l.dram_y_stride = r.bits(32), l.dram_x_stride = r.bits(32);
    l.pad_top = r.bits(8), l.pad_bottom = r.bits(8), l.pad_left = r.bits(8),
    l.pad_right = r.bits(8);
    l.pad_value = r.i8();
    return l;
}

Gemm random_gemm(Rand& r) {
    Gemm g;
    g.tokens = r.tokens();
    g.init = r.flag();
    g.acc_base = r.bits(16), g.inp_base = r.bits(16), g.wgt_base = r.bits(16),
    g.prm_base = r.bits(8);
    g.n_kb = r.bits(16), g.n_oy = r.bits(16), g.n_ox = r.bits(16);
    g.n_r = r.bits(8), g.n_s = r.bits(8), g.n_cb = r.bits(16);
    for (uint32_t* f : {&g.acc_kb, &g.acc_oy, &g.acc_ox, &g.inp_oy, &g.inp_ox, &g.inp_r, &g.inp_s,
                        &g.inp_cb, &g.wgt_kb, &g.wgt_r, &g.wgt_s, &g.wgt_cb}) {
        *f = r.bits(16);
    }
    return g;
}

Drain random_drain(Rand& r) {
    Drain d;
    d.tokens = r.tokens();
    d.acc_base = r.bits(16), d.prm_base = r.bits(8);
    d.n_kb = r.bits(16), d.n_y = r.bits(16), d.n_x = r.bits(16);
    d.acc_kb = r.bits(16), d.acc_y = r.bits(16), d.acc_x = r.bits(16);
    d.dram_base = r.bits(32), d.dram_kb = r.bits(32), d.dram_y = r.bits(32);
    d.dram_x = r.bits(32), d.dram_b = r.bits(32);
    d.zy = r.i8(), d.act_min = r.i8(), d.act_max = r.i8();
    return d;
}

// decode(encode(x)) gives x back, whatever the checks then say about it.
template <typename T, typename Gen>
void round_trip(Gen gen, uint32_t seed) {
    Rand r(seed);
    for (int i = 0; i < 1000; ++i) {
        const T original = gen(r);
        const InsnWord w = encode(original);
        const Decoded d = decode(w, hw());
        const T* back = std::get_if<T>(&d.insn);
        ASSERT_NE(back, nullptr) << to_string(original);
        EXPECT_TRUE(same(original, *back)) << to_string(original) << "\n" << to_string(d.insn);
        EXPECT_EQ(encode(*back), w);
    }
}

TEST(IsaRoundTrip, Load) {
    round_trip<Load>(random_load, 1);
}
TEST(IsaRoundTrip, Gemm) {
    round_trip<Gemm>(random_gemm, 2);
}
TEST(IsaRoundTrip, Drain) {
    round_trip<Drain>(random_drain, 3);
}

TEST(IsaRoundTrip, Finish) {
    const Decoded d = decode(encode(Finish{}), hw());
    EXPECT_EQ(d.error, ErrorCode::Ok);
    EXPECT_TRUE(std::holds_alternative<Finish>(d.insn));
}

// ---- reserved bits and opcodes ------------------------------------------------------------

Insn default_of(Opcode op) {
    switch (op) {
        case Opcode::Load: return Load{};
        case Opcode::Gemm: return Gemm{};
        case Opcode::Drain: return Drain{};
        case Opcode::Finish: break;
    }
    return Finish{};
}

TEST(IsaDecode, EveryReservedBitSetIsIllegal) {
    for (Opcode op : kOpcodes) {
        std::set<unsigned> owned{0, 1, 2, 3};
        for (const DocField& f : doc_fields(op)) {
            for (unsigned b = f.lo; b < f.lo + f.width; ++b) owned.insert(b);
        }
        const InsnWord valid = encode(default_of(op));
        ASSERT_EQ(decode(valid, hw()).error, ErrorCode::Ok);
        for (unsigned bit = 0; bit < kInsnBytes * 8; ++bit) {
            if (owned.count(bit)) continue;
            InsnWord w = valid;
            w[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
            EXPECT_EQ(decode(w, hw()).error, ErrorCode::IllegalInstruction)
                << "opcode " << static_cast<int>(op) << " bit " << bit;
        }
    }
}

TEST(IsaDecode, UnknownOpcodesAreIllegal) {
    for (unsigned op : {0u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u}) {
        InsnWord w{};
        w[0] = static_cast<uint8_t>(op);
        EXPECT_EQ(decode(w, hw()).error, ErrorCode::IllegalInstruction) << op;
    }
}

TEST(IsaDecode, FinishTakesNoTokenFlags) {
    for (unsigned bit = 4; bit < 8; ++bit) {
        InsnWord w = encode(Finish{});
        w[0] |= static_cast<uint8_t>(1u << bit);
        EXPECT_EQ(decode(w, hw()).error, ErrorCode::IllegalInstruction) << bit;
    }
}

TEST(IsaDecode, ErrorNames) {
    EXPECT_EQ(error_names(0), "OK");
    EXPECT_EQ(error_names(error_bit(ErrorCode::BusError) | error_bit(ErrorCode::Deadlock)),
              "BUS_ERROR+DEADLOCK");
    EXPECT_EQ(error_bit(ErrorCode::NoFinish), 1u << 5);
}

// ---- the check rules (docs/isa.md "Errors"), one test each ---------------------------------

constexpr ErrorCode kOk = ErrorCode::Ok;
constexpr ErrorCode kIllegal = ErrorCode::IllegalInstruction;
constexpr ErrorCode kRange = ErrorCode::SramRange;

template <typename T, typename F>
ErrorCode check_with(F&& edit) {
    T t;
    edit(t);
    return check(t, hw());
}

TEST(IsaCheck, DefaultsOfEveryOpcodeAreLegal) {
    for (Opcode op : kOpcodes) EXPECT_EQ(check(default_of(op), hw()), kOk);
}

TEST(IsaCheck, LoadHasNoPreviousUnit) {
    EXPECT_EQ(check_with<Load>([](Load& l) { l.tokens.pop_prev = true; }), kIllegal);
    EXPECT_EQ(check_with<Load>([](Load& l) { l.tokens.push_prev = true; }), kIllegal);
    EXPECT_EQ(check_with<Load>([](Load& l) { l.tokens.pop_next = l.tokens.push_next = true; }),
              kOk);
}

TEST(IsaCheck, DrainHasNoNextUnit) {
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.tokens.pop_next = true; }), kIllegal);
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.tokens.push_next = true; }), kIllegal);
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.tokens.pop_prev = d.tokens.push_prev = true; }),
              kOk);
}

TEST(IsaCheck, GemmTakesAllFourFlags) {
    EXPECT_EQ(check_with<Gemm>([](Gemm& g) { g.tokens = {true, true, true, true}; }), kOk);
}

TEST(IsaCheck, LoadBufferThreeIsIllegal) {
    EXPECT_EQ(check_with<Load>([](Load& l) { l.buffer = static_cast<Buffer>(3); }), kIllegal);
    EXPECT_EQ(check_with<Load>([](Load& l) { l.buffer = Buffer::Prm; }), kOk);
}

TEST(IsaCheck, LoadZeroExtentsAreIllegal) {
    EXPECT_EQ(check_with<Load>([](Load& l) { l.z_size = 0; }), kIllegal);
    EXPECT_EQ(check_with<Load>([](Load& l) { l.y_size = 0; }), kIllegal);
    EXPECT_EQ(check_with<Load>([](Load& l) { l.x_size = 0; }), kIllegal);
}

TEST(IsaCheck, PaddingOnlyForInp) {
    for (Buffer b : {Buffer::Wgt, Buffer::Prm}) {
        for (uint32_t Load::*pad : {&Load::pad_top, &Load::pad_bottom, &Load::pad_left,
                                    &Load::pad_right}) {
            EXPECT_EQ(check_with<Load>([b, pad](Load& l) {
                          l.buffer = b;
                          l.*pad = 1;
                      }),
                      kIllegal);
        }
    }
    EXPECT_EQ(
        check_with<Load>([](Load& l) { l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = 2; }),
        kOk);
}

TEST(IsaCheck, PadValueOnlyForInp) {
    EXPECT_EQ(check_with<Load>([](Load& l) {
                  l.buffer = Buffer::Wgt;
                  l.pad_value = 1;
              }),
              kIllegal);
    EXPECT_EQ(check_with<Load>([](Load& l) {
                  l.buffer = Buffer::Prm;
                  l.pad_value = -1;
              }),
              kIllegal);
    EXPECT_EQ(check_with<Load>([](Load& l) { l.pad_value = -128; }), kOk);
}

TEST(IsaCheck, PackingOnlyForInpWithinTheBlockAndTheRow) {
    const uint32_t bi = hw().block_in;
    auto packed = [](uint32_t taps, uint32_t bytes) {
        return [taps, bytes](Load& l) {
            l.x_size = 4;
            l.pack_taps = taps, l.pack_bytes = bytes;
        };
    };
    EXPECT_EQ(check_with<Load>(packed(2, bi / 2)), kOk);
    EXPECT_EQ(check_with<Load>(packed(1, 1)), kOk);
    EXPECT_EQ(check_with<Load>(packed(2, bi / 2 + 1)), kIllegal);  // past the block
    EXPECT_EQ(check_with<Load>(packed(2, 0)), kIllegal);           // no bytes
    EXPECT_EQ(check_with<Load>(packed(0, 1)), kIllegal);           // bytes without taps
    EXPECT_EQ(check_with<Load>(packed(5, 1)), kIllegal);           // more taps than the row
    EXPECT_EQ(check_with<Load>([&](Load& l) {
                  packed(5, 1)(l);
                  l.pad_right = 1;  // the padded row is 5 entries: one written
              }),
              kOk);
    EXPECT_EQ(check_with<Load>([&](Load& l) {
                  packed(2, 1)(l);
                  l.buffer = Buffer::Wgt;
              }),
              kIllegal);
}

TEST(IsaCheck, PackingWritesFewerEntriesPerRow) {
    // A row of 5 entries packed 3 at a time writes 3: the last rows may end at the top.
    const uint32_t rows = hw().inp_depth / 3;
    auto fill = [rows](uint32_t extra) {
        return [rows, extra](Load& l) {
            l.x_size = 5, l.y_size = rows, l.pack_taps = 3, l.pack_bytes = 1;
            l.sram_base = hw().inp_depth - 3 * rows + extra;
        };
    };
    EXPECT_EQ(check_with<Load>(fill(0)), kOk);
    EXPECT_EQ(check_with<Load>(fill(1)), kRange);
}

TEST(IsaCheck, LoadDramAddressAndStridesMultiplesOfTheBeat) {
    const uint32_t beat = hw().beat_bytes;
    ASSERT_GT(beat, 1u);
    EXPECT_EQ(check_with<Load>([&](Load& l) { l.dram_base = beat / 2; }), kIllegal);
    EXPECT_EQ(check_with<Load>([&](Load& l) { l.dram_z_stride = beat + 1; }), kIllegal);
    EXPECT_EQ(check_with<Load>([&](Load& l) { l.dram_y_stride = 1; }), kIllegal);
    EXPECT_EQ(check_with<Load>([&](Load& l) { l.dram_x_stride = beat / 2; }), kIllegal);
    EXPECT_EQ(check_with<Load>([&](Load& l) {
                  l.dram_base = 3 * beat, l.dram_z_stride = 5 * beat, l.dram_y_stride = beat;
                  l.dram_x_stride = 7 * beat;
              }),
              kOk);
}

TEST(IsaCheck, GemmZeroExtentsAreIllegal) {
    for (uint32_t Gemm::*f :
         {&Gemm::n_kb, &Gemm::n_oy, &Gemm::n_ox, &Gemm::n_r, &Gemm::n_s, &Gemm::n_cb}) {
        EXPECT_EQ(check_with<Gemm>([f](Gemm& g) { g.*f = 0; }), kIllegal);
    }
}

TEST(IsaCheck, DrainAddAndDoubleScaleExcludeEachOther) {
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.add = d.double_scale = true; }), kIllegal);
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.double_scale = true; }), kOk);
}

TEST(IsaCheck, DrainRoundUpIsNotADoubleScaleMode) {
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.round_up = d.double_scale = true; }), kIllegal);
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.round_up = true; }), kOk);
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.round_up = d.add = true; }), kOk);
}

TEST(IsaCheck, DrainZeroExtentsAreIllegal) {
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.n_kb = 0; }), kIllegal);
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.n_y = 0; }), kIllegal);
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.n_x = 0; }), kIllegal);
}

TEST(IsaCheck, DrainActMinAboveActMaxIsIllegal) {
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.act_min = 5, d.act_max = 4; }), kIllegal);
    EXPECT_EQ(check_with<Drain>([](Drain& d) { d.act_min = 5, d.act_max = 5; }), kOk);
}

TEST(IsaCheck, DrainDramAddressAndStridesMultiplesOfTheBeat) {
    const uint32_t beat = hw().beat_bytes;
    for (uint32_t Drain::*f :
         {&Drain::dram_base, &Drain::dram_kb, &Drain::dram_y, &Drain::dram_x, &Drain::dram_b}) {
        EXPECT_EQ(check_with<Drain>([&](Drain& d) { d.*f = beat / 2; }), kIllegal);
        EXPECT_EQ(check_with<Drain>([&](Drain& d) { d.*f = 7 * beat; }), kOk);
    }
}

// LOAD writes sram_base .. sram_base + z*(pt+y+pb)*(pl+x+pr) - 1.
TEST(IsaCheck, LoadSramRangeAtDepthForEachBuffer) {
    const std::pair<Buffer, uint32_t> buffers[] = {{Buffer::Inp, hw().inp_depth},
                                                   {Buffer::Wgt, hw().wgt_depth},
                                                   {Buffer::Prm, hw().prm_depth}};
    for (const auto& [buf, depth] : buffers) {
        auto at = [buf = buf](uint32_t base, uint32_t z, uint32_t y, uint32_t x) {
            return check_with<Load>([&](Load& l) {
                l.buffer = buf, l.sram_base = base, l.z_size = z, l.y_size = y, l.x_size = x;
            });
        };
        EXPECT_EQ(at(depth - 1, 1, 1, 1), kOk);
        EXPECT_EQ(at(depth, 1, 1, 1), kRange);
        EXPECT_EQ(at(depth - 12, 2, 2, 3), kOk);     // last entry depth-1
        EXPECT_EQ(at(depth - 11, 2, 2, 3), kRange);  // last entry depth
    }
}

TEST(IsaCheck, LoadSramRangeCountsPadding) {
    const uint32_t depth = hw().inp_depth;
    auto padded = [&](uint32_t base, uint32_t pad_right) {
        return check_with<Load>([&](Load& l) {
            l.sram_base = base, l.y_size = 1, l.x_size = 1;
            l.pad_top = 1, l.pad_bottom = 0, l.pad_left = 1, l.pad_right = pad_right;
        });
    };
    EXPECT_EQ(padded(depth - 6, 1), kOk);  // 2 rows x 3 entries
    EXPECT_EQ(padded(depth - 6, 2), kRange);
}

// GEMM's nests, each pushed to exactly depth-1 and then one past.
TEST(IsaCheck, GemmSramRangeAtDepthForEachBuffer) {
    const HwParams& p = hw();
    struct Nest {
        const char* buffer;
        uint32_t depth;
        uint32_t last;  // the nest's last entry, counted from its base
        void (*set)(Gemm& g, uint32_t base);
    };
    const Nest nests[] = {
        {"acc", p.acc_depth, 3 + 1,
         [](Gemm& g, uint32_t base) {
             g.acc_base = base, g.n_kb = 2, g.acc_kb = 3, g.n_ox = 2, g.acc_ox = 1;
         }},
        {"inp", p.inp_depth, 4 + 2 + 10,
         [](Gemm& g, uint32_t base) {
             g.inp_base = base, g.n_oy = 2, g.inp_oy = 4, g.n_r = 3, g.inp_r = 1, g.n_cb = 2,
             g.inp_cb = 10;
         }},
        {"wgt", p.wgt_depth, 9 + 4 + 1,
         [](Gemm& g, uint32_t base) {
             g.wgt_base = base, g.n_kb = 2, g.wgt_kb = 9, g.n_s = 3, g.wgt_s = 2, g.n_cb = 2,
             g.wgt_cb = 1;
         }},
    };
    for (const Nest& n : nests) {
        auto at = [&n](uint32_t base) {
            return check_with<Gemm>([&](Gemm& g) { n.set(g, base); });
        };
        EXPECT_EQ(at(n.depth - 1 - n.last), kOk) << n.buffer;
        EXPECT_EQ(at(n.depth - n.last), kRange) << n.buffer;
    }
}

TEST(IsaCheck, GemmChecksPrmWithOrWithoutInit) {
    const uint32_t depth = hw().prm_depth;
    for (bool init : {false, true}) {
        EXPECT_EQ(
            check_with<Gemm>([&](Gemm& g) { g.init = init, g.prm_base = depth - 2, g.n_kb = 2; }),
            kOk);
        EXPECT_EQ(
            check_with<Gemm>([&](Gemm& g) { g.init = init, g.prm_base = depth - 1, g.n_kb = 2; }),
            kRange);
    }
}

TEST(IsaCheck, DrainSramRangeForAccAndPrm) {
    const HwParams& p = hw();
    auto acc = [&](uint32_t base) {
        return check_with<Drain>(
            [&](Drain& d) { d.acc_base = base, d.n_y = 3, d.acc_y = 2, d.n_x = 2, d.acc_x = 1; });
    };
    EXPECT_EQ(acc(p.acc_depth - 6), kOk);
    EXPECT_EQ(acc(p.acc_depth - 5), kRange);
    EXPECT_EQ(check_with<Drain>([&](Drain& d) { d.prm_base = p.prm_depth - 3, d.n_kb = 3; }), kOk);
    EXPECT_EQ(check_with<Drain>([&](Drain& d) { d.prm_base = p.prm_depth - 2, d.n_kb = 3; }),
              kRange);
}

TEST(IsaCheck, IllegalWinsOverRange) {
    // An instruction that breaks both kinds of rule is reported as illegal.
    EXPECT_EQ(check_with<Load>([](Load& l) { l.sram_base = 0xFFFF, l.z_size = 0; }), kIllegal);
}

TEST(IsaCheck, DecodeAppliesTheChecks) {
    Drain d;
    d.acc_base = hw().acc_depth;
    EXPECT_EQ(decode(encode(d), hw()).error, kRange);
    d.acc_base = 0;
    d.act_min = 1, d.act_max = 0;
    EXPECT_EQ(decode(encode(d), hw()).error, kIllegal);
}

// docs/isa.md "DRAIN": a PRM shift outside [-31, 30] acts as the nearest end, and the
// quant lane holds it as {round_up, left, amount, multiplier} (docs/architecture.md).
TEST(IsaPrm, ShiftsClampAndBecomeSignAndMagnitude) {
    EXPECT_EQ(prm_shift(-31), -31);
    EXPECT_EQ(prm_shift(-32), -31);
    EXPECT_EQ(prm_shift(INT32_MIN), -31);
    EXPECT_EQ(prm_shift(30), 30);
    EXPECT_EQ(prm_shift(31), 30);
    EXPECT_EQ(prm_shift(INT32_MAX), 30);
    const uint64_t m = 0x89ABCDEFu;
    EXPECT_EQ(quant_lane(static_cast<int32_t>(m), 0), m);
    EXPECT_EQ(quant_lane(static_cast<int32_t>(m), -5), m | uint64_t{5} << 32);
    EXPECT_EQ(quant_lane(static_cast<int32_t>(m), -1000), m | uint64_t{31} << 32);
    EXPECT_EQ(quant_lane(static_cast<int32_t>(m), 3), m | uint64_t{3} << 32 | uint64_t{1} << 37);
    EXPECT_EQ(quant_lane(static_cast<int32_t>(m), 1000),
              m | uint64_t{30} << 32 | uint64_t{1} << 37);
    EXPECT_EQ(quant_lane(static_cast<int32_t>(m), -5, true),
              m | uint64_t{5} << 32 | uint64_t{1} << 38);
    EXPECT_EQ(kQuantLaneBits, 39u);
}

}  // namespace
}  // namespace accel::isa
