// accel_insn_check: its verdict must be exactly accel::isa::decode(word, params).error
// (sw/hw/isa.cpp + isa_check.cpp) for every 512-bit word, for the default and the tiny
// hardware configs:
//   Ok -> neither output; IllegalInstruction -> illegal_o; SramRange -> range_error_o only.
//
// Words come from four sources: random fields with biased distributions; legal
// instructions with a loop nest's base moved so that its largest address lands just
// below / on / just above the buffer's end; legal instructions given exactly one illegal
// property (every reason of docs/isa.md "Errors", each counted); raw random words. And
// every single-bit flip of legal instructions of each opcode.
//
// The models' parameters come from the generated config packages (CMakeLists.txt); the
// bench reads them from the models (--public) and checks them against derive_params.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <memory>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Vaccel_insn_check.h"
#include "Vaccel_insn_check___024root.h"
#ifdef FETCH_PATH_TINY
#include "Vaccel_insn_check_tiny.h"
#include "Vaccel_insn_check_tiny___024root.h"
#endif
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"
#include "bench_util.hpp"
#include "shipped_hw.hpp"

namespace accel::bench {
namespace {

using isa::ErrorCode;
using isa::InsnWord;
using isa::Opcode;

// ---------------------------------------------------------------- word access

uint64_t get_field(const InsnWord& w, unsigned lo, unsigned width) {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) v |= uint64_t{(w[(lo + i) / 8] >> ((lo + i) % 8)) & 1u} << i;
    return v;
}

void set_field(InsnWord& w, unsigned lo, unsigned width, uint64_t v) {
    for (unsigned i = 0; i < width; ++i) {
        const unsigned b = lo + i;
        w[b / 8] = static_cast<uint8_t>((w[b / 8] & ~(1u << (b % 8))) | (((v >> i) & 1u) << (b % 8)));
    }
}

isa::FieldInfo field(Opcode op, const std::string& name) {
    for (const auto& f : isa::fields_of(op)) {
        if (name == f.name) return f;
    }
    ADD_FAILURE() << "no field " << name;
    return {"", 0, 0};
}
uint64_t get(const InsnWord& w, Opcode op, const std::string& n) {
    const auto f = field(op, n);
    return get_field(w, f.lo, f.width);
}
void set(InsnWord& w, Opcode op, const std::string& n, uint64_t v) {
    const auto f = field(op, n);
    set_field(w, f.lo, f.width, v);
}

// Bits an opcode may set: the opcode and its fields.
std::vector<bool> used_bits(Opcode op) {
    std::vector<bool> used(512, false);
    for (unsigned b = 0; b < 4; ++b) used[b] = true;
    for (const auto& f : isa::fields_of(op)) {
        for (unsigned b = f.lo; b < f.lo + f.width; ++b) used[b] = true;
    }
    return used;
}

std::string hex(const InsnWord& w) {
    std::string s;
    for (int i = 63; i >= 0; --i) s += fmt::format("{:02x}", w[i]);
    return s;
}

// ---------------------------------------------------------------- the RTL

struct Verdict {
    bool illegal, range;
    bool operator==(const Verdict&) const = default;
};

Verdict expected(ErrorCode e) {
    return {e == ErrorCode::IllegalInstruction, e == ErrorCode::SramRange};
}

// The checker's pipeline: one word a cycle in, each verdict kCheckLatency cycles later
// (hw/hw_params.hpp, which the cost model times fetch with), with its tag.
constexpr int kCheckLatency = static_cast<int>(accel::kCheckLatency);

// The verdict on `w` alone: valid_o exactly kCheckLatency cycles after valid_i.
template <typename M>
Verdict rtl_verdict(M& m, const InsnWord& w) {
    set_wide_bytes(m.insn_i, std::vector<uint8_t>(w.begin(), w.end()));
    m.valid_i = 1;
    m.tag_i = 1;
    tick(m);
    m.valid_i = 0;
    for (int c = 1; c < kCheckLatency; ++c) {
        EXPECT_FALSE(m.valid_o) << "a verdict after " << c << " cycles";
        tick(m);
    }
    EXPECT_TRUE(m.valid_o) << "no verdict after " << kCheckLatency << " cycles";
    EXPECT_EQ(m.tag_o, 1u);
    return {bool(m.illegal_o), bool(m.range_error_o)};
}

// The verdicts on `words` streamed in order, one a cycle with random bubbles; a flush
// now and then drops what is in flight, and the dropped words go in again.
template <typename M>
std::vector<Verdict> rtl_stream(M& m, const std::vector<InsnWord>& words, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<Verdict> out(words.size());
    size_t next = 0, done = 0;
    const uint32_t tag_mask = (1u << 8) - 1;
    while (done < words.size()) {
        const bool flush = rng() % 50 == 0;
        const bool send = !flush && next < words.size() && rng() % 4 != 0;
        if (send) set_wide_bytes(m.insn_i, std::vector<uint8_t>(words[next].begin(), words[next].end()));
        m.valid_i = send;
        m.tag_i = send ? static_cast<uint32_t>(next) & tag_mask : 0;
        m.flush_i = flush;
        m.clk_i = 0;
        m.eval();
        if (m.valid_o) {  // (a verdict shown in a flush cycle still counts)
            // verdicts come back in order: the oldest word not yet answered
            const size_t i = done;
            EXPECT_EQ(m.tag_o, static_cast<uint32_t>(i) & tag_mask) << "verdict out of order";
            out[i] = {bool(m.illegal_o), bool(m.range_error_o)};
            ++done;
        }
        m.clk_i = 1;
        m.eval();
        if (send) ++next;
        if (flush) next = done;  // everything in flight is dropped: send it again
        if (::testing::Test::HasFailure()) break;
    }
    m.valid_i = 0;
    m.flush_i = 0;
    return out;
}

// A model with the HwParams it was built for.
struct Dut {
    std::string name;
    HwParams hw;
    std::function<Verdict(const InsnWord&)> check;
    std::function<std::vector<Verdict>(const std::vector<InsnWord>&, uint32_t)> stream;
};

template <typename M, typename Root>
Dut make_dut(const std::string& name, const HwParams& hw) {
    EXPECT_EQ(Root::accel_insn_check__DOT__BEAT_BYTES, hw.beat_bytes) << name;
    EXPECT_EQ(Root::accel_insn_check__DOT__INP_DEPTH, hw.inp_depth) << name;
    EXPECT_EQ(Root::accel_insn_check__DOT__WGT_DEPTH, hw.wgt_depth) << name;
    EXPECT_EQ(Root::accel_insn_check__DOT__ACC_DEPTH, hw.acc_depth) << name;
    EXPECT_EQ(Root::accel_insn_check__DOT__PRM_DEPTH, hw.prm_depth) << name;
    EXPECT_EQ(Root::accel_insn_check__DOT__LATENCY, kCheckLatency) << name;
    auto m = std::make_shared<M>();
    m->valid_i = 0;
    m->flush_i = 0;
    reset(*m, 1);
    return {name, hw, [m](const InsnWord& w) { return rtl_verdict(*m, w); },
            [m](const std::vector<InsnWord>& ws, uint32_t seed) { return rtl_stream(*m, ws, seed); }};
}

Dut default_dut() {
    return make_dut<Vaccel_insn_check, Vaccel_insn_check___024root>("default", default_hw_params());
}
#ifdef FETCH_PATH_TINY
Dut tiny_dut() {
    return make_dut<Vaccel_insn_check_tiny, Vaccel_insn_check_tiny___024root>(
        "tiny", test::shipped_hw("tiny"));
}
#endif

// ---------------------------------------------------------------- generator

class Gen {
public:
    Gen(uint32_t seed, const HwParams& hw) : rng_(seed), hw_(hw) {}

    uint64_t u(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_); }
    bool p(double x) { return std::bernoulli_distribution(x)(rng_); }
    uint64_t full(unsigned width) { return u(0, (uint64_t{1} << width) - 1); }

    uint64_t extent(unsigned width) {
        const int r = static_cast<int>(u(0, 99));
        if (r < 3) return 0;
        if (r < 38) return 1;
        if (r < 83) return u(2, 8);
        if (r < 93) return u(9, 64);
        return full(width);
    }
    uint64_t stride(unsigned width, uint32_t depth) {
        const int r = static_cast<int>(u(0, 99));
        if (r < 20) return 0;
        if (r < 60) return u(1, 8);
        if (r < 85) return u(1, depth);
        return full(width);
    }
    uint64_t base(unsigned width, uint32_t depth) {
        const uint64_t max = (uint64_t{1} << width) - 1;
        const int r = static_cast<int>(u(0, 99));
        if (r < 30) return 0;
        if (r < 75) return u(0, std::min<uint64_t>(depth - 1, max));
        if (r < 90) return std::min<uint64_t>(max, u(depth > 16 ? depth - 16 : 0, depth + 16));
        return full(width);
    }
    uint32_t dram(double misaligned) {
        uint32_t v = static_cast<uint32_t>(rng_()) & ~(hw_.beat_bytes - 1);
        if (hw_.beat_bytes > 1 && p(misaligned)) v |= static_cast<uint32_t>(u(1, hw_.beat_bytes - 1));
        return v;
    }
    uint32_t pad() { return p(0.8) ? 0 : p(0.8) ? static_cast<uint32_t>(u(1, 4)) : static_cast<uint32_t>(u(1, 255)); }
    isa::Tokens tokens(double x) { return {p(x), p(x), p(x), p(x)}; }
    uint32_t depth(isa::Buffer b) const {
        return b == isa::Buffer::Inp ? hw_.inp_depth : b == isa::Buffer::Wgt ? hw_.wgt_depth : hw_.prm_depth;
    }

    // Random fields; `wild` scales the probability of the illegal values.
    isa::Insn random_insn(Opcode op, double wild) {
        switch (op) {
            case Opcode::Load: {
                isa::Load l;
                l.tokens = tokens(0.1 * wild);
                const int b = static_cast<int>(u(0, 99));
                l.buffer = static_cast<isa::Buffer>(b < 40 ? 0 : b < 70 ? 1 : b < 100 - 5 * wild ? 2 : 3);
                if (l.buffer != isa::Buffer::Inp && !p(0.1 * wild)) l.tokens.pop_prev = l.tokens.push_prev = false;
                l.sram_base = static_cast<uint32_t>(base(16, depth(l.buffer)));
                l.dram_base = dram(0.05 * wild);
                l.z_size = static_cast<uint32_t>(extent(16));
                l.y_size = static_cast<uint32_t>(extent(16));
                l.x_size = static_cast<uint32_t>(extent(16));
                l.dram_z_stride = dram(0.05 * wild);
                l.dram_y_stride = dram(0.05 * wild);
                if (p(0.3)) l.dram_x_stride = dram(0.05 * wild);
                if (l.buffer == isa::Buffer::Inp || p(0.2 * wild)) {
                    l.pad_top = pad(), l.pad_bottom = pad(), l.pad_left = pad(), l.pad_right = pad();
                    l.pad_value = p(0.8) ? 0 : static_cast<int8_t>(rng_());
                }
                return l;
            }
            case Opcode::Gemm: {
                isa::Gemm g;
                g.tokens = tokens(0.5);
                g.init = p(0.5);
                g.acc_base = static_cast<uint32_t>(base(16, hw_.acc_depth));
                g.inp_base = static_cast<uint32_t>(base(16, hw_.inp_depth));
                g.wgt_base = static_cast<uint32_t>(base(16, hw_.wgt_depth));
                g.prm_base = static_cast<uint32_t>(base(8, hw_.prm_depth));
                g.n_kb = static_cast<uint32_t>(extent(16)), g.n_oy = static_cast<uint32_t>(extent(16));
                g.n_ox = static_cast<uint32_t>(extent(16)), g.n_r = static_cast<uint32_t>(extent(8));
                g.n_s = static_cast<uint32_t>(extent(8)), g.n_cb = static_cast<uint32_t>(extent(16));
                for (uint32_t* s : {&g.acc_kb, &g.acc_oy, &g.acc_ox}) *s = static_cast<uint32_t>(stride(16, hw_.acc_depth));
                for (uint32_t* s : {&g.inp_oy, &g.inp_ox, &g.inp_r, &g.inp_s, &g.inp_cb}) {
                    *s = static_cast<uint32_t>(stride(16, hw_.inp_depth));
                }
                for (uint32_t* s : {&g.wgt_kb, &g.wgt_r, &g.wgt_s, &g.wgt_cb}) *s = static_cast<uint32_t>(stride(16, hw_.wgt_depth));
                return g;
            }
            case Opcode::Drain: {
                isa::Drain d;
                d.tokens = tokens(0.5);
                if (!p(0.2 * wild)) d.tokens.pop_next = d.tokens.push_next = false;
                d.acc_base = static_cast<uint32_t>(base(16, hw_.acc_depth));
                d.prm_base = static_cast<uint32_t>(base(8, hw_.prm_depth));
                d.n_kb = static_cast<uint32_t>(extent(16)), d.n_y = static_cast<uint32_t>(extent(16));
                d.n_x = static_cast<uint32_t>(extent(16));
                for (uint32_t* s : {&d.acc_kb, &d.acc_y, &d.acc_x}) *s = static_cast<uint32_t>(stride(16, hw_.acc_depth));
                for (uint32_t* s : {&d.dram_base, &d.dram_kb, &d.dram_y, &d.dram_x, &d.dram_b}) *s = dram(0.03 * wild);
                d.zy = static_cast<int8_t>(rng_());
                int8_t a = static_cast<int8_t>(rng_()), b = static_cast<int8_t>(rng_());
                if (a > b && !p(0.15 * wild)) std::swap(a, b);
                d.act_min = a, d.act_max = b;
                d.add = p(0.3), d.double_scale = p(0.3);  // both: illegal
                if (d.add && d.double_scale && !p(0.2 * wild)) d.add = false;
                d.round_up = p(0.3);  // with double_scale: illegal
                if (d.round_up && d.double_scale && !p(0.2 * wild)) d.round_up = false;
                return d;
            }
            case Opcode::Finish: return isa::Finish{};
        }
        return isa::Finish{};
    }

    Opcode random_op() { return static_cast<Opcode>(u(1, 4)); }

    // A word decode() accepts, of the given opcode (rejection sampling).
    InsnWord legal(Opcode op) {
        for (int i = 0; i < 10000; ++i) {
            const InsnWord w = isa::encode(random_insn(op, 0));
            if (isa::decode(w, hw_).error == ErrorCode::Ok) return w;
        }
        ADD_FAILURE() << "no legal instruction found";
        return isa::encode(isa::Finish{});
    }

    // The loop nests of an instruction: base field, and the reach max - base.
    struct Nest {
        const char* base_field;
        uint64_t reach;
        uint32_t depth;
    };
    std::vector<Nest> nests(const InsnWord& w) const {
        const Opcode op = static_cast<Opcode>(get_field(w, 0, 4));
        auto g = [&](const char* n) { return get(w, op, n); };
        auto r = [&](const char* n, const char* s) { return (g(n) - 1) * g(s); };
        switch (op) {
            case Opcode::Load: {
                const uint64_t rows = g("pad_top") + g("y_size") + g("pad_bottom");
                const uint64_t cols = g("pad_left") + g("x_size") + g("pad_right");
                return {{"sram_base", g("z_size") * rows * cols - 1, depth(static_cast<isa::Buffer>(g("buffer")))}};
            }
            case Opcode::Gemm:
                return {{"acc_base", r("n_kb", "acc_kb") + r("n_oy", "acc_oy") + r("n_ox", "acc_ox"), hw_.acc_depth},
                        {"inp_base", r("n_oy", "inp_oy") + r("n_ox", "inp_ox") + r("n_r", "inp_r") +
                                         r("n_s", "inp_s") + r("n_cb", "inp_cb"), hw_.inp_depth},
                        {"wgt_base", r("n_kb", "wgt_kb") + r("n_r", "wgt_r") + r("n_s", "wgt_s") + r("n_cb", "wgt_cb"),
                         hw_.wgt_depth},
                        {"prm_base", g("n_kb") - 1, hw_.prm_depth}};
            case Opcode::Drain:
                return {{"acc_base", r("n_kb", "acc_kb") + r("n_y", "acc_y") + r("n_x", "acc_x"), hw_.acc_depth},
                        {"prm_base", g("n_kb") - 1, hw_.prm_depth}};
            default: return {};
        }
    }

    // Moves one nest's base so that its largest address is depth - 1 + delta; false if
    // the base field cannot hold that.
    bool place_nest(InsnWord& w, int delta) {
        const Opcode op = static_cast<Opcode>(get_field(w, 0, 4));
        auto ns = nests(w);
        if (ns.empty()) return false;
        const Nest& n = ns[u(0, ns.size() - 1)];
        const int64_t b = int64_t{n.depth} - 1 + delta - static_cast<int64_t>(n.reach);
        const auto f = field(op, n.base_field);
        if (b < 0 || b >= (int64_t{1} << f.width)) return false;
        set_field(w, f.lo, f.width, static_cast<uint64_t>(b));
        return true;
    }

    std::mt19937& rng() { return rng_; }
    uint32_t beat_bytes() const { return hw_.beat_bytes; }

private:
    std::mt19937 rng_;
    HwParams hw_;
};

// ---------------------------------------------------------------- the comparison

struct Tally {
    std::map<ErrorCode, int> verdicts;
    int mismatches = 0;
};

void compare(const Dut& dut, const InsnWord& w, Tally& t, const std::string& how) {
    const auto d = isa::decode(w, dut.hw);
    const Verdict want = expected(d.error), got = dut.check(w);
    ++t.verdicts[d.error];
    if (!(got == want) && ++t.mismatches <= 10) {
        ADD_FAILURE() << dut.name << " (" << how << "): decode says " << isa::error_name(d.error)
                      << ", RTL illegal=" << got.illegal << " range=" << got.range << "\n  "
                      << (d.error == ErrorCode::IllegalInstruction && !std::holds_alternative<isa::Finish>(d.insn)
                              ? std::string("(illegal)")
                              : isa::to_string(d.insn))
                      << "\n  word " << hex(w);
    }
}

// Random fields, boundary placement and raw words, mixed.
void random_words(const Dut& dut, uint32_t seed, int n) {
    Gen g(seed, dut.hw);
    Tally t;
    for (int i = 0; i < n && t.mismatches < 10; ++i) {
        const int mode = static_cast<int>(g.u(0, 99));
        InsnWord w{};
        if (mode < 45) {
            w = isa::encode(g.random_insn(g.random_op(), 1.0));
            compare(dut, w, t, "random fields");
        } else if (mode < 85) {
            w = g.legal(g.random_op());
            if (!g.place_nest(w, static_cast<int>(g.u(0, 3)) - 2)) continue;
            compare(dut, w, t, "boundary");
        } else {
            for (auto& b : w) b = static_cast<uint8_t>(g.rng()());
            if (g.p(0.5)) {  // sparse: a few bits of an opcode's fields
                w = InsnWord{};
                const Opcode op = g.random_op();
                set_field(w, 0, 4, static_cast<uint64_t>(op));
                auto fs = isa::fields_of(op);
                for (int k = 0, nb = static_cast<int>(g.u(0, 6)); k < nb && !fs.empty(); ++k) {
                    const auto& f = fs[g.u(0, fs.size() - 1)];
                    set_field(w, f.lo + static_cast<unsigned>(g.u(0, f.width - 1)), 1, 1);
                }
            } else if (g.p(0.5)) {
                set_field(w, 0, 4, g.u(1, 4));
            }
            compare(dut, w, t, "raw");
        }
    }
    EXPECT_EQ(t.mismatches, 0);
    std::printf("%s: %d ok, %d illegal, %d range\n", dut.name.c_str(), t.verdicts[ErrorCode::Ok],
                t.verdicts[ErrorCode::IllegalInstruction], t.verdicts[ErrorCode::SramRange]);
    // all three verdicts must be well represented
    for (ErrorCode e : {ErrorCode::Ok, ErrorCode::IllegalInstruction, ErrorCode::SramRange}) {
        EXPECT_GT(t.verdicts[e], n / 10) << dut.name << ": too few " << isa::error_name(e);
    }
}

// Words streamed back to back through the pipeline (random bubbles and flushes): each
// verdict must be that of its own word, whatever the words around it.
void streamed_words(const Dut& dut, uint32_t seed, int n) {
    Gen g(seed, dut.hw);
    std::vector<InsnWord> words;
    while (static_cast<int>(words.size()) < n) {
        InsnWord w = g.p(0.5) ? isa::encode(g.random_insn(g.random_op(), 1.0)) : g.legal(g.random_op());
        if (g.p(0.5) && !g.place_nest(w, static_cast<int>(g.u(0, 3)) - 2)) continue;
        words.push_back(w);
    }
    const std::vector<Verdict> got = dut.stream(words, seed);
    Tally t;
    for (size_t i = 0; i < words.size() && t.mismatches < 10; ++i) {
        const auto d = isa::decode(words[i], dut.hw);
        ++t.verdicts[d.error];
        if (!(got[i] == expected(d.error))) {
            ++t.mismatches;
            ADD_FAILURE() << dut.name << ": streamed word " << i << ": decode says "
                          << isa::error_name(d.error) << ", RTL illegal=" << got[i].illegal
                          << " range=" << got[i].range;
        }
    }
    for (ErrorCode e : {ErrorCode::Ok, ErrorCode::IllegalInstruction, ErrorCode::SramRange}) {
        EXPECT_GT(t.verdicts[e], n / 20) << dut.name << ": too few " << isa::error_name(e);
    }
}

// Legal instructions given exactly one illegal property, one reason after another.
enum Reason {
    kBadOpcode, kReservedBit, kTokenFlag, kBuffer3, kPadNonInp, kPadValueNonInp, kZeroExtent,
    kActOrder, kMisaligned, kFinishExtraBit, kRangeJustOver, kRangeJustFits, kAddDoubleScale,
    kRoundUpDoubleScale, kReasons
};
const char* const kReasonNames[kReasons] = {
    "bad opcode", "reserved bit", "token flag", "buffer 3", "padding on non-INP",
    "pad value on non-INP", "zero extent", "act_min > act_max", "misaligned DRAM",
    "FINISH extra bit", "range just over", "range just fits", "add with double_scale",
    "round_up with double_scale"};

// Applies `r` to a fresh legal word; false when this attempt could not.
bool make_reason(Gen& g, Reason r, InsnWord& w, ErrorCode& want) {
    want = ErrorCode::IllegalInstruction;
    switch (r) {
        case kBadOpcode: {
            w = g.legal(g.random_op());
            const uint64_t bad[] = {0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
            set_field(w, 0, 4, bad[g.u(0, 11)]);
            return true;
        }
        case kReservedBit: {
            const Opcode op = static_cast<Opcode>(g.u(1, 3));
            w = g.legal(op);
            const auto used = used_bits(op);
            unsigned b;
            do b = static_cast<unsigned>(g.u(0, 511)); while (used[b]);
            set_field(w, b, 1, 1);
            return true;
        }
        case kTokenFlag: {
            const bool load = g.p(0.5);
            const Opcode op = load ? Opcode::Load : Opcode::Drain;
            w = g.legal(op);
            const char* flags[2][2] = {{"pop_next", "push_next"}, {"pop_prev", "push_prev"}};
            set(w, op, flags[load][g.u(0, 1)], 1);
            return true;
        }
        case kBuffer3:
            w = g.legal(Opcode::Load);
            set(w, Opcode::Load, "buffer", 3);
            return true;
        case kPadNonInp:
        case kPadValueNonInp:
            w = g.legal(Opcode::Load);
            if (get(w, Opcode::Load, "buffer") == 0) set(w, Opcode::Load, "buffer", g.u(1, 2));
            if (r == kPadValueNonInp) {
                set(w, Opcode::Load, "pad_value", g.u(1, 255));
            } else {
                const char* pads[] = {"pad_top", "pad_bottom", "pad_left", "pad_right"};
                set(w, Opcode::Load, pads[g.u(0, 3)], g.u(1, 255));
            }
            return true;
        case kZeroExtent: {
            const Opcode op = static_cast<Opcode>(g.u(1, 3));
            w = g.legal(op);
            std::vector<std::string> ext;
            for (const auto& f : isa::fields_of(op)) {
                const std::string n = f.name;
                if (n.ends_with("_size") || n.starts_with("n_")) ext.push_back(n);
            }
            set(w, op, ext[g.u(0, ext.size() - 1)], 0);
            return true;
        }
        case kActOrder: {
            w = g.legal(Opcode::Drain);
            const auto a = static_cast<int>(g.u(0, 255)) - 128, b = static_cast<int>(g.u(0, 255)) - 128;
            if (a == b) return false;
            set(w, Opcode::Drain, "act_min", static_cast<uint8_t>(std::max(a, b)));
            set(w, Opcode::Drain, "act_max", static_cast<uint8_t>(std::min(a, b)));
            return true;
        }
        case kMisaligned: {
            const bool load = g.p(0.5);
            const Opcode op = load ? Opcode::Load : Opcode::Drain;
            w = g.legal(op);
            const char* lf[] = {"dram_base", "dram_z_stride", "dram_y_stride", "dram_x_stride"};
            const char* df[] = {"dram_base", "dram_kb", "dram_y", "dram_x", "dram_b"};
            const char* f = load ? lf[g.u(0, 3)] : df[g.u(0, 4)];
            set(w, op, f, get(w, op, f) | g.u(1, g.beat_bytes() - 1));
            return true;
        }
        case kFinishExtraBit:
            w = isa::encode(isa::Finish{});
            set_field(w, static_cast<unsigned>(g.u(4, 511)), 1, 1);
            return true;
        case kRangeJustOver:
        case kRangeJustFits:
            w = g.legal(static_cast<Opcode>(g.u(1, 3)));
            want = r == kRangeJustOver ? ErrorCode::SramRange : ErrorCode::Ok;
            return g.place_nest(w, r == kRangeJustOver ? 1 : 0);
        case kAddDoubleScale:
            w = g.legal(Opcode::Drain);
            set(w, Opcode::Drain, "add", 1);
            set(w, Opcode::Drain, "double_scale", 1);
            return true;
        case kRoundUpDoubleScale:
            w = g.legal(Opcode::Drain);
            set(w, Opcode::Drain, "add", 0);
            set(w, Opcode::Drain, "round_up", 1);
            set(w, Opcode::Drain, "double_scale", 1);
            return true;
        default: return false;
    }
}

void every_reason(const Dut& dut, uint32_t seed, int per_reason) {
    Gen g(seed, dut.hw);
    Tally t;
    for (int r = 0; r < kReasons; ++r) {
        int made = 0;
        for (int tries = 0; made < per_reason && tries < 20 * per_reason; ++tries) {
            InsnWord w;
            ErrorCode want;
            if (!make_reason(g, static_cast<Reason>(r), w, want)) continue;
            // the generator's own claim, checked against the software
            ASSERT_EQ(isa::decode(w, dut.hw).error, want) << kReasonNames[r] << ": " << hex(w);
            compare(dut, w, t, kReasonNames[r]);
            ++made;
        }
        EXPECT_EQ(made, per_reason) << dut.name << ": could not make " << kReasonNames[r];
    }
    EXPECT_EQ(t.mismatches, 0);
}

// Every single-bit flip of legal words of each opcode.
void bit_flips(const Dut& dut, uint32_t seed, int per_opcode) {
    Gen g(seed, dut.hw);
    Tally t;
    for (int op = 1; op <= 4; ++op) {
        for (int k = 0; k < per_opcode; ++k) {
            const InsnWord base = g.legal(static_cast<Opcode>(op));
            compare(dut, base, t, "legal");
            for (unsigned b = 0; b < 512; ++b) {
                InsnWord w = base;
                w[b / 8] ^= static_cast<uint8_t>(1u << (b % 8));
                compare(dut, w, t, fmt::format("flip bit {}", b));
            }
        }
    }
    EXPECT_EQ(t.mismatches, 0);
    EXPECT_GT(t.verdicts[ErrorCode::Ok], 0);
    EXPECT_GT(t.verdicts[ErrorCode::SramRange], 0);
}

TEST(InsnCheck, RandomWordsDefault) { random_words(default_dut(), 1, 30000); }
TEST(InsnCheck, EveryReasonDefault) { every_reason(default_dut(), 2, 300); }
TEST(InsnCheck, BitFlipsDefault) { bit_flips(default_dut(), 3, 12); }
TEST(InsnCheck, StreamedDefault) { streamed_words(default_dut(), 7, 5000); }
#ifdef FETCH_PATH_TINY
TEST(InsnCheck, RandomWordsTiny) { random_words(tiny_dut(), 4, 30000); }
TEST(InsnCheck, EveryReasonTiny) { every_reason(tiny_dut(), 5, 300); }
TEST(InsnCheck, BitFlipsTiny) { bit_flips(tiny_dut(), 6, 12); }
TEST(InsnCheck, StreamedTiny) { streamed_words(tiny_dut(), 8, 5000); }
#endif

}  // namespace
}  // namespace accel::bench
