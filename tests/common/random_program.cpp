#include "random_program.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>

#include "ops/quant.hpp"

namespace accel::test {
namespace {

using isa::Buffer;
using isa::ErrorCode;

// DRAM addresses no test DRAM reaches: the bus-error programs read and write there.
constexpr uint32_t kFarAddress = 0xFFFF0000u;

// The program under construction: a random source, the DRAM image with its allocator,
// and the instruction words. Uses only mt19937's specified output, so a seed gives the
// same program with every standard library.
class Builder {
public:
    Builder(const HwParams& hw, uint32_t seed) : hw(hw), rng_(seed) {}

    uint32_t uniform(uint32_t lo, uint32_t hi) {  // inclusive
        return lo + static_cast<uint32_t>(rng_() % (uint64_t{hi} - lo + 1));
    }
    bool chance(uint32_t percent) { return uniform(0, 99) < percent; }
    uint8_t byte() { return static_cast<uint8_t>(rng_() >> 24); }

    // A fresh zeroed region of `bytes`, aligned to `align` (a multiple of the beat),
    // after a random gap of up to two beats.
    uint32_t alloc(uint64_t bytes, uint64_t align = 0) {
        const uint64_t a = align ? align : hw.beat_bytes;
        const uint64_t start = dram.size() + uint64_t{uniform(0, 2)} * hw.beat_bytes;
        const uint64_t addr = (start + a - 1) / a * a;
        if (addr + bytes > kFarAddress) throw std::logic_error("random program too large");
        dram.resize(addr + bytes, 0);
        return static_cast<uint32_t>(addr);
    }
    void fill_random(uint32_t addr, uint64_t bytes) {
        for (uint64_t i = 0; i < bytes; ++i) dram[addr + i] = byte();
    }
    void put(const isa::Insn& insn) { words.push_back(isa::encode(insn)); }

    const HwParams& hw;
    std::vector<uint8_t> dram;
    std::vector<isa::InsnWord> words;
    std::vector<DramRange> outputs;

private:
    std::mt19937 rng_;
};

// ---------------------------------------------------------------------------------------
// Layout helpers.

// Strides of a layout of `extents` in a random dimension order, innermost element
// `unit` apart, with occasional gaps of `gap` between dimensions. Returns the strides
// and (in *span) the distance from the first to past the last element's start.
std::vector<uint64_t> random_strides(Builder& b, const std::vector<uint32_t>& extents,
                                     uint64_t unit, uint64_t gap, uint64_t* span) {
    std::vector<size_t> order(extents.size());
    std::iota(order.begin(), order.end(), size_t{0});
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[b.uniform(0, i - 1)]);
    std::vector<uint64_t> strides(extents.size());
    uint64_t stride = unit, last = 0;
    for (size_t d : order) {
        strides[d] = stride;
        last += (extents[d] - 1) * stride;
        stride = stride * extents[d] + (b.chance(30) ? b.uniform(1, 2) * gap : 0);
    }
    *span = last + 1;
    return strides;
}

// ---------------------------------------------------------------------------------------
// One round: the ACC tile, its GEMMs, the loads they need, its drains.

struct Tile {
    uint32_t n_kb = 1, n_oy = 1, n_ox = 1;
    uint32_t acc_base = 0, acc_kb = 0, acc_oy = 0, acc_ox = 0;
    uint32_t prm_base = 0;
    uint32_t entries() const { return n_kb * n_oy * n_ox; }
};

struct Span {  // the SRAM entries [lo, hi] a round reads from one buffer
    uint32_t lo = UINT32_MAX, hi = 0;
    void add(uint32_t base, uint64_t last) {
        lo = std::min(lo, base);
        hi = std::max(hi, static_cast<uint32_t>(last));
    }
};

struct Round {
    Tile tile;
    std::vector<isa::Load> loads;
    std::vector<isa::Gemm> gemms;
    std::vector<isa::Drain> drains;
    Span inp, wgt;
    uint64_t terms = 0;  // products summed into each drained accumulator, bias aside
    bool double_scale = false;  // PRM holds double scales; the drains use them
};

// The round's accumulator tile; PRM is double-buffered: even rounds use entries 0-31.
Tile make_tile(Builder& b, uint32_t round) {
    Tile t;
    for (int attempt = 0; attempt < 32; ++attempt) {
        t.n_kb = b.uniform(1, 4), t.n_oy = b.uniform(1, 4), t.n_ox = b.uniform(1, 6);
        uint64_t span = 0;
        const auto s = random_strides(b, {t.n_kb, t.n_oy, t.n_ox}, 1, 1, &span);
        if (span > b.hw.acc_depth) continue;
        t.acc_kb = static_cast<uint32_t>(s[0]), t.acc_oy = static_cast<uint32_t>(s[1]);
        t.acc_ox = static_cast<uint32_t>(s[2]);
        t.acc_base = b.uniform(0, static_cast<uint32_t>(b.hw.acc_depth - span));
        t.prm_base = (round % 2) * (kPrmDepth / 2) + b.uniform(0, kPrmDepth / 2 - t.n_kb);
        return t;
    }
    t = Tile{};  // one entry: fits every buffer
    t.prm_base = (round % 2) * (kPrmDepth / 2);
    return t;
}

uint64_t inp_last(const isa::Gemm& g) {
    return uint64_t{g.inp_base} + uint64_t{g.n_oy - 1} * g.inp_oy +
           uint64_t{g.n_ox - 1} * g.inp_ox + uint64_t{g.n_r - 1} * g.inp_r +
           uint64_t{g.n_s - 1} * g.inp_s + uint64_t{g.n_cb - 1} * g.inp_cb;
}

uint64_t wgt_last(const isa::Gemm& g) {
    return uint64_t{g.wgt_base} + uint64_t{g.n_kb - 1} * g.wgt_kb + uint64_t{g.n_r - 1} * g.wgt_r +
           uint64_t{g.n_s - 1} * g.wgt_s + uint64_t{g.n_cb - 1} * g.wgt_cb;
}

// The reduction's strides: most often those of a real conv2d ([cb][h][w] input entries,
// [kb][r][s][cb] weights, with stride and dilation), otherwise arbitrary small ones.
void random_reduction_strides(Builder& b, isa::Gemm& g) {
    if (b.chance(70)) {
        const uint32_t sh = b.uniform(1, 2), sw = b.uniform(1, 2);
        const uint32_t dh = b.uniform(1, 2), dw = b.uniform(1, 2);
        const uint32_t wp = (g.n_ox - 1) * sw + (g.n_s - 1) * dw + 1 + b.uniform(0, 2);
        const uint32_t hp = (g.n_oy - 1) * sh + (g.n_r - 1) * dh + 1 + b.uniform(0, 2);
        g.inp_ox = sw, g.inp_s = dw, g.inp_oy = sh * wp, g.inp_r = dh * wp, g.inp_cb = hp * wp;
    } else {
        g.inp_oy = b.uniform(0, 5), g.inp_ox = b.uniform(0, 5), g.inp_r = b.uniform(0, 5);
        g.inp_s = b.uniform(0, 5), g.inp_cb = b.uniform(0, 5);
    }
    if (b.chance(70)) {
        g.wgt_cb = 1, g.wgt_s = g.n_cb, g.wgt_r = g.n_s * g.n_cb, g.wgt_kb = g.n_r * g.n_s * g.n_cb;
    } else {
        g.wgt_kb = b.uniform(0, 5), g.wgt_r = b.uniform(0, 5), g.wgt_s = b.uniform(0, 5);
        g.wgt_cb = b.uniform(0, 5);
    }
}

// A GEMM over the whole tile with a random reduction that fits INP and WGT.
isa::Gemm make_gemm(Builder& b, const Tile& t, bool init, uint64_t max_steps) {
    isa::Gemm g;
    g.init = init;
    g.n_kb = t.n_kb, g.n_oy = t.n_oy, g.n_ox = t.n_ox;
    g.acc_base = t.acc_base, g.acc_kb = t.acc_kb, g.acc_oy = t.acc_oy, g.acc_ox = t.acc_ox;
    g.prm_base = t.prm_base;
    for (int attempt = 0; attempt < 32; ++attempt) {
        g.n_r = b.uniform(1, 3), g.n_s = b.uniform(1, 3), g.n_cb = b.uniform(1, 4);
        while (uint64_t{t.entries()} * g.n_r * g.n_s * g.n_cb > max_steps &&
               g.n_r * g.n_s * g.n_cb > 1) {
            uint32_t& biggest = g.n_cb >= g.n_s && g.n_cb >= g.n_r ? g.n_cb
                                : g.n_s >= g.n_r                   ? g.n_s
                                                                   : g.n_r;
            --biggest;
        }
        random_reduction_strides(b, g);
        g.inp_base = g.wgt_base = 0;
        const uint64_t inp_span = inp_last(g) + 1, wgt_span = wgt_last(g) + 1;
        if (inp_span > b.hw.inp_depth || wgt_span > b.hw.wgt_depth) continue;
        g.inp_base = b.uniform(0, static_cast<uint32_t>(b.hw.inp_depth - inp_span));
        g.wgt_base = b.uniform(0, static_cast<uint32_t>(b.hw.wgt_depth - wgt_span));
        return g;
    }
    g.n_r = g.n_s = g.n_cb = 1;  // every reduction stride 0: one entry of each buffer
    g.inp_oy = g.inp_ox = g.inp_r = g.inp_s = g.inp_cb = 0;
    g.wgt_kb = g.wgt_r = g.wgt_s = g.wgt_cb = 0;
    return g;
}

// ---------------------------------------------------------------------------------------
// Loads.

// PRM entries whose requantization maps the round's sums (about `terms` products of
// two uniform int8 values each, plus the bias) onto a spread of int8 outputs; with
// `double_scale`, as a double-scale DRAIN reads them.
std::vector<int32_t> prm_entry(Builder& b, uint64_t terms, bool double_scale) {
    const uint32_t bo = b.hw.block_out;
    const double sd = 5476.0 * std::sqrt(static_cast<double>(std::max<uint64_t>(terms, 1)));
    std::vector<int32_t> e(3 * size_t{bo});
    for (uint32_t o = 0; o < bo; ++o) {
        const double scale = std::min(
            0.99, 30.0 / sd * std::exp2((static_cast<int>(b.uniform(0, 200)) - 100) / 100.0));
        const QuantizedMultiplier q = quantize_multiplier(scale);
        e[o] = static_cast<int32_t>(static_cast<int64_t>(b.uniform(0, 4000)) - 2000) *
               static_cast<int32_t>(std::max(1.0, sd / 1000.0));
        e[bo + o] = q.multiplier;
        e[2 * bo + o] = q.shift;
        if (b.chance(15)) {  // the same scale through a left shift and a smaller multiplier
            const auto left = static_cast<int32_t>(b.uniform(1, 8));
            e[bo + o] = q.multiplier >> std::min(31, left - q.shift);
            e[2 * bo + o] = left;
        } else if (b.chance(5)) {  // left shifts that wrap
            e[2 * bo + o] = static_cast<int32_t>(b.uniform(9, isa::kPrmShiftMax));
        }
        if (b.chance(10)) {  // outside [-31, 30]: the hardware clamps
            static constexpr int32_t kOut[] = {-32, 31, -1000, 1000, INT32_MIN, INT32_MAX};
            e[2 * bo + o] = kOut[b.uniform(0, 5)];
        }
        if (double_scale) {  // the scale's bits, or sometimes any 64 bits
            const uint64_t word = b.chance(90) ? std::bit_cast<uint64_t>(scale)
                                               : uint64_t{b.uniform(0, UINT32_MAX)} << 32 |
                                                     b.uniform(0, UINT32_MAX);
            e[bo + o] = static_cast<int32_t>(static_cast<uint32_t>(word));
            e[2 * bo + o] = static_cast<int32_t>(static_cast<uint32_t>(word >> 32));
        }
    }
    return e;
}

// Lays the LOAD's DRAM source out: random (sometimes zero) strides, sometimes entries
// apart, and random bytes, or, for PRM, the given entries at non-overlapping addresses.
void place_source(Builder& b, isa::Load& l, const std::vector<std::vector<int32_t>>* prm) {
    const uint32_t eb = l.buffer == Buffer::Inp   ? b.hw.inp_entry_bytes
                        : l.buffer == Buffer::Wgt ? b.hw.wgt_entry_bytes
                                                  : b.hw.prm_entry_bytes;
    const uint32_t beat = b.hw.beat_bytes;
    if (b.chance(25)) {  // entries apart in DRAM, one entry exactly, or overlapping
        const uint32_t kStrides[] = {eb + beat, eb + 3 * beat, eb, beat};
        l.dram_x_stride = kStrides[b.uniform(0, prm == nullptr ? 3 : 2)];  // PRM's apart
    }
    const uint32_t xs = isa::load_x_stride(l, b.hw);
    const uint32_t row = (l.x_size - 1) * xs + eb;  // bytes from a row's first entry to its end
    const bool repeat = prm == nullptr && b.chance(15);
    l.dram_y_stride = repeat && l.y_size > 1 ? 0 : row + b.uniform(0, 2) * beat;
    l.dram_z_stride = repeat && l.z_size > 1
                          ? 0
                          : (l.y_size - 1) * l.dram_y_stride + row + b.uniform(0, 2) * beat;
    const uint64_t bytes =
        uint64_t{l.z_size - 1} * l.dram_z_stride + uint64_t{l.y_size - 1} * l.dram_y_stride + row;
    l.dram_base = b.alloc(bytes);
    if (prm == nullptr) {
        b.fill_random(l.dram_base, bytes);
        return;
    }
    for (uint32_t z = 0; z < l.z_size; ++z) {
        for (uint32_t y = 0; y < l.y_size; ++y) {
            for (uint32_t x = 0; x < l.x_size; ++x) {
                const auto& e = (*prm)[l.sram_base + (z * l.y_size + y) * l.x_size + x];
                std::memcpy(
                    &b.dram[l.dram_base + z * l.dram_z_stride + y * l.dram_y_stride + x * xs],
                    e.data(), eb);
            }
        }
    }
}

// LOADs of random shapes (padding for INP) that together write exactly entries [lo, hi].
void cover(Builder& b, Buffer buf, uint32_t lo, uint32_t hi, Round& r,
           const std::vector<std::vector<int32_t>>* prm) {
    for (uint32_t next = lo; next <= hi;) {
        const uint32_t remaining = hi - next + 1;
        isa::Load l;
        l.buffer = buf;
        l.sram_base = next;
        if (buf == Buffer::Inp && b.chance(50)) {
            l.pad_top = b.uniform(0, 2), l.pad_bottom = b.uniform(0, 2);
            l.pad_left = b.uniform(0, 2), l.pad_right = b.uniform(0, 2);
            l.pad_value = static_cast<int8_t>(b.byte());
        }
        l.x_size = b.uniform(1, std::min(remaining, 8u));
        if (l.pad_left + l.x_size + l.pad_right > remaining) l.pad_left = l.pad_right = 0;
        const uint32_t padded_w = l.pad_left + l.x_size + l.pad_right;
        if (buf == Buffer::Inp && b.chance(20)) {  // channel packing: fewer entries a row
            l.pack_taps = b.uniform(1, std::min(padded_w, b.hw.block_in));
            l.pack_bytes = b.uniform(1, b.hw.block_in / l.pack_taps);
        }
        const auto w = static_cast<uint32_t>(isa::load_row_entries(l));
        l.y_size = b.uniform(1, 4);
        if ((l.pad_top + l.y_size + l.pad_bottom) * w > remaining) {
            l.pad_top = l.pad_bottom = 0;
            l.y_size = std::min(l.y_size, remaining / w);
        }
        const uint32_t plane = (l.pad_top + l.y_size + l.pad_bottom) * w;
        l.z_size = b.uniform(1, std::max(1u, std::min(3u, remaining / plane)));
        place_source(b, l, prm);
        r.loads.push_back(l);
        next += l.z_size * plane;
    }
}

void make_loads(Builder& b, Round& r) {
    std::vector<std::vector<int32_t>> prm(kPrmDepth);
    for (uint32_t kb = 0; kb < r.tile.n_kb; ++kb) prm[r.tile.prm_base + kb] = prm_entry(b, r.terms, r.double_scale);
    const std::pair<Buffer, const Span*> spans[] = {{Buffer::Inp, &r.inp}, {Buffer::Wgt, &r.wgt}};
    const bool prm_first = b.chance(50);
    if (prm_first)
        cover(b, Buffer::Prm, r.tile.prm_base, r.tile.prm_base + r.tile.n_kb - 1, r, &prm);
    for (const auto& [buf, span] : spans) cover(b, buf, span->lo, span->hi, r, nullptr);
    if (!prm_first)
        cover(b, Buffer::Prm, r.tile.prm_base, r.tile.prm_base + r.tile.n_kb - 1, r, &prm);
}

// ---------------------------------------------------------------------------------------
// Drains.

// One DRAIN of tile blocks [kb0, kb0+n_kb) x rows [y0, y0+n_y), to a fresh DRAM region.
isa::Drain make_drain(Builder& b, const Tile& t, uint32_t kb0, uint32_t n_kb, uint32_t y0,
                      uint32_t n_y, bool double_scale) {
    isa::Drain d;
    d.acc_base = t.acc_base + kb0 * t.acc_kb + y0 * t.acc_oy;
    d.prm_base = t.prm_base + kb0;
    d.n_kb = n_kb, d.n_y = n_y, d.n_x = t.n_ox;
    d.acc_kb = t.acc_kb, d.acc_y = t.acc_oy, d.acc_x = t.acc_ox;
    uint64_t span = 0;
    const auto s =
        random_strides(b, {n_kb, n_y, t.n_ox, b.hw.batch}, b.hw.block_out, b.hw.beat_bytes, &span);
    d.dram_kb = static_cast<uint32_t>(s[0]), d.dram_y = static_cast<uint32_t>(s[1]);
    d.dram_x = static_cast<uint32_t>(s[2]), d.dram_b = static_cast<uint32_t>(s[3]);
    const uint64_t bytes = span - 1 + b.hw.block_out;
    d.dram_base = b.alloc(bytes);
    b.outputs.push_back({d.dram_base, static_cast<uint32_t>(bytes)});
    d.zy = static_cast<int8_t>(static_cast<int32_t>(b.uniform(0, 40)) - 20);
    if (b.chance(25)) {
        const auto lo = static_cast<int8_t>(b.byte()), hi = static_cast<int8_t>(b.byte());
        d.act_min = std::min(lo, hi), d.act_max = std::max(lo, hi);
    }
    d.double_scale = double_scale;
    if (!double_scale && b.chance(25)) {  // add mode: second operands j blocks on, still in the tile
        d.add = true;
        d.add_shift = b.uniform(0, static_cast<uint32_t>(isa::field_max(isa::kAddShiftBits)));
        d.acc_add = b.uniform(0, t.n_kb - kb0 - n_kb) * t.acc_kb;
    }
    d.round_up = !double_scale && b.chance(50);  // --match opt's rounding, plain or add mode
    return d;
}

// The tile in 1..max pieces, cut along output-channel blocks or along rows.
void make_drains(Builder& b, Round& r, uint32_t max_pieces) {
    const Tile& t = r.tile;
    const bool by_kb = t.n_kb > 1 && (t.n_oy == 1 || b.chance(50));
    const uint32_t extent = by_kb ? t.n_kb : t.n_oy;
    const uint32_t pieces = b.uniform(1, std::min(extent, std::max(1u, max_pieces)));
    std::vector<uint32_t> cuts{0, extent};
    while (cuts.size() < pieces + 1) {
        const uint32_t c = b.uniform(1, extent - 1);
        if (std::find(cuts.begin(), cuts.end(), c) == cuts.end()) cuts.push_back(c);
    }
    std::sort(cuts.begin(), cuts.end());
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
        const uint32_t a = cuts[i], n = cuts[i + 1] - cuts[i];
        r.drains.push_back(by_kb ? make_drain(b, t, a, n, 0, t.n_oy, r.double_scale)
                                 : make_drain(b, t, 0, t.n_kb, a, n, r.double_scale));
    }
}

Round make_round(Builder& b, uint32_t index, const RandomProgramOptions& opt) {
    Round r;
    r.tile = make_tile(b, index);
    r.double_scale = b.chance(20);
    const uint32_t n_gemms = b.uniform(1, std::max(1u, opt.max_gemms_per_round));
    for (uint32_t i = 0; i < n_gemms; ++i) {
        const isa::Gemm g = make_gemm(b, r.tile, i == 0 || b.chance(20), opt.max_steps_per_gemm);
        const uint64_t terms = uint64_t{g.n_r} * g.n_s * g.n_cb * b.hw.block_in;
        r.terms = g.init ? terms : r.terms + terms;
        r.inp.add(g.inp_base, inp_last(g));
        r.wgt.add(g.wgt_base, wgt_last(g));
        r.gemms.push_back(g);
    }
    make_loads(b, r);
    make_drains(b, r, opt.max_drains_per_round);
    return r;
}

// ---------------------------------------------------------------------------------------
// Tokens and the stream.

// Round k's loads wait until round k-1's GEMMs are done with INP/WGT (cp2ld); its GEMMs
// wait for its loads (ld2cp) and for round k-1's drains to free ACC (dr2cp); its drains
// wait for its GEMMs (cp2dr). The last round pushes nothing back, so no token is left.
void set_tokens(Round& r, bool first, bool last) {
    r.loads.front().tokens.pop_next = !first;
    r.loads.back().tokens.push_next = true;
    r.gemms.front().tokens.pop_prev = true;
    r.gemms.front().tokens.pop_next = !first;
    r.gemms.back().tokens.push_prev = !last;
    r.gemms.back().tokens.push_next = true;
    r.drains.front().tokens.pop_prev = true;
    r.drains.back().tokens.push_prev = !last;
}

template <typename T>
void put_all(Builder& b, const std::vector<T>& v) {
    for (const T& insn : v) b.put(insn);
}

// The valid rounds, without FINISH. Program order is a topological order of the token
// dependencies, so fetch can never block behind an instruction that waits for a later
// one; a round's drains come after the next round's loads half of the time, so loads
// and drains overlap.
void emit_rounds(Builder& b, const RandomProgramOptions& opt) {
    const uint32_t n = b.uniform(1, std::max(1u, opt.max_rounds));
    std::vector<Round> rounds;
    for (uint32_t k = 0; k < n; ++k) {
        rounds.push_back(make_round(b, k, opt));
        set_tokens(rounds.back(), k == 0, k + 1 == n);
    }
    bool drains_pending = false;
    for (uint32_t k = 0; k < n; ++k) {
        put_all(b, rounds[k].loads);
        if (drains_pending) put_all(b, rounds[k - 1].drains);
        put_all(b, rounds[k].gemms);
        drains_pending = k + 1 < n && b.chance(50);
        if (!drains_pending) put_all(b, rounds[k].drains);
    }
}

// Writes the words into the image (at its end when `at_end`, so that fetching past the
// last word leaves the DRAM) and returns the program.
RandomProgram place(Builder& b, uint32_t count, bool at_end = false) {
    RandomProgram p;
    const uint64_t bytes = b.words.size() * isa::kInsnBytes;
    p.insn_addr = b.alloc(bytes, std::max<uint64_t>(isa::kInsnBytes, b.hw.beat_bytes));
    for (size_t i = 0; i < b.words.size(); ++i) {
        std::memcpy(&b.dram[p.insn_addr + i * isa::kInsnBytes], b.words[i].data(), isa::kInsnBytes);
        p.insns.push_back(isa::decode(b.words[i], b.hw).insn);
    }
    if (!at_end) b.dram.resize(b.dram.size() + b.uniform(0, 4) * isa::kInsnBytes, 0);
    p.insn_count = count;
    p.dram = std::move(b.dram);
    p.outputs = std::move(b.outputs);
    return p;
}

// ---------------------------------------------------------------------------------------
// Error programs. Each starts with valid rounds (all their tokens consumed), so the error
// happens in a machine that has done real work.

void valid_prefix(Builder& b) {
    RandomProgramOptions o;
    o.max_rounds = 2;
    o.max_steps_per_gemm = 256;
    emit_rounds(b, o);
}

void insert_at_random(Builder& b, const isa::InsnWord& w) {
    const auto at = b.uniform(0, static_cast<uint32_t>(b.words.size()));
    b.words.insert(b.words.begin() + at, w);
}

// A default instruction of a random opcode with one bit no field of docs/isa.md owns.
isa::InsnWord reserved_bit_set(Builder& b) {
    static const isa::Opcode kOps[] = {isa::Opcode::Load, isa::Opcode::Gemm, isa::Opcode::Drain,
                                       isa::Opcode::Finish};
    const isa::Opcode op = kOps[b.uniform(0, 3)];
    std::vector<bool> owned(isa::kInsnBytes * 8, false);
    std::fill_n(owned.begin(), 4, true);  // opcode
    for (const isa::FieldInfo& f : isa::fields_of(op))
        std::fill_n(owned.begin() + f.lo, f.width, true);
    const isa::Insn insns[] = {isa::Load{}, isa::Gemm{}, isa::Drain{}, isa::Finish{}};
    isa::InsnWord w = isa::encode(insns[static_cast<int>(op) - 1]);
    uint32_t bit = 0;
    do {
        bit = b.uniform(0, isa::kInsnBytes * 8 - 1);
    } while (owned[bit]);
    w[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
    return w;
}

isa::InsnWord illegal_word(Builder& b) {
    switch (b.uniform(0, 6)) {
        case 0: {
            isa::InsnWord w{};
            for (auto& byte : w) byte = b.byte();
            const uint8_t bad[] = {0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
            w[0] = static_cast<uint8_t>((w[0] & 0xF0) | bad[b.uniform(0, 11)]);
            return w;
        }
        case 1: return reserved_bit_set(b);
        case 2: {
            isa::Load l;
            l.tokens.pop_prev = true;
            return isa::encode(l);
        }
        case 3: {
            isa::Drain d;
            d.act_min = 5;
            d.act_max = 4;
            return isa::encode(d);
        }
        case 4: {
            isa::Gemm g;
            g.n_cb = 0;
            return isa::encode(g);
        }
        case 5: {
            isa::Load l;
            l.buffer = static_cast<Buffer>(3);
            return isa::encode(l);
        }
        default: {
            isa::Load l;  // a beat is at least 1 byte; with 1, fall back to a zero extent
            if (b.hw.beat_bytes > 1)
                l.dram_base = b.hw.beat_bytes / 2;
            else
                l.x_size = 0;
            return isa::encode(l);
        }
    }
}

// Each touches exactly one entry past the end of one buffer (addresses stay within their
// 16-bit fields even for a 65536-entry buffer).
isa::InsnWord out_of_range_word(Builder& b) {
    const HwParams& hw = b.hw;
    isa::Load l;
    isa::Gemm g;
    isa::Drain d;
    switch (b.uniform(0, 5)) {
        case 0:
            l.sram_base = hw.inp_depth - 1;
            l.y_size = 2;
            return isa::encode(l);
        case 1:
            l.buffer = Buffer::Wgt;
            l.sram_base = hw.wgt_depth - 1;
            l.z_size = 2;
            return isa::encode(l);
        case 2:
            g.acc_base = hw.acc_depth - 1;
            g.n_ox = 2;
            g.acc_ox = 1;
            return isa::encode(g);
        case 3:
            g.prm_base = hw.prm_depth - 1;
            g.n_kb = 2;
            return isa::encode(g);  // init = 0
        case 4:
            g.inp_base = 1;
            g.n_cb = 2;
            g.inp_cb = hw.inp_depth - 1;
            return isa::encode(g);
        default:
            d.acc_base = hw.acc_depth - 1;
            d.n_x = 2;
            d.acc_x = 1;
            return isa::encode(d);
    }
}

// 256 pushes onto one token queue that nothing pops. Only the DRAIN flood may follow
// valid rounds: flooding LOADs or GEMMs would overwrite INP or ACC while those rounds
// still read them, a race that would make the DRAM contents timing-dependent.
void token_flood(Builder& b) {
    const uint32_t variant = b.uniform(0, 3);
    if (variant == 3 && b.chance(50)) valid_prefix(b);
    isa::Load l;
    isa::Drain d;
    if (variant == 2) {
        l.dram_base = b.alloc(b.hw.inp_entry_bytes);
        b.fill_random(l.dram_base, b.hw.inp_entry_bytes);
        l.tokens.push_next = true;
    }
    if (variant == 3) {
        d.dram_base = b.alloc(b.hw.block_out * b.hw.batch);
        d.dram_b = b.hw.block_out;
        b.outputs.push_back({d.dram_base, b.hw.block_out * b.hw.batch});
        d.tokens.push_prev = true;
    }
    isa::Gemm g;
    (variant == 0 ? g.tokens.push_next : g.tokens.push_prev) = true;
    for (uint32_t i = 0; i <= kTokenMax; ++i) {
        if (variant < 2) b.put(g);
        if (variant == 2) b.put(l);
        if (variant == 3) b.put(d);
    }
}

// Instructions that wait for tokens nobody will push.
void deadlock_tail(Builder& b) {
    constexpr isa::Tokens kPopPrev{.pop_prev = true}, kPopNext{.pop_next = true};
    // A lone waiter on each queue: ld2cp, cp2dr, cp2ld, dr2cp.
    const isa::Insn lone_waiters[] = {isa::Gemm{.tokens = kPopPrev}, isa::Drain{.tokens = kPopPrev},
                                      isa::Load{.tokens = kPopNext}, isa::Gemm{.tokens = kPopNext}};
    const uint32_t variant = b.uniform(0, 5);
    if (variant < 4) {
        b.put(lone_waiters[variant]);
    } else if (variant == 4) {
        // The ninth LOAD finds its queue full: the GEMMs behind it never dispatch.
        for (int i = 0; i < 9; ++i) b.put(isa::Load{.tokens = kPopNext});
        for (int i = 0; i < 9; ++i) b.put(isa::Gemm{.tokens = {.push_prev = true}});
    } else {  // each waits for the other
        b.put(isa::Gemm{.tokens = {.pop_next = true, .push_next = true}});
        b.put(isa::Drain{.tokens = {.pop_prev = true, .push_prev = true}});
    }
}

RandomProgram bus_error_program(Builder& b) {
    valid_prefix(b);
    const uint32_t variant = b.uniform(0, 2);
    if (variant == 2) {  // fetch runs off the end of the DRAM
        return place(b, static_cast<uint32_t>(b.words.size()) + 1, true);
    }
    if (variant == 0) {
        isa::Load l;
        l.dram_base = kFarAddress;
        insert_at_random(b, isa::encode(l));
    } else {
        isa::Drain d;
        d.dram_base = kFarAddress;
        insert_at_random(b, isa::encode(d));
    }
    b.put(isa::Finish{});
    return place(b, static_cast<uint32_t>(b.words.size()));
}

RandomProgram no_finish_program(Builder& b) {
    valid_prefix(b);
    const auto n = static_cast<uint32_t>(b.words.size());
    switch (b.uniform(0, 2)) {
        case 0: return place(b, 0);
        case 1: return place(b, b.uniform(1, n));
        default: b.put(isa::Finish{}); return place(b, n);  // the FINISH is just out of reach
    }
}

}  // namespace

RandomProgram make_random_program(const HwParams& params, uint32_t seed,
                                  const RandomProgramOptions& options) {
    Builder b(params, seed);
    emit_rounds(b, options);
    b.put(isa::Finish{});
    return place(b, static_cast<uint32_t>(b.words.size()));
}

RandomProgram make_error_program(const HwParams& params, uint32_t seed, ErrorCode kind) {
    Builder b(params, seed);
    RandomProgram p;
    switch (kind) {
        case ErrorCode::IllegalInstruction:
        case ErrorCode::SramRange:
            valid_prefix(b);
            insert_at_random(b,
                             kind == ErrorCode::SramRange ? out_of_range_word(b) : illegal_word(b));
            b.put(isa::Finish{});
            p = place(b, static_cast<uint32_t>(b.words.size()));
            break;
        case ErrorCode::BusError: p = bus_error_program(b); break;
        case ErrorCode::TokenOverflow:
        case ErrorCode::Deadlock:
            if (kind == ErrorCode::TokenOverflow) {
                token_flood(b);
            } else {
                if (b.chance(50)) valid_prefix(b);  // the tail executes nothing: no race
                deadlock_tail(b);
            }
            b.put(isa::Finish{});
            p = place(b, static_cast<uint32_t>(b.words.size()));
            break;
        case ErrorCode::NoFinish: p = no_finish_program(b); break;
        case ErrorCode::Ok: throw std::invalid_argument("make_error_program: kind Ok");
    }
    p.expected_errors = isa::error_bit(kind);
    return p;
}

DeviceCounters run_program(Device& device, const RandomProgram& program) {
    if (device.dram_bytes() < program.dram.size()) {
        throw std::invalid_argument("run_program: the device's DRAM is smaller than the image");
    }
    device.write_dram(0, program.dram);
    return device.run(program.insn_addr, program.insn_count);
}

}  // namespace accel::test
