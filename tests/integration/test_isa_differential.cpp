// The same instruction program on the functional simulator and on the Verilator device
// of each shipped config: identical DRAM and ISA counters for valid programs (hand-written
// and random), the same error mask for error programs of every kind, and never a hang
// (docs/isa.md, "Errors"; after a BUS_ERROR, DRAM is unspecified and not compared).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "device_pair.hpp"
#include "random_program.hpp"

namespace accel::integration {
namespace {

using isa::Buffer;
using isa::ErrorCode;

uint32_t bit(ErrorCode e) { return isa::error_bit(e); }

// ---- a DRAM image built by hand ---------------------------------------------------------

class Image {
public:
    explicit Image(const HwParams& hw) : hw_(hw) {}

    // A fresh beat-aligned region of `bytes` (a 64-byte boundary suits every config).
    uint32_t alloc(size_t bytes) {
        const size_t addr = (bytes_.size() + 63) / 64 * 64;
        bytes_.resize(addr + bytes, 0);
        return static_cast<uint32_t>(addr);
    }
    uint32_t put(const std::vector<uint8_t>& data) {
        const uint32_t addr = alloc(data.size());
        std::memcpy(&bytes_[addr], data.data(), data.size());
        return addr;
    }
    uint32_t random_bytes(size_t n, std::mt19937& rng) {
        std::vector<uint8_t> v(n);
        for (auto& b : v) b = static_cast<uint8_t>(rng() >> 24);
        return put(v);
    }
    // PRM entries of random bias and a requantization scaled for sums of `terms` products.
    uint32_t random_prm(uint32_t entries, uint32_t terms, std::mt19937& rng) {
        const uint32_t bo = hw_.block_out;
        std::vector<uint8_t> v(size_t{entries} * hw_.prm_entry_bytes);
        const double sd = 74.0 * 74.0 * std::sqrt(static_cast<double>(terms));
        for (uint32_t e = 0; e < entries; ++e) {
            for (uint32_t o = 0; o < bo; ++o) {
                const int32_t bias = static_cast<int32_t>(rng() % 8001) - 4000;
                const double scale = 40.0 / sd * (0.5 + (rng() % 100) / 100.0);
                const int exp = std::ilogb(scale);  // scale = m * 2^exp, m in [1, 2)
                const auto mult = static_cast<int32_t>(std::ldexp(scale, 30 - exp));
                const int32_t shift = exp + 1;  // multiplier/2^31 in [0.5, 1)
                uint8_t* p = &v[size_t{e} * hw_.prm_entry_bytes];
                std::memcpy(p + 4 * o, &bias, 4);
                std::memcpy(p + 4 * (bo + o), &mult, 4);
                std::memcpy(p + 4 * (2 * bo + o), &shift, 4);
            }
        }
        return put(v);
    }
    // The program at the end of the image, followed by `slack` zero bytes.
    uint32_t program(const std::vector<isa::Insn>& insns, size_t slack = 256) {
        const uint32_t addr = alloc(insns.size() * isa::kInsnBytes + slack);
        for (size_t i = 0; i < insns.size(); ++i) {
            const isa::InsnWord w = isa::encode(insns[i]);
            std::memcpy(&bytes_[addr + i * isa::kInsnBytes], w.data(), w.size());
        }
        return addr;
    }
    uint32_t program_words(const std::vector<isa::InsnWord>& words) {
        const uint32_t addr = alloc(words.size() * isa::kInsnBytes + 256);
        for (size_t i = 0; i < words.size(); ++i) {
            std::memcpy(&bytes_[addr + i * isa::kInsnBytes], words[i].data(), words[i].size());
        }
        return addr;
    }
    const std::vector<uint8_t>& bytes() const { return bytes_; }

private:
    const HwParams& hw_;
    std::vector<uint8_t> bytes_;
};

struct Compared {
    Outcome fsim, rtl;
};

// Runs the image on both devices and compares everything docs/isa.md fixes: the error
// mask always; DRAM and the ISA counters unless the program has a bus error.
Compared run_both(const HwParams& hw, const std::vector<uint8_t>& image, uint32_t insn_addr,
                  uint32_t count, const std::string& what) {
    Compared c;
    auto fsim = make_fsim(hw, image.size());
    auto rtl = make_rtl(hw, image.size());
    c.fsim = run_image(*fsim, image, insn_addr, count);
    c.rtl = run_image(*rtl, image, insn_addr, count);
    EXPECT_EQ(c.fsim.failure, "") << what;
    EXPECT_EQ(c.rtl.failure, "") << what << " (the RTL must never hang)";
    if (!c.fsim.failure.empty() || !c.rtl.failure.empty()) return c;
    EXPECT_GT(c.rtl.counters.cycles, 0u) << what << ": the RTL did not run";
    if (c.fsim.counters.errors & bit(ErrorCode::BusError)) {
        EXPECT_EQ(c.rtl.counters.errors, c.fsim.counters.errors)
            << what << ": rtl " << isa::error_names(c.rtl.counters.errors) << ", fsim "
            << isa::error_names(c.fsim.counters.errors);
        return c;
    }
    expect_same_isa_counters(c.rtl.counters, c.fsim.counters, what);
    EXPECT_TRUE(same_dram(c.rtl.dram, c.fsim.dram)) << what;
    return c;
}

Compared run_both(const HwParams& hw, const test::RandomProgram& p, const std::string& what) {
    return run_both(hw, p.dram, p.insn_addr, p.insn_count, what);
}

class IsaDifferential : public ::testing::TestWithParam<std::string> {
protected:
    const HwParams& hw = shipped_hw(GetParam());
    std::string what(const std::string& s) const { return GetParam() + ": " + s; }
    // `prog` (ending in FINISH) placed in `img`, and `img` run on both devices.
    Compared run_program(Image& img, const std::vector<isa::Insn>& prog,
                         const std::string& name) const {
        const uint32_t at = img.program(prog);
        return run_both(hw, img.bytes(), at, static_cast<uint32_t>(prog.size()), what(name));
    }
};

// ---- hand-written valid programs --------------------------------------------------------

// A small convolution in one round: a padded 3-D INP load, WGT and PRM loads, one GEMM
// with stride and dilation over 2x3 taps and two channel blocks, and a DRAIN per output
// block with its own zero point and clamp. Outputs must spread: a constant output would
// hide a wrong datapath.
TEST_P(IsaDifferential, HandWrittenPaddedConvolution) {
    std::mt19937 rng(7);
    Image img(hw);
    const uint32_t bo = hw.block_out, b = hw.batch;
    // INP: 2 channel blocks of a 5x6 image, padded to 7x9 (top 1, bottom 1, left 2, right 1).
    const uint32_t h = 5, w = 6, pt = 1, pb = 1, pl = 2, pr = 1, hp = h + pt + pb, wp = w + pl + pr;
    const uint32_t row = w * hw.inp_entry_bytes;
    const uint32_t x_src = img.random_bytes(size_t{2} * h * (row + 8), rng);
    const uint32_t n_kb = 2, n_cb = 2, n_r = 2, n_s = 3;
    const uint32_t w_src = img.random_bytes(size_t{n_kb} * n_r * n_s * n_cb * hw.wgt_entry_bytes,
                                            rng);
    const uint32_t p_src = img.random_prm(n_kb, n_r * n_s * n_cb * hw.block_in, rng);
    // Output: stride (2,1), dilation (1,2): OH = (7-2)/2+1 = 3, OW = (9-5)/1+1 = 5.
    const uint32_t oh = 3, ow = 5;
    const uint32_t out = img.alloc(size_t{n_kb} * oh * ow * b * bo);

    isa::Load li{.buffer = Buffer::Inp, .sram_base = 10, .dram_base = x_src, .z_size = 2,
                 .y_size = h, .x_size = w, .dram_z_stride = h * (row + 8),
                 .dram_y_stride = row + 8, .pad_top = pt, .pad_bottom = pb, .pad_left = pl,
                 .pad_right = pr, .pad_value = -37};
    isa::Load lw{.buffer = Buffer::Wgt, .sram_base = 3, .dram_base = w_src, .z_size = 1,
                 .y_size = 1, .x_size = n_kb * n_r * n_s * n_cb};
    isa::Load lp{.tokens = {.push_next = true}, .buffer = Buffer::Prm, .sram_base = 5,
                 .dram_base = p_src, .x_size = n_kb};
    isa::Gemm g{.tokens = {.pop_prev = true, .push_next = true}, .init = true, .acc_base = 4,
                .inp_base = 10, .wgt_base = 3, .prm_base = 5, .n_kb = n_kb, .n_oy = oh,
                .n_ox = ow, .n_r = n_r, .n_s = n_s, .n_cb = n_cb, .acc_kb = oh * ow,
                .acc_oy = ow, .acc_ox = 1, .inp_oy = 2 * wp, .inp_ox = 1, .inp_r = wp,
                .inp_s = 2, .inp_cb = hp * wp, .wgt_kb = n_r * n_s * n_cb, .wgt_r = n_s * n_cb,
                .wgt_s = n_cb, .wgt_cb = 1};
    std::vector<isa::Insn> prog{li, lw, lp, g};
    for (uint32_t kb = 0; kb < n_kb; ++kb) {
        isa::Drain d{.acc_base = 4 + kb * oh * ow, .prm_base = 5 + kb, .n_kb = 1, .n_y = oh,
                     .n_x = ow, .acc_y = ow, .acc_x = 1,
                     .dram_base = out + kb * oh * ow * b * bo, .dram_y = ow * b * bo,
                     .dram_x = b * bo, .dram_b = bo,
                     .zy = static_cast<int8_t>(kb ? -9 : 12),
                     .act_min = static_cast<int8_t>(kb ? -100 : -128),
                     .act_max = static_cast<int8_t>(kb ? 90 : 127)};
        d.tokens.pop_prev = kb == 0;
        prog.push_back(d);
    }
    prog.push_back(isa::Finish{});
    const Compared c = run_program(img, prog, "padded convolution");
    ASSERT_EQ(c.fsim.counters.errors, 0u) << isa::error_names(c.fsim.counters.errors);
    EXPECT_EQ(c.fsim.counters.gemm_steps, uint64_t{n_kb} * oh * ow * n_r * n_s * n_cb);
    EXPECT_EQ(c.fsim.counters.drain_bytes, uint64_t{n_kb} * oh * ow * b * bo);
    if (c.rtl.dram.empty()) return;
    const std::set<uint8_t> distinct(c.rtl.dram.begin() + out,
                                     c.rtl.dram.begin() + out + n_kb * oh * ow * b * bo);
    EXPECT_GT(distinct.size(), 40u) << "outputs do not spread: the comparison proves little";
}

// Two rounds that share the SRAMs through every token queue: round 2's loads wait for
// round 1's GEMMs (cp2ld), its GEMM waits for round 1's drain (dr2cp), and round 2
// accumulates onto a GEMM without init.
TEST_P(IsaDifferential, HandWrittenTokenPingPongWithAccumulation) {
    std::mt19937 rng(8);
    Image img(hw);
    const uint32_t b = hw.batch, bo = hw.block_out;
    const uint32_t n_px = 6;
    std::vector<isa::Insn> prog;
    std::vector<uint32_t> outs;
    for (int round = 0; round < 2; ++round) {
        const uint32_t x = img.random_bytes(size_t{n_px} * hw.inp_entry_bytes, rng);
        const uint32_t wt = img.random_bytes(size_t{2} * hw.wgt_entry_bytes, rng);
        const uint32_t pr = img.random_prm(1, 2 * hw.block_in, rng);
        outs.push_back(img.alloc(size_t{n_px} * b * bo));
        isa::Load li{.tokens = {.pop_next = round == 1}, .buffer = Buffer::Inp,
                     .dram_base = x, .x_size = n_px};
        isa::Load lw{.buffer = Buffer::Wgt, .dram_base = wt, .x_size = 2};
        isa::Load lp{.tokens = {.push_next = true}, .buffer = Buffer::Prm,
                     .sram_base = static_cast<uint32_t>(round), .dram_base = pr};
        // Two GEMMs: the first initialises from the bias, the second accumulates.
        isa::Gemm g1{.tokens = {.pop_prev = true, .pop_next = round == 1}, .init = true,
                     .prm_base = static_cast<uint32_t>(round), .n_ox = n_px, .acc_ox = 1,
                     .inp_ox = 1};
        isa::Gemm g2{.tokens = {.push_prev = round == 0, .push_next = true}, .init = false,
                     .wgt_base = 1, .prm_base = static_cast<uint32_t>(round), .n_ox = n_px,
                     .acc_ox = 1, .inp_ox = 1};
        isa::Drain d{.tokens = {.pop_prev = true, .push_prev = round == 0},
                     .prm_base = static_cast<uint32_t>(round), .n_x = n_px, .acc_x = 1,
                     .dram_base = outs.back(), .dram_x = b * bo, .dram_b = bo,
                     .zy = static_cast<int8_t>(round * 5 - 3)};
        for (const isa::Insn& i : {isa::Insn{li}, isa::Insn{lw}, isa::Insn{lp}, isa::Insn{g1},
                                   isa::Insn{g2}, isa::Insn{d}})
            prog.push_back(i);
    }
    prog.push_back(isa::Finish{});
    const Compared c = run_program(img, prog, "token ping-pong");
    ASSERT_EQ(c.fsim.counters.errors, 0u) << isa::error_names(c.fsim.counters.errors);
    EXPECT_EQ(c.fsim.counters.load_insns, 6u);
    EXPECT_EQ(c.fsim.counters.gemm_insns, 4u);
    EXPECT_EQ(c.fsim.counters.drain_insns, 2u);
    if (c.rtl.dram.empty()) return;
    for (uint32_t o : outs) {
        const std::set<uint8_t> distinct(c.rtl.dram.begin() + o,
                                         c.rtl.dram.begin() + o + n_px * b * bo);
        EXPECT_GT(distinct.size(), n_px * b * bo / 4) << "outputs do not spread";
    }
}

// Negative DRAM strides (addresses wrap modulo 2^32, docs/isa.md): a LOAD that walks its
// rows and planes backwards through DRAM, rows of more than 16 beats that cross 4 KiB
// pages, maximal padding, and a DRAIN that writes its rows backwards.
TEST_P(IsaDifferential, HandWrittenWrappingStridesLongRowsAndWidePadding) {
    std::mt19937 rng(11);
    Image img(hw);
    const uint32_t b = hw.batch, bo = hw.block_out, eb = hw.inp_entry_bytes;
    img.alloc(4096 - 64);  // the rows below straddle the first 4 KiB page boundary
    const uint32_t rows = 3, planes = 2;
    const uint32_t n_x = std::min({40u, hw.inp_depth / 8, hw.acc_depth / (2 * planes * rows)});
    const uint32_t row = n_x * eb;
    const uint32_t src = img.random_bytes(size_t{planes} * rows * row, rng);
    const uint32_t last_row = src + (planes * rows - 1) * row;
    const uint32_t w_src = img.random_bytes(hw.wgt_entry_bytes, rng);
    const uint32_t p_src = img.random_prm(1, hw.block_in, rng);
    const uint32_t pad_src = img.random_bytes(eb, rng);
    const uint32_t n_out = planes * rows * n_x;
    const uint32_t out = img.alloc(size_t{n_out} * b * bo);
    const uint32_t out_row = n_x * b * bo;
    // Plane z, row y of the SRAM come from DRAM row (planes*rows - 1 - z*rows - y).
    isa::Load backwards{.buffer = Buffer::Inp, .dram_base = last_row, .z_size = planes,
                        .y_size = rows, .x_size = n_x,
                        .dram_z_stride = static_cast<uint32_t>(-int64_t{rows} * row),
                        .dram_y_stride = static_cast<uint32_t>(-int64_t{row})};
    // One data entry amid 255 padding entries on each side and 255 padding rows above it
    // (within INP: W = 511 > depth / 8 on tiny, so only the top padding is wide there).
    const uint32_t pl = hw.inp_depth >= 4096 ? 255 : 100, pr = pl;
    const uint32_t pt = (hw.inp_depth - n_out) / (pl + 1 + pr) - 1;
    isa::Load padded{.buffer = Buffer::Inp, .sram_base = n_out, .dram_base = pad_src,
                     .pad_top = std::min(pt, 255u), .pad_left = pl, .pad_right = pr,
                     .pad_value = 77};
    isa::Load lw{.buffer = Buffer::Wgt, .dram_base = w_src};
    isa::Load lp{.tokens = {.push_next = true}, .buffer = Buffer::Prm, .dram_base = p_src};
    isa::Gemm g{.tokens = {.pop_prev = true, .push_next = true}, .init = true, .n_oy = planes * rows,
                .n_ox = n_x, .acc_oy = n_x, .acc_ox = 1, .inp_oy = n_x, .inp_ox = 1};
    // The DRAIN writes output row y at out + (rows*planes - 1 - y) * out_row.
    isa::Drain d{.tokens = {.pop_prev = true}, .n_y = planes * rows, .n_x = n_x, .acc_y = n_x,
                 .acc_x = 1, .dram_base = out + (planes * rows - 1) * out_row,
                 .dram_y = static_cast<uint32_t>(-int64_t{out_row}), .dram_x = b * bo,
                 .dram_b = bo, .zy = -5};
    // A second GEMM + DRAIN over the padded block's last row: the pad value and the datum.
    const uint32_t pw = pl + 1 + pr, prow = n_out + std::min(pt, 255u) * pw;
    const uint32_t out2 = img.alloc(size_t{pw} * b * bo);
    isa::Gemm g2{.tokens = {.push_next = true}, .init = true, .acc_base = n_out,
                 .inp_base = prow, .n_ox = std::min(pw, hw.acc_depth - n_out), .acc_ox = 1,
                 .inp_ox = 1};
    isa::Drain d2{.tokens = {.pop_prev = true}, .acc_base = n_out, .n_x = g2.n_ox, .acc_x = 1,
                  .dram_base = out2, .dram_x = b * bo, .dram_b = bo};
    const std::vector<isa::Insn> prog{backwards, padded, lw, lp, g, d, g2, d2, isa::Finish{}};
    const Compared c = run_program(img, prog, "wrapping strides");
    EXPECT_EQ(c.fsim.counters.errors, 0u) << isa::error_names(c.fsim.counters.errors);
    EXPECT_EQ(c.fsim.counters.load_bytes, uint64_t{planes} * rows * row + eb +
                                              hw.wgt_entry_bytes + hw.prm_entry_bytes);
    if (c.rtl.dram.empty()) return;
    const std::set<uint8_t> distinct(c.rtl.dram.begin() + out,
                                     c.rtl.dram.begin() + out + n_out * b * bo);
    EXPECT_GT(distinct.size(), 60u) << "outputs do not spread";
}

// SRAM range checks are made on the exact largest address: instructions whose largest
// address is just past 2^16 (or 2^8 for PRM) would pass a check done in 16 (8) bits.
TEST_P(IsaDifferential, RangeChecksDoNotWrap) {
    const uint32_t range = bit(ErrorCode::SramRange);
    const std::vector<std::pair<const char*, isa::Insn>> cases = {
        {"GEMM INP 2 x 0x8000", isa::Gemm{.n_cb = 3, .inp_cb = 0x8000}},
        {"GEMM WGT 1 + 0xFFFF", isa::Gemm{.wgt_base = 1, .n_kb = 2, .wgt_kb = 0xFFFF}},
        {"GEMM ACC 0x100 x 0x100", isa::Gemm{.n_oy = 0x101, .acc_oy = 0x100}},
        {"GEMM PRM 255 + 1", isa::Gemm{.prm_base = 255, .n_kb = 2}},
        {"DRAIN ACC 1 + 0xFFFF", isa::Drain{.acc_base = 1, .n_x = 2, .acc_x = 0xFFFF}},
        {"DRAIN PRM 255 + 1", isa::Drain{.prm_base = 255, .n_kb = 2}},
        {"LOAD INP 256 x 256 with padding", isa::Load{.sram_base = 1, .pad_top = 255,
                                                      .pad_left = 255}},
        {"LOAD WGT 0xFFFF planes", isa::Load{.buffer = Buffer::Wgt, .sram_base = 2,
                                             .z_size = 0xFFFF}},
    };
    std::mt19937 rng(12);
    for (const auto& [name, insn] : cases) {
        Image img(hw);
        img.random_bytes(4096, rng);
        const std::vector<isa::Insn> prog{insn, isa::Finish{}};
        const uint32_t at = img.program(prog);
        const Compared c = run_both(hw, img.bytes(), at, 2, what(name));
        EXPECT_EQ(c.fsim.counters.errors, range) << what(name);
        EXPECT_EQ(c.rtl.counters.errors, range) << what(name);
    }
}

// ---- hand-written error programs: the mask each must raise is docs/isa.md's ------------

struct ErrorCase {
    const char* name;
    uint32_t expected;
    std::vector<isa::InsnWord> words;
    uint32_t count;  // instructions to run (may differ from words.size())
};

isa::InsnWord word(const isa::Insn& i) { return isa::encode(i); }

std::vector<ErrorCase> error_cases(const HwParams& hw, uint32_t data, uint32_t dram_bytes) {
    const uint32_t illegal = bit(ErrorCode::IllegalInstruction);
    const uint32_t range = bit(ErrorCode::SramRange), bus = bit(ErrorCode::BusError);
    const uint32_t overflow = bit(ErrorCode::TokenOverflow), deadlock = bit(ErrorCode::Deadlock);
    const uint32_t no_finish = bit(ErrorCode::NoFinish);
    const isa::Load load{.dram_base = data};
    const isa::InsnWord fin = word(isa::Finish{});
    std::vector<ErrorCase> cases;
    auto add = [&](const char* name, uint32_t expected, std::vector<isa::InsnWord> w) {
        const auto n = static_cast<uint32_t>(w.size());
        cases.push_back({name, expected, std::move(w), n});
    };
    for (uint8_t op : {0, 5, 9, 15}) {
        isa::InsnWord w{};
        w[0] = op;
        add("illegal opcode", illegal, {word(load), w, word(load), fin});
    }
    isa::InsnWord fin_flag = fin;
    fin_flag[0] |= 0x80;  // FINISH takes no token flags
    add("FINISH with a token flag", illegal, {word(load), fin_flag});
    add("LOAD pops its previous unit", illegal,
        {word(isa::Load{.tokens = {.pop_prev = true}, .dram_base = data}), fin});
    add("DRAIN pushes its next unit", illegal,
        {word(isa::Drain{.tokens = {.push_next = true}, .dram_base = data}), fin});
    add("padding on a WGT load", illegal,
        {word(isa::Load{.buffer = Buffer::Wgt, .dram_base = data, .pad_left = 1}), fin});
    add("misaligned DRAM address", illegal,
        {word(isa::Load{.dram_base = data + (hw.beat_bytes > 1 ? hw.beat_bytes / 2 : 0),
                        .x_size = hw.beat_bytes > 1 ? 1u : 0u}),
         fin});
    add("act_min above act_max", illegal,
        {word(isa::Drain{.dram_base = data, .act_min = 3, .act_max = 2}), fin});
    add("INP load one entry past the end", range,
        {word(isa::Load{.sram_base = hw.inp_depth - 1, .dram_base = data, .x_size = 2}), fin});
    add("ACC of a GEMM past the end", range,
        {word(isa::Gemm{.acc_base = hw.acc_depth - 1, .n_oy = 2, .acc_oy = 1}), fin});
    add("PRM of a DRAIN past the end", range,
        {word(isa::Drain{.prm_base = kPrmDepth - 1, .n_kb = 2, .dram_base = data}), fin});
    add("LOAD from past the DRAM", bus,
        {word(load), word(isa::Load{.dram_base = dram_bytes}), word(load), fin});
    add("DRAIN to past the DRAM", bus,
        {word(isa::Drain{.n_x = 4,
                         .dram_base = (dram_bytes - hw.beat_bytes) & ~(hw.beat_bytes - 1),
                         .dram_x = hw.block_out * hw.batch}),
         fin});
    add("GEMM pops a token nobody pushes", deadlock,
        {word(load), word(isa::Gemm{.tokens = {.pop_prev = true}}), fin});
    add("DRAIN pops a token nobody pushes", deadlock,
        {word(isa::Drain{.tokens = {.pop_prev = true}, .dram_base = data}), fin});
    add("LOAD pops a token nobody pushes", deadlock,
        {word(isa::Load{.tokens = {.pop_next = true}, .dram_base = data}), fin});
    add("tokens left in a queue are fine", 0,
        {word(isa::Load{.tokens = {.push_next = true}, .dram_base = data}), fin});
    std::vector<isa::InsnWord> flood(kTokenMax + 1,
                                     word(isa::Gemm{.tokens = {.push_next = true}}));
    flood.push_back(fin);
    add("256 pushes onto cp2dr", overflow, flood);
    flood.erase(flood.begin());
    add("255 pushes onto cp2dr", 0, flood);
    add("no FINISH", no_finish, {word(load), word(load)});
    cases.push_back({"count 0", no_finish, {fin}, 0});
    cases.push_back({"FINISH beyond the count", no_finish, {word(load), fin}, 1});
    return cases;
}

TEST_P(IsaDifferential, HandWrittenErrorProgramsRaiseTheirErrorOnBothDevices) {
    std::mt19937 rng(9);
    Image probe(hw);
    probe.random_bytes(4096, rng);
    const uint32_t data = 0;
    // Every case gets the same data region at 0 and its program after it; the DRAM size
    // is fixed first so that the bus-error cases can aim just past it.
    const uint32_t dram_bytes = 4096 + 64 * 300 + 1024;
    for (const ErrorCase& e : error_cases(hw, data, dram_bytes)) {
        std::vector<uint8_t> image = probe.bytes();
        const uint32_t at = static_cast<uint32_t>(image.size());
        for (const isa::InsnWord& w : e.words) image.insert(image.end(), w.begin(), w.end());
        ASSERT_LE(image.size(), dram_bytes);
        image.resize(dram_bytes, 0);
        const Compared c = run_both(hw, image, at, e.count, what(e.name));
        EXPECT_EQ(c.fsim.counters.errors, e.expected)
            << what(e.name) << ": fsim " << isa::error_names(c.fsim.counters.errors);
        EXPECT_EQ(c.rtl.counters.errors, e.expected)
            << what(e.name) << ": rtl " << isa::error_names(c.rtl.counters.errors);
    }
}

// Fetch running off the end of the DRAM is a bus error on both devices.
TEST_P(IsaDifferential, FetchPastTheDramIsABusErrorOnBothDevices) {
    std::mt19937 rng(10);
    Image img(hw);
    const uint32_t data = img.random_bytes(256, rng);
    const std::vector<isa::InsnWord> words{word(isa::Load{.dram_base = data}),
                                           word(isa::Load{.dram_base = data})};
    std::vector<uint8_t> image = img.bytes();
    const auto at = static_cast<uint32_t>(image.size());
    for (const isa::InsnWord& w : words) image.insert(image.end(), w.begin(), w.end());
    const Compared c = run_both(hw, image, at, 3, what("fetch past the DRAM"));
    EXPECT_EQ(c.fsim.counters.errors, bit(ErrorCode::BusError));
}

// Fetch reads ahead, but only instructions it would execute may raise a bus error: a
// stream whose FINISH is the last word of the DRAM runs clean even with a count past it,
// also when the LOAD queue fills and fetch has to wait with its read-ahead pending.
TEST_P(IsaDifferential, ReadAheadPastTheDramEndIsNoError) {
    std::mt19937 rng(13);
    for (uint32_t loads : {0u, 3u, 12u}) {
        Image img(hw);
        const uint32_t data = img.random_bytes(4 * hw.inp_entry_bytes, rng);
        std::vector<uint8_t> image = img.bytes();
        image.resize((image.size() + 63) / 64 * 64, 0);  // instructions are 64-byte aligned
        const auto at = static_cast<uint32_t>(image.size());
        for (uint32_t i = 0; i < loads; ++i) {
            const isa::InsnWord w = word(isa::Load{.sram_base = i % 4, .dram_base = data,
                                                   .x_size = 4 - i % 4});
            image.insert(image.end(), w.begin(), w.end());
        }
        const isa::InsnWord fin = word(isa::Finish{});
        image.insert(image.end(), fin.begin(), fin.end());
        for (uint32_t extra : {0u, 1u, 7u}) {
            const std::string w = what(std::to_string(loads) + " loads, count +" +
                                       std::to_string(extra));
            const Compared c = run_both(hw, image, at, loads + 1 + extra, w);
            EXPECT_EQ(c.fsim.counters.errors, 0u) << w << ": " << isa::error_names(c.fsim.counters.errors);
            EXPECT_EQ(c.rtl.counters.errors, 0u) << w << ": " << isa::error_names(c.rtl.counters.errors);
            EXPECT_EQ(c.rtl.counters.load_insns, loads) << w;
        }
    }
}

// ---- random programs --------------------------------------------------------------------

TEST_P(IsaDifferential, RandomValidProgramsAgree) {
    uint64_t drained = 0;
    for (uint32_t seed = 1; seed <= 150 * test_scale(); ++seed) {
        test::RandomProgramOptions opt;
        if (seed % 3 == 0) opt.max_rounds = 6;  // more token traffic between rounds
        const test::RandomProgram p = test::make_random_program(hw, seed, opt);
        const Compared c = run_both(hw, p, what("random seed " + std::to_string(seed)));
        EXPECT_EQ(c.fsim.counters.errors, 0u) << seed;
        drained += c.fsim.counters.drain_bytes;
        if (HasFailure()) return;  // one failing program is enough to debug
    }
    EXPECT_GT(drained, 0u);
}

TEST_P(IsaDifferential, RandomErrorProgramsOfEveryKindAgree) {
    for (ErrorCode kind : {ErrorCode::IllegalInstruction, ErrorCode::SramRange,
                           ErrorCode::BusError, ErrorCode::TokenOverflow, ErrorCode::Deadlock,
                           ErrorCode::NoFinish}) {
        for (uint32_t seed = 1; seed <= 25 * test_scale(); ++seed) {
            const test::RandomProgram p = test::make_error_program(hw, seed, kind);
            const std::string w =
                what(std::string(isa::error_name(kind)) + " seed " + std::to_string(seed));
            const Compared c = run_both(hw, p, w);
            EXPECT_EQ(c.fsim.counters.errors, p.expected_errors) << w;
            EXPECT_EQ(c.rtl.counters.errors, p.expected_errors) << w;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Configs, IsaDifferential, ::testing::Values("default", "tiny"));

}  // namespace
}  // namespace accel::integration
