// From a plan to instructions (docs/tiling.md, "Schedule").
//
// The layer is cut into tiles (batch block, output rows, output columns, output-channel
// blocks) and each tile's reduction into chunks (input-channel blocks, kernel rows and
// columns). A step is one chunk of one tile: the LOADs it needs, then one GEMM. The last
// step of a tile is followed by the tile's DRAIN. Buffers are double-buffered where the
// plan says so, and dependency tokens make each reuse of a buffer half wait for the
// instruction that last read it:
//   ld2cp  the last LOAD of a step   -> that step's GEMM
//   cp2ld  a GEMM that last read a buffer half -> the first LOAD that overwrites it
//   cp2dr  the last GEMM of a tile   -> the tile's DRAIN
//   dr2cp  a tile's DRAIN            -> the first GEMM of the tile that reuses its ACC half
// Every token is pushed by an instruction earlier in program order than its consumer,
// so a full unit queue can never deadlock fetch.
#include "compiler/scheduler.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/int_math.hpp"
#include "compiler/rtl_timing.hpp"
#include "hw/dram_bus.hpp"

namespace accel {
namespace {

struct Extent {  // a half-open range [begin, begin + size)
    int64_t begin = 0, size = 0;
};

// What a buffer half holds, so that a step needing the same data does not reload it.
struct InpKey {
    int64_t nb, oh0, toh, ow0, tow, cb0, tcb, r0, tr, s0, ts;
    bool operator==(const InpKey&) const = default;
};
struct WgtKey {
    int64_t kb0, tkb, cb0, tcb, r0, tr, s0, ts;
    bool operator==(const WgtKey&) const = default;
};

struct Tile {
    int64_t nb;
    Extent oh, ow, kb;
    int64_t spatial_index = 0, kb_index = 0;  // among the batch blocks' spatial tiles, the kb tiles
};

struct Chunk {
    Extent cb, r, s;
    int64_t index = 0;  // among a tile's chunks
};

// Tracks what one SRAM region holds: either versions loaded in turn into its one or two
// halves, or (resident) every distinct tile in its own slot, each loaded once.
template <typename Key>
struct BufferTrack {
    int64_t halves = 1;
    int64_t half_entries = 0;          // entries of a half, or of a resident slot
    std::vector<int64_t> last_use;     // by version: last step that read it
    std::optional<Key> newest;         // key of the newest version
    std::vector<bool> slot_loaded;     // resident: by slot; empty otherwise
    uint32_t origin = 0;               // the region's first entry
    uint32_t current = 0;              // base of the tile the next GEMM reads, from origin

    bool resident() const { return !slot_loaded.empty(); }
    int64_t version() const { return static_cast<int64_t>(last_use.size()) - 1; }
    uint32_t base() const { return origin + current; }
    // True when `key` (in resident `slot`) is already in SRAM; makes it current.
    bool holds(const Key& key, int64_t slot) {
        if (!resident()) return newest == key;
        if (!slot_loaded[static_cast<size_t>(slot)]) return false;
        current = static_cast<uint32_t>(slot * half_entries);
        return true;
    }
    // Loads a new version; returns the step that must finish before it may be written
    // (the last reader of the half it overwrites), or -1.
    int64_t load(const Key& key, int64_t slot) {
        last_use.push_back(-1);
        newest = key;
        if (resident()) {
            slot_loaded[static_cast<size_t>(slot)] = true;
            current = static_cast<uint32_t>(slot * half_entries);
            return -1;
        }
        current = static_cast<uint32_t>((version() % halves) * half_entries);
        const int64_t previous = version() - halves;
        return previous >= 0 ? last_use[static_cast<size_t>(previous)] : -1;
    }
    // `depth` entries from `first`.
    void init(const BufferUse& use, int64_t depth, uint32_t first = 0) {
        origin = first;
        halves = use.resident ? 1 : use.buffers;
        half_entries = use.resident ? use.entries : depth / use.buffers;
        if (use.resident) slot_loaded.assign(static_cast<size_t>(use.buffers), false);
    }
};

// A tile's ACC region, walked alike by its GEMMs and its DRAIN: [kb][oh][ow] entries
// from its base. The loop extents (kb, rows, columns), then their strides.
std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t> acc_walk(const Tile& t) {
    return {static_cast<uint32_t>(t.kb.size), static_cast<uint32_t>(t.oh.size),
            static_cast<uint32_t>(t.ow.size), static_cast<uint32_t>(t.oh.size * t.ow.size),
            static_cast<uint32_t>(t.ow.size), 1};
}

class Emitter {
public:
    Emitter(const LoweredLayer& lowered, const HwParams& hw, const Conv2dPlan& plan,
            const DramLayout& dram, const BufferWindow& weights, const BufferWindow& params,
            int64_t max_instructions)
        : l_(lowered.layer),
          in_(lowered.input),
          hw_(hw),
          plan_(plan),
          dram_(dram),
          weights_loaded_(weights.loaded),
          params_loaded_(params.loaded),
          prm_origin_(params.base),
          max_insns_(max_instructions) {
        check_windows(weights, params);
        inp_.init(plan.inp, hw.inp_depth);
        wgt_.init(plan.wgt, weights.entries == 0 ? hw.wgt_depth - weights.base : weights.entries,
                  weights.base);
        oh_n_ = l_.out_h();
        ow_n_ = l_.out_w();
    }

    Conv2dProgram run();

private:
    void check_windows(const BufferWindow& weights, const BufferWindow& params) const;
    std::vector<Tile> tiles() const;
    std::vector<Chunk> chunks() const;
    void emit_step(const Tile& t, size_t tile_index, const Chunk& c, bool first, bool last);
    void emit_first_step_sliced(const Tile& t, size_t tile_index, const Chunk& c, bool first,
                                bool last);
    int64_t load_inputs(const Tile& t, const Chunk& c);
    int64_t load_weights(const Tile& t, const Chunk& c);
    int64_t load_params(const Tile& t, size_t tile_index);
    void emit_gemm(const Tile& t, size_t tile_index, const Chunk& c, bool first, bool last,
                   bool loaded);
    void emit_drain(const Tile& t, size_t tile_index);
    void split_last_tile();
    void wait_for(int64_t step, size_t first_load);
    uint32_t acc_base(size_t tile_index) const;
    uint32_t prm_slot(const Tile& t, size_t tile_index) const;

    const Conv2dLayer& l_;      // the lowered layer
    const InputGeometry& in_;   // its input in DRAM
    const HwParams& hw_;
    const Conv2dPlan& plan_;
    const DramLayout& dram_;
    const bool weights_loaded_;  // WGT holds them already: no weight LOADs (BufferWindow)
    const bool params_loaded_;   // PRM likewise: no parameter LOADs
    const uint32_t prm_origin_;  // the first PRM entry of the layer's window
    const int64_t max_insns_;
    int64_t oh_n_ = 0, ow_n_ = 0;
    int64_t chunks_ = 1;  // per tile; resident slots are by tile and chunk
    Conv2dProgram out_;
    BufferTrack<InpKey> inp_;
    BufferTrack<WgtKey> wgt_;
    std::vector<size_t> gemm_index_;        // by step: index of its GEMM in out_.insns
    std::vector<int64_t> tile_first_step_;  // by tile
    int64_t step_ = 0;
    int64_t prm_loaded_ = 0;                // blocks [0, prm_loaded_) are in PRM (all fit)
    int64_t last_token_gemm_ = -1;          // the GEMM that pushed the latest cp2ld token
    size_t tiles_total_ = 0;
};

// A window must hold what the plan puts in it: every copy of the largest tile when the
// plan streams them, its distinct tiles when it loads each once (the only kind that may
// find them loaded).
void check_window(const char* what, const BufferWindow& w, int64_t once, int64_t streamed,
                  int64_t depth) {
    const int64_t need = once > 0 ? once : streamed;
    const int64_t entries = w.entries == 0 ? depth - int64_t{w.base} : int64_t{w.entries};
    if ((w.loaded && once == 0) || need > entries || w.base + entries > depth) {
        throw std::logic_error(fmt::format(
            "schedule_conv2d: a {} window of {} entries from {} for a plan that needs {}{}",
            what, entries, w.base, need, w.loaded && once == 0 ? " and streams them" : ""));
    }
}

void Emitter::check_windows(const BufferWindow& weights, const BufferWindow& params) const {
    check_window("weight", weights, weights_loaded_once_entries(plan_, l_.shape),
                 plan_.wgt.entries * plan_.wgt.buffers, hw_.wgt_depth);
    check_window("parameter", params, params_loaded_once_entries(plan_),
                 plan_.prm.entries * plan_.prm.buffers, hw_.prm_depth);
}

std::vector<Tile> Emitter::tiles() const {
    std::vector<Tile> out;
    const TileSizes& ts = plan_.tile;
    auto extents = [](int64_t total, int64_t size) {
        std::vector<Extent> e;
        for (int64_t b = 0; b < total; b += size) e.push_back({b, std::min(size, total - b)});
        return e;
    };
    const auto ohs = extents(oh_n_, ts.oh), ows = extents(ow_n_, ts.ow),
               kbs = extents(plan_.kb, ts.kb);
    const auto n_spatial = static_cast<int64_t>(ohs.size() * ows.size());
    auto tile = [&](int64_t nb, size_t y, size_t x, size_t k) {
        const auto spatial = static_cast<int64_t>(y * ows.size() + x);
        out.push_back({nb, ohs[y], ows[x], kbs[k], nb * n_spatial + spatial,
                       static_cast<int64_t>(k)});
    };
    for (int64_t nb = 0; nb < plan_.nb; ++nb) {
        if (plan_.order == LoopOrder::WeightsOuter) {
            for (size_t k = 0; k < kbs.size(); ++k)
                for (size_t y = 0; y < ohs.size(); ++y)
                    for (size_t x = 0; x < ows.size(); ++x) tile(nb, y, x, k);
        } else {
            for (size_t y = 0; y < ohs.size(); ++y)
                for (size_t x = 0; x < ows.size(); ++x)
                    for (size_t k = 0; k < kbs.size(); ++k) tile(nb, y, x, k);
        }
    }
    return out;
}

std::vector<Chunk> Emitter::chunks() const {
    std::vector<Chunk> out;
    const TileSizes& ts = plan_.tile;
    for (int64_t cb = 0; cb < plan_.cb; cb += ts.cb)
        for (int64_t r = 0; r < l_.shape.r; r += ts.r)
            for (int64_t s = 0; s < l_.shape.s; s += ts.s)
                out.push_back({{cb, std::min(ts.cb, plan_.cb - cb)},
                               {r, std::min(ts.r, l_.shape.r - r)},
                               {s, std::min(ts.s, l_.shape.s - s)},
                               static_cast<int64_t>(out.size())});
    return out;
}

Conv2dProgram Emitter::run() {
    const std::vector<Tile> all_tiles = tiles();
    const std::vector<Chunk> all_chunks = chunks();
    tiles_total_ = all_tiles.size();
    chunks_ = static_cast<int64_t>(all_chunks.size());
    for (size_t i = 0; i < all_tiles.size(); ++i) {
        tile_first_step_.push_back(step_);
        for (size_t c = 0; c < all_chunks.size(); ++c) {
            emit_step(all_tiles[i], i, all_chunks[c], c == 0, c + 1 == all_chunks.size());
            if (static_cast<int64_t>(out_.insns.size()) > max_insns_) {
                throw Error(fmt::format("layer needs a program of more than {} instructions, "
                                        "the most the planner schedules; split the batch or "
                                        "the image",
                                        max_insns_));
            }
        }
        emit_drain(all_tiles[i], i);
    }
    split_last_tile();
    out_.insns.push_back(isa::Finish{});
    return std::move(out_);
}

// Nothing overlaps the last DRAIN. So the last GEMM is split by output rows: the DRAIN
// of its first rows runs under the GEMM of the rest, and only the rest's DRAIN is left
// at the end. The first part gets the most rows whose DRAIN the rest's GEMM hides.
void Emitter::split_last_tile() {
    if (out_.insns.size() < 2) return;
    auto* g = std::get_if<isa::Gemm>(&out_.insns[out_.insns.size() - 2]);
    auto* d = std::get_if<isa::Drain>(&out_.insns.back());
    if (g == nullptr || d == nullptr || g->n_oy < 2 || d->n_y != g->n_oy) return;
    const auto row_gemm = static_cast<int64_t>(isa::gemm_steps(*g) / g->n_oy);
    const int64_t row_beats = ceil_div(int64_t{d->n_kb} * d->n_x * hw_.batch * hw_.block_out,
                                       int64_t{hw_.beat_bytes});
    const int64_t drain_fixed = hw_.config.dram_latency_cycles + timing::kDrainOverhead;
    int64_t rows = 0;  // of the first part
    for (int64_t r = 1; r < g->n_oy; ++r) {
        if (drain_fixed + r * row_beats <= (g->n_oy - r) * row_gemm) rows = r;
    }
    if (rows == 0) return;
    const auto head = static_cast<uint32_t>(rows);
    isa::Gemm g1 = *g, g2 = *g;
    isa::Drain d1 = *d, d2 = *d;
    g1.n_oy = head;
    g1.tokens.push_prev = false;  // a cp2ld token, if any, comes when both parts are done
    g2.n_oy = g->n_oy - head;
    g2.acc_base += head * g->acc_oy;
    g2.inp_base += head * g->inp_oy;
    g2.tokens.pop_prev = g2.tokens.pop_next = false;  // taken by the first part
    d1.n_y = head;
    d1.tokens.push_prev = false;  // the ACC slot frees when both parts are drained
    d2.n_y = d->n_y - head;
    d2.acc_base += head * d->acc_y;
    d2.dram_base += head * d->dram_y;
    out_.insns.resize(out_.insns.size() - 2);
    out_.insns.insert(out_.insns.end(), {g1, d1, g2, d2});
}

void Emitter::emit_step(const Tile& t, size_t tile_index, const Chunk& c, bool first,
                        bool last) {
    // Slicing hides the first weights' LOAD: nothing to hide when they are on chip.
    const TileSizes step_tile{t.oh.size, t.ow.size, t.kb.size, c.cb.size, c.r.size, c.s.size};
    if (step_ == 0 && !weights_loaded_ && first_step_sliced(step_tile, l_.shape.s, hw_)) {
        emit_first_step_sliced(t, tile_index, c, first, last);
        ++step_;
        return;
    }
    const size_t first_load = out_.insns.size();
    int64_t wait = -1;
    wait = std::max(wait, load_params(t, tile_index));
    wait = std::max(wait, load_weights(t, c));
    wait = std::max(wait, load_inputs(t, c));
    const bool loaded = out_.insns.size() > first_load;
    if (loaded) {
        std::get<isa::Load>(out_.insns.back()).tokens.push_next = true;
        if (wait >= 0) wait_for(wait, first_load);
    }
    emit_gemm(t, tile_index, c, first, last, loaded);
    ++step_;
}

// The program's first step, nothing to overlap with yet: its weights are loaded one
// output-channel block at a time, each followed by the GEMM of that block, so the core
// starts after one block's weights instead of all of them. Same sums, same ACC entries.
void Emitter::emit_first_step_sliced(const Tile& t, size_t tile_index, const Chunk& c,
                                     bool first, bool last) {
    load_params(t, tile_index);
    load_weights(t, c);  // one LOAD of all t.kb planes (whole kernel rows): sliced below
    const isa::Load all = std::get<isa::Load>(out_.insns.back());
    out_.insns.pop_back();
    load_inputs(t, c);
    const uint32_t plane = static_cast<uint32_t>(c.r.size * c.s.size * c.cb.size);
    const bool ring = plan_.kb > hw_.prm_depth;
    for (int64_t kb = 0; kb < t.kb.size; ++kb) {
        isa::Load slice = all;
        slice.z_size = 1;
        slice.sram_base = all.sram_base + static_cast<uint32_t>(kb) * plane;
        slice.dram_base = all.dram_base + static_cast<uint32_t>(kb) * all.dram_z_stride;
        slice.tokens.push_next = true;
        out_.insns.push_back(slice);
        Tile one = t;
        one.kb = {t.kb.begin + kb, 1};
        const bool last_block = kb + 1 == t.kb.size;
        emit_gemm(one, tile_index, c, first, last && last_block, true);
        auto& g = std::get<isa::Gemm>(out_.insns.back());
        g.acc_base += static_cast<uint32_t>(kb) * g.acc_kb;
        g.wgt_base += static_cast<uint32_t>(kb) * plane;
        if (ring) g.prm_base += static_cast<uint32_t>(kb);
        if (!last_block) gemm_index_.pop_back();  // the step's GEMM is its last one
    }
}

// The first LOAD of this step pops a cp2ld token, pushed by a GEMM no earlier than
// `step`. Each GEMM pushes at most one token, so a later step that must wait for the
// same GEMM takes the next one instead (still before this step: see emit_step's caller).
void Emitter::wait_for(int64_t step, size_t first_load) {
    const int64_t g = std::max(step, last_token_gemm_ + 1);
    std::get<isa::Gemm>(out_.insns[gemm_index_[static_cast<size_t>(g)]]).tokens.push_prev = true;
    std::get<isa::Load>(out_.insns[first_load]).tokens.pop_next = true;
    last_token_gemm_ = g;
}

int64_t Emitter::load_inputs(const Tile& t, const Chunk& c) {
    const Conv2dParams& p = l_.params;
    const InpKey key{t.nb, t.oh.begin, t.oh.size, t.ow.begin, t.ow.size, c.cb.begin,
                     c.cb.size, c.r.begin, c.r.size, c.s.begin, c.s.size};
    const int64_t slot = t.spatial_index * chunks_ + c.index;
    if (inp_.holds(key, slot)) return -1;
    const int64_t wait = inp_.load(key, slot);
    const int64_t span_h = input_span(t.oh.size, p.stride_h, c.r.size, p.dilation_h);
    const int64_t span_w =
        in_.streamed_cols(input_span(t.ow.size, p.stride_w, c.s.size, p.dilation_w));
    // Window origin in the host-padded DRAM image (packing: in the original input).
    const int64_t y0 = t.oh.begin * p.stride_h - p.pad_top + c.r.begin * p.dilation_h +
                       in_.extra_pad_top;
    const int64_t x0 = t.ow.begin * p.stride_w - p.pad_left + c.s.begin * p.dilation_w +
                       in_.extra_pad_left - in_.pack_left;
    const int64_t y_lo = std::max<int64_t>(y0, 0), y_hi = std::min(y0 + span_h, in_.read_h);
    const int64_t x_lo = std::max<int64_t>(x0, 0), x_hi = std::min(x0 + span_w, in_.read_w);
    const int64_t e = hw_.inp_entry_bytes;
    isa::Load ld;
    ld.buffer = isa::Buffer::Inp;
    ld.sram_base = inp_.base();
    ld.z_size = static_cast<uint32_t>(c.cb.size);
    ld.pad_value = static_cast<int8_t>(p.input_zero_point);
    if (in_.pack_taps > 1) {
        ld.pack_taps = static_cast<uint32_t>(in_.pack_taps);
        ld.pack_bytes = static_cast<uint32_t>(in_.pack_bytes);
    }
    if (y_hi <= y_lo || x_hi <= x_lo) {  // the window lies wholly in the padding
        ld.dram_base = dram_.zx_row.base;
        ld.y_size = static_cast<uint32_t>(span_h);
        ld.x_size = static_cast<uint32_t>(span_w);
        ld.pad_value = 0;  // no padding entries: every byte comes from the zx row
        out_.load_bytes += c.cb.size * span_h * span_w * e;
    } else {
        const int64_t plane = in_.padded_h * in_.padded_w * e;
        const int64_t dram_y = in_.first_y + y_lo * in_.step_h;
        const int64_t dram_x = in_.first_x + x_lo * in_.step_w;
        ld.dram_base = static_cast<uint32_t>(dram_.input.base + (t.nb * plan_.cb + c.cb.begin) * plane +
                                             (dram_y * in_.padded_w + dram_x) * e);
        ld.dram_z_stride = static_cast<uint32_t>(plane);
        ld.dram_y_stride = static_cast<uint32_t>(in_.step_h * in_.padded_w * e);
        if (in_.step_w > 1) ld.dram_x_stride = static_cast<uint32_t>(in_.step_w * e);
        ld.y_size = static_cast<uint32_t>(y_hi - y_lo);
        ld.x_size = static_cast<uint32_t>(x_hi - x_lo);
        ld.pad_top = static_cast<uint32_t>(y_lo - y0);
        ld.pad_bottom = static_cast<uint32_t>(y0 + span_h - y_hi);
        ld.pad_left = static_cast<uint32_t>(x_lo - x0);
        ld.pad_right = static_cast<uint32_t>(x0 + span_w - x_hi);
        if (ld.pad_top + ld.pad_bottom + ld.pad_left + ld.pad_right == 0) ld.pad_value = 0;
        out_.load_bytes += c.cb.size * ld.y_size * ld.x_size * e;
    }
    out_.insns.push_back(ld);
    return wait;
}

int64_t Emitter::load_weights(const Tile& t, const Chunk& c) {
    const WgtKey key{t.kb.begin, t.kb.size, c.cb.begin, c.cb.size,
                     c.r.begin,  c.r.size,  c.s.begin,  c.s.size};
    const int64_t slot = t.kb_index * chunks_ + c.index;
    if (wgt_.holds(key, slot)) return -1;
    const int64_t wait = wgt_.load(key, slot);
    if (weights_loaded_) return -1;  // an earlier program left this tile where it goes
    const Conv2dShape& s = l_.shape;
    const int64_t e = hw_.wgt_entry_bytes;
    // DRAM [KB][R][S][CB]; SRAM [kb][r][s][cb]. With all S columns, (r, s) rows share one
    // stride; otherwise one LOAD per kernel row.
    const bool whole_rows = c.s.size == s.s;
    const int64_t loads = whole_rows ? 1 : c.r.size;
    for (int64_t i = 0; i < loads; ++i) {
        const int64_t r = c.r.begin + i;
        isa::Load ld;
        ld.buffer = isa::Buffer::Wgt;
        ld.sram_base = static_cast<uint32_t>(wgt_.base() + i * c.s.size * c.cb.size);
        ld.dram_base = static_cast<uint32_t>(
            dram_.weights.base +
            (((t.kb.begin * s.r + r) * s.s + c.s.begin) * plan_.cb + c.cb.begin) * e);
        ld.z_size = static_cast<uint32_t>(t.kb.size);
        ld.dram_z_stride = static_cast<uint32_t>(s.r * s.s * plan_.cb * e);
        ld.y_size = static_cast<uint32_t>(whole_rows ? c.r.size * s.s : c.s.size);
        ld.dram_y_stride = static_cast<uint32_t>(plan_.cb * e);
        ld.x_size = static_cast<uint32_t>(c.cb.size);
        // z planes are [r][s][cb] in SRAM: with several LOADs each plane is strided, so
        // those LOADs write one kb plane each.
        if (!whole_rows && t.kb.size > 1) {
            for (int64_t kb = 0; kb < t.kb.size; ++kb) {
                isa::Load one = ld;
                one.z_size = 1;
                one.sram_base = static_cast<uint32_t>(
                    wgt_.base() + (kb * c.r.size + i) * c.s.size * c.cb.size);
                one.dram_base = static_cast<uint32_t>(ld.dram_base + kb * ld.dram_z_stride);
                out_.insns.push_back(one);
            }
        } else {
            out_.insns.push_back(ld);
        }
        out_.load_bytes += t.kb.size * ld.y_size * ld.x_size * e;
    }
    return wait;
}

// When every block's parameters fit the table, each block is loaded once, at the first
// tile that needs it, together with the blocks that follow up to a LOAD whose beats
// match the DRAM latency (fewer, larger LOADs cost less latency; loading all of them
// before the first GEMM would delay it). The very first LOAD holds only the first
// tile's blocks. Tiles reach the blocks in increasing order, so the loaded ones are a
// prefix.
// Otherwise each tile loads its blocks into a ring of kPrmRing (P) slots. The slot of
// tile i was last used by tile i-P, whose DRAIN read it. With A ACC slots (A < P:
// plan.hpp) the first GEMM of tile j waits, through dr2cp, for the DRAIN of tile j-A to
// free its slot; so waiting for the first GEMM of tile i-P+A, earlier than tile i, is
// enough.
int64_t Emitter::load_params(const Tile& t, size_t tile_index) {
    const bool all_fit = plan_.kb <= hw_.prm_depth;
    const int64_t end = t.kb.begin + t.kb.size;
    if (step_ != tile_first_step_[tile_index] || (all_fit && end <= prm_loaded_)) return -1;
    isa::Load ld;
    ld.buffer = isa::Buffer::Prm;
    if (all_fit) {
        const int64_t group = ceil_div(hw_.config.dram_latency_cycles * hw_.beat_bytes,
                                       int64_t{hw_.prm_entry_bytes});
        const int64_t last =
            tile_index == 0 ? end : std::min(plan_.kb, std::max(end, prm_loaded_ + group));
        ld.sram_base = prm_origin_ + static_cast<uint32_t>(prm_loaded_);
        ld.dram_base = static_cast<uint32_t>(dram_.params.base + prm_loaded_ * hw_.prm_entry_bytes);
        ld.x_size = static_cast<uint32_t>(last - prm_loaded_);
        prm_loaded_ = last;
        if (params_loaded_) return -1;  // an earlier program left them in PRM
    } else {
        ld.sram_base = prm_slot(t, tile_index);
        ld.dram_base = static_cast<uint32_t>(dram_.params.base + t.kb.begin * hw_.prm_entry_bytes);
        ld.x_size = static_cast<uint32_t>(t.kb.size);
    }
    out_.insns.push_back(ld);
    out_.load_bytes += ld.x_size * hw_.prm_entry_bytes;
    const auto ring = static_cast<size_t>(kPrmRing);
    if (all_fit || tile_index < ring) return -1;
    return tile_first_step_[tile_index - ring + static_cast<size_t>(plan_.acc.buffers)];
}

// PRM entry of the tile's first output-channel block: its own block when all parameters
// are loaded at once, else its slot in the ring.
uint32_t Emitter::prm_slot(const Tile& t, size_t tile_index) const {
    if (plan_.kb <= hw_.prm_depth) return prm_origin_ + static_cast<uint32_t>(t.kb.begin);
    return prm_origin_ +
           static_cast<uint32_t>((tile_index % static_cast<size_t>(kPrmRing)) * plan_.tile.kb);
}

uint32_t Emitter::acc_base(size_t tile_index) const {
    const int64_t half = hw_.acc_depth / plan_.acc.buffers;
    return static_cast<uint32_t>(static_cast<int64_t>(tile_index % plan_.acc.buffers) * half);
}

void Emitter::emit_gemm(const Tile& t, size_t tile_index, const Chunk& c, bool first,
                        bool last, bool loaded) {
    const Conv2dParams& p = l_.params;
    const int64_t span_h = input_span(t.oh.size, p.stride_h, c.r.size, p.dilation_h);
    const int64_t span_w = input_span(t.ow.size, p.stride_w, c.s.size, p.dilation_w);
    isa::Gemm g;
    g.tokens.pop_prev = loaded;
    g.tokens.pop_next = first && static_cast<int64_t>(tile_index) >= plan_.acc.buffers;
    g.tokens.push_next = last;
    g.init = first;
    g.acc_base = acc_base(tile_index);
    g.inp_base = inp_.base();
    g.wgt_base = wgt_.base();
    g.prm_base = prm_slot(t, tile_index);
    std::tie(g.n_kb, g.n_oy, g.n_ox, g.acc_kb, g.acc_oy, g.acc_ox) = acc_walk(t);
    g.n_r = static_cast<uint32_t>(c.r.size);
    g.n_s = static_cast<uint32_t>(c.s.size);
    g.n_cb = static_cast<uint32_t>(c.cb.size);
    g.inp_oy = static_cast<uint32_t>(p.stride_h * span_w);
    g.inp_ox = static_cast<uint32_t>(p.stride_w);
    g.inp_r = static_cast<uint32_t>(p.dilation_h * span_w);
    g.inp_s = static_cast<uint32_t>(p.dilation_w);
    g.inp_cb = static_cast<uint32_t>(span_h * span_w);
    g.wgt_cb = 1;
    g.wgt_s = static_cast<uint32_t>(c.cb.size);
    g.wgt_r = static_cast<uint32_t>(c.s.size * c.cb.size);
    g.wgt_kb = static_cast<uint32_t>(c.r.size * c.s.size * c.cb.size);
    inp_.last_use.back() = step_;
    wgt_.last_use.back() = step_;
    gemm_index_.push_back(out_.insns.size());
    out_.insns.push_back(g);
    out_.gemm_steps += static_cast<int64_t>(isa::gemm_steps(g));
}

void Emitter::emit_drain(const Tile& t, size_t tile_index) {
    const Conv2dParams& p = l_.params;
    const int64_t entry = hw_.batch * hw_.block_out;
    isa::Drain d;
    d.tokens.pop_prev = true;
    d.tokens.push_prev = tile_index + static_cast<size_t>(plan_.acc.buffers) < tiles_total_;
    d.acc_base = acc_base(tile_index);
    d.prm_base = prm_slot(t, tile_index);
    std::tie(d.n_kb, d.n_y, d.n_x, d.acc_kb, d.acc_y, d.acc_x) = acc_walk(t);
    d.dram_x = static_cast<uint32_t>(entry);
    d.dram_y = static_cast<uint32_t>(ow_n_ * entry);
    d.dram_kb = static_cast<uint32_t>(oh_n_ * ow_n_ * entry);
    d.dram_b = static_cast<uint32_t>(hw_.block_out);
    d.dram_base = static_cast<uint32_t>(dram_.output.base + t.nb * plan_.kb * d.dram_kb +
                                        t.kb.begin * d.dram_kb + t.oh.begin * d.dram_y +
                                        t.ow.begin * d.dram_x);
    d.zy = static_cast<int8_t>(p.output_zero_point);
    d.act_min = static_cast<int8_t>(p.act_min);
    d.act_max = static_cast<int8_t>(p.act_max);
    d.double_scale = !p.double_scale.empty();
    d.round_up = p.round_up;
    out_.insns.push_back(d);
    out_.drain_bytes += t.kb.size * t.oh.size * t.ow.size * entry;
}

}  // namespace

Conv2dProgram schedule_conv2d(const LoweredLayer& lowered, const HwParams& hw,
                              const Conv2dPlan& plan, const LayerPlacement& placement) {
    if (plan.instructions <= 0) {
        throw Error("schedule_conv2d: the plan was not predicted (predict_plan counts the "
                    "instructions that place the program)");
    }
    // The constants lie behind the program that loads them: a program that finds them
    // loaded is shorter and reads the same constants.
    const DramLayout layout =
        make_dram_layout(lowered, hw, plan.tile, plan.instructions, placement);
    Conv2dProgram program = Emitter(lowered, hw, plan, layout, placement.weights,
                                    placement.params, std::numeric_limits<int64_t>::max()).run();
    const auto length = static_cast<int64_t>(program.insns.size());
    const bool shorter = placement.weights.loaded || placement.params.loaded;
    if (shorter ? length > plan.instructions : length != plan.instructions) {
        throw std::logic_error(fmt::format("schedule_conv2d: {} instructions for a plan of {}",
                                           program.insns.size(), plan.instructions));
    }
    program.lowered = lowered;
    program.layout = layout;
    return program;
}

Conv2dProgram schedule_conv2d(const Conv2dLayer& layer, const HwParams& hw,
                              const Conv2dPlan& plan) {
    return schedule_conv2d(lower(layer, plan.lowering), hw, plan);
}

Conv2dProgram schedule_unplaced(const LoweredLayer& lowered, const HwParams& hw,
                                const Conv2dPlan& plan, int64_t max_instructions,
                                const BufferWindow& weights, const BufferWindow& params) {
    const DramLayout layout = make_dram_layout(lowered, hw, plan.tile, 0);
    Conv2dProgram program =
        Emitter(lowered, hw, plan, layout, weights, params, max_instructions).run();
    // What the program would need placed: the layout with it must fit too.
    make_dram_layout(lowered, hw, plan.tile, static_cast<int64_t>(program.insns.size()));
    program.lowered = lowered;
    program.layout = layout;
    return program;
}

}  // namespace accel
