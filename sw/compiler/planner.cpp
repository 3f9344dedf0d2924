// The planner (docs/tiling.md): enumerate tilings that fit every buffer, rank them
// with a quick analytical estimate, and schedule the best few through the cost model,
// which predicts the cycles the RTL takes; the fewest predicted cycles wins.
#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/int_math.hpp"
#include "compiler/cost_model.hpp"
#include "compiler/plan.hpp"
#include "compiler/planner.hpp"
#include "compiler/rtl_timing.hpp"
#include "compiler/scheduler.hpp"
#include "hw/dram_bus.hpp"
#include "hw/isa.hpp"

namespace accel {
namespace {

// The 32-bit DRAM addresses of the ISA.
constexpr auto kMaxDramBytes = static_cast<int64_t>(dram_bus::kMaxDramBytes);

// The planner schedules, and the cost model walks, every instruction of each plan it
// considers: about half a microsecond each. These two bounds keep every plan well under
// a second and its memory small. A layer whose programs would pass kMaxInstructions
// (32 MiB of DRAM; a ResNet-18 layer has a few hundred, a 1080p layer of 256 channels
// 355,000) is refused -- split it -- and after the first candidate the search schedules
// no more than kMaxScheduled instructions in all.
constexpr int64_t kMaxInstructions = int64_t{1} << 19;
constexpr int64_t kMaxScheduled = int64_t{1} << 20;

// Fewer instructions than any schedule of the tiling has: a GEMM per step (a tile's
// reduction chunk) and a DRAIN per tile.
int64_t min_instructions(const TilingExtents& l, const TileSizes& t) {
    const int64_t tiles = saturating_product({l.nb, ceil_div(l.out_h, t.oh),
                                              ceil_div(l.out_w, t.ow), ceil_div(l.kb, t.kb)});
    const int64_t chunks = saturating_product({ceil_div(l.cb, t.cb), ceil_div(l.r, t.r),
                                               ceil_div(l.s, t.s)});
    return saturating_add(saturating_mul(tiles, chunks), tiles);
}

// A count for a message; a saturated one is only known to be huge.
std::string count_text(int64_t n) {
    return n == std::numeric_limits<int64_t>::max() ? "over 2^63" : std::to_string(n);
}

// Tile sizes worth trying along an extent: every ceil(n/k), i.e. the sizes that split
// n into k nearly equal tiles (no size between two of them uses fewer tiles).
std::vector<int64_t> split_sizes(int64_t n, int64_t limit) {
    std::vector<int64_t> sizes;
    for (int64_t k = 1; k <= n; ++k) {
        const int64_t size = ceil_div(n, k);
        if (size <= limit && (sizes.empty() || sizes.back() != size)) sizes.push_back(size);
    }
    return sizes;  // largest first
}

// The extents the planner tiles: those of the lowered layer, with how its LOADs read
// the input (entries apart for Subsample, P-1 entries past each row for PackColumns).
TilingExtents lowered_extents(const LoweredLayer& l, const HwParams& hw) {
    TilingExtents e = tiling_extents(l.layer, hw);
    e.input_entries_apart = reads_entries_apart(l.original, l.lowering);
    e.input_row_extra = l.lowering.pack - 1;  // pack is 1 but for PackColumns
    return e;
}

// A quick estimate of a tiling's cycles, to rank candidates before the exact cost model:
// the largest of the stepped GEMMs, the bus beats and the load unit's serial LOADs, plus
// what cannot overlap (the first loads, the last drain, the first pass that fills a
// resident buffer) and the cost of single buffering. Only tilings candidates() admits
// get here: at most kMaxInstructions steps, of a layer whose tensors fit 4 GiB, so
// every product below fits in int64.
int64_t estimate(const TilingExtents& l, const HwParams& hw, const Conv2dPlan& p) {
    const TileSizes& t = p.tile;
    const int64_t oh_t = ceil_div(l.out_h, t.oh), ow_t = ceil_div(l.out_w, t.ow);
    const int64_t kb_t = ceil_div(p.kb, t.kb);
    const int64_t chunks = ceil_div(p.cb, t.cb) * ceil_div(l.r, t.r) * ceil_div(l.s, t.s);
    const int64_t tiles = p.nb * oh_t * ow_t * kb_t;
    const int64_t spatial = oh_t * ow_t;
    const int64_t latency = hw.config.dram_latency_cycles;
    // An input tile's bytes, as bus time: entries read apart are bursts of their own,
    // max_outstanding of them per round trip, so each counts as the beats it holds the
    // load unit for.
    const int64_t entry_beats = hw.inp_entry_bytes / hw.beat_bytes;
    const int64_t entry_cycles =
        l.input_entries_apart
            ? std::max(entry_beats, ceil_div(latency + entry_beats, int64_t{hw.config.dram_max_outstanding}))
            : entry_beats;
    const int64_t inp_rows = t.cb * input_span(t.oh, l.stride_h, t.r, l.dilation_h);
    const int64_t inp_read = p.inp.entries + inp_rows * l.input_row_extra;  // entries read
    const int64_t inp_tile = inp_read * entry_cycles * hw.beat_bytes;
    const int64_t wgt_tile = p.wgt.entries * hw.wgt_entry_bytes;
    const int64_t steps_total = tiles * chunks;  // without reuse, every step loads both
    int64_t inp_loads = steps_total;
    int64_t wgt_loads = steps_total;
    if (chunks == 1) {
        const bool weights_outer = p.order == LoopOrder::WeightsOuter;
        wgt_loads = weights_outer ? p.nb * kb_t : (kb_t == 1 ? p.nb : tiles);
        inp_loads = weights_outer ? (spatial == 1 ? p.nb : tiles) : p.nb * spatial;
    }
    if (p.wgt.resident) wgt_loads = p.wgt.buffers;  // each distinct tile once
    if (p.inp.resident) inp_loads = p.inp.buffers;
    const int64_t out_tile = t.kb * t.oh * t.ow * hw.batch * hw.block_out;
    const int64_t out_bytes = p.nb * p.kb * l.out_h * l.out_w * hw.batch * hw.block_out;
    const int64_t load_beats = (inp_loads * inp_tile + wgt_loads * wgt_tile) / hw.beat_bytes;
    const int64_t beats = load_beats + out_bytes / hw.beat_bytes;
    const int64_t steps = p.nb * l.out_h * l.out_w * p.kb * l.r * l.s * p.cb;
    // Instructions: a GEMM per step, the LOADs that step needs, a DRAIN per tile; fetch
    // reads each over the same bus.
    const int64_t wgt_insns = t.s == l.s ? 1 : t.r * (t.kb > 1 ? t.kb : 1);
    const int64_t insns = steps_total + inp_loads + wgt_loads * wgt_insns + tiles;
    const int64_t insn_beats = insns * ceil_div(isa::kInsnBytes, hw.beat_bytes);
    // A step cannot be shorter than its GEMM, nor than its own loads when the GEMM is
    // too short to hide them behind the previous step.
    const int64_t per_step_gemm =
        steps / std::max<int64_t>(1, steps_total) + timing::kEstimateStepOverhead;
    const int64_t per_step_load = (load_beats + insn_beats) / std::max<int64_t>(1, steps_total) +
                                  (inp_loads + wgt_loads > p.nb ? latency : 0);
    const int64_t stepped = steps_total * std::max(per_step_gemm, per_step_load);
    // The first step, before anything overlaps: its inputs and (when it loads them block
    // by block) one block of its weights.
    const int64_t first_weights = first_step_sliced(t, l.s, hw) ? wgt_tile / t.kb : wgt_tile;
    const int64_t prologue = latency + (inp_tile + first_weights) / hw.beat_bytes;
    const int64_t epilogue = latency + out_tile / hw.beat_bytes;
    int64_t serial = 0;  // loads that cannot overlap compute in a single buffer
    if (p.inp.buffers == 1 || p.wgt.buffers == 1) serial += load_beats + latency * tiles * chunks;
    if (p.acc.buffers == 1) serial += out_bytes / hw.beat_bytes + latency * tiles;
    // The load unit runs its LOADs one after another, each paying the DRAM latency.
    const int64_t per_load = latency + timing::kEstimateLoadOverhead;
    const int64_t load_serial = load_beats + (inp_loads + wgt_loads * wgt_insns) * per_load;
    // A resident buffer whose tiles all come in the first pass of the outer loop (the
    // inputs when output-channel tiles are outer, the weights when spatial tiles are)
    // loads all of it then, under that pass's GEMMs only.
    int64_t first_pass = 0;
    const bool weights_outer = p.order == LoopOrder::WeightsOuter;
    if (p.inp.resident && (weights_outer || spatial == 1)) {
        first_pass = (p.inp.buffers * inp_tile + chunks * wgt_tile) / hw.beat_bytes +
                     (p.inp.buffers + chunks * wgt_insns) * per_load - steps / kb_t;
    }
    if (p.wgt.resident && (!weights_outer || kb_t == 1)) {
        first_pass = std::max(first_pass,
                              (p.wgt.buffers * wgt_tile + chunks * inp_tile) / hw.beat_bytes +
                                  (p.wgt.buffers * wgt_insns + chunks) * per_load - steps / spatial);
    }
    return std::max({stepped, beats + insn_beats, load_serial}) + std::max<int64_t>(0, first_pass) +
           prologue + epilogue + serial;
}

struct Candidate {
    int64_t estimate;
    TileSizes tile;
    LoopOrder order;
};

// Every other size, the largest and the smallest kept.
std::vector<int64_t> every_other(const std::vector<int64_t>& sizes) {
    std::vector<int64_t> out;
    for (size_t i = 0; i < sizes.size(); i += 2) out.push_back(sizes[i]);
    if (out.back() != sizes.back()) out.push_back(sizes.back());
    return out;
}

// The sizes tried along each tile dimension (oh, ow, kb, cb, r, s). Reduction chunks of
// part of the kernel cost a GEMM and a LOAD per part, and pay only when the whole kernel
// does not fit: then every split of it is tried. A space too large to enumerate in a
// moment (huge images, kernels or channel counts; the layers of real networks have a few
// thousand tilings) is thinned, longest list first, to a sample the estimate ranks.
std::array<std::vector<int64_t>, 6> tile_sizes(const TilingExtents& l, const HwParams& hw) {
    constexpr int64_t kMaxTilings = int64_t{1} << 18;
    const bool whole_kernel_fits =
        plan_fits(make_plan(l, hw, {1, 1, 1, 1, l.r, l.s}, LoopOrder::WeightsOuter));
    std::array<std::vector<int64_t>, 6> sizes = {
        split_sizes(l.out_h, hw.acc_depth),
        split_sizes(l.out_w, hw.acc_depth),
        split_sizes(l.kb, hw.acc_depth),
        split_sizes(l.cb, hw.inp_depth),
        whole_kernel_fits ? std::vector<int64_t>{l.r} : split_sizes(l.r, kMaxKernelTile),
        whole_kernel_fits ? std::vector<int64_t>{l.s} : split_sizes(l.s, kMaxKernelTile)};
    auto tilings = [&sizes] {
        int64_t n = 1;
        for (const auto& v : sizes) n = saturating_mul(n, static_cast<int64_t>(v.size()));
        return n;
    };
    auto shorter = [](const auto& a, const auto& b) { return a.size() < b.size(); };
    while (tilings() > kMaxTilings) {
        auto& longest = *std::max_element(sizes.begin(), sizes.end(), shorter);
        longest = every_other(longest);
    }
    return sizes;
}

// With one output-channel tile or one spatial tile both loop orders give the same
// program: the planner keeps weights-outer.
bool one_order(const TilingExtents& l, const TileSizes& t) {
    return t.kb == l.kb || (t.oh == l.out_h && t.ow == l.out_w);
}

// Every tiling that fits, largest tiles first; weight chunks and row counts that do not
// fit are skipped before the sizes inside them are tried. Tilings whose programs would
// pass kMaxInstructions are left out; `fewest_refused`, when given, gets the fewest
// instructions among them.
std::vector<Candidate> candidates(const TilingExtents& l, const HwParams& hw,
                                  int64_t* fewest_refused = nullptr) {
    const auto [ohs, ows, kbs, cbs, rs, ss] = tile_sizes(l, hw);
    std::vector<Candidate> out;
    for (int64_t r : rs)
        for (int64_t s : ss)
            for (int64_t cb : cbs)
                for (int64_t kb : kbs) {
                    if (!make_plan(l, hw, {1, 1, kb, cb, r, s}, LoopOrder::WeightsOuter).wgt.fits()) continue;
                    for (int64_t oh : ohs) {
                        if (!plan_fits(make_plan(l, hw, {oh, 1, kb, cb, r, s}, LoopOrder::WeightsOuter))) continue;
                        for (int64_t ow : ows) {
                            Conv2dPlan p = make_plan(l, hw, {oh, ow, kb, cb, r, s}, LoopOrder::WeightsOuter);
                            if (!plan_fits(p)) continue;
                            const int64_t n = min_instructions(l, p.tile);
                            if (n > kMaxInstructions) {
                                if (fewest_refused && (*fewest_refused == 0 || n < *fewest_refused))
                                    *fewest_refused = n;
                                continue;
                            }
                            out.push_back({estimate(l, hw, p), p.tile, p.order});
                            if (one_order(l, p.tile)) continue;
                            p.order = LoopOrder::SpatialOuter;  // same footprints
                            out.push_back({estimate(l, hw, p), p.tile, p.order});
                        }
                    }
                }
    return out;
}

// Why a layer got no plan, besides its tensors not fitting the DRAM.
struct Refusals {
    int64_t fewest_instructions = 0;  // of the tilings too long to schedule (candidates())
    std::string schedule_error;       // of the last candidate the scheduler refused
};

// The sizes next to `v` in `sizes` (sorted largest first).
std::vector<int64_t> next_to(const std::vector<int64_t>& sizes, int64_t v) {
    std::vector<int64_t> out;
    const auto it = std::find(sizes.begin(), sizes.end(), v);
    if (it == sizes.end()) return out;
    if (it != sizes.begin()) out.push_back(*(it - 1));
    if (it + 1 != sizes.end()) out.push_back(*(it + 1));
    return out;
}

// The best tiling of the layer by the cost model, over every lowering whose tensors fit
// the DRAM, or nothing when no tile fits. Candidates of all lowerings are scheduled in
// the order of the estimate until a budget of scheduled instructions is spent: small
// layers, whose programs are short and whose fixed costs the estimate ranks worst, get
// much of their tile space searched; large ones the best few. The estimate ranks
// near-equal tilings a few percent apart at random, so the best one found is then
// improved by a local search: each of its tile sizes moved to the next size up or down,
// or the loop order flipped, while that lowers the predicted cycles. After the first
// candidate, none is scheduled past kMaxScheduled instructions in all. `refused` says
// why there is no plan.
std::optional<Conv2dPlan> best_plan(const Conv2dLayer& original, const HwParams& hw,
                                    Refusals& refused) {
    struct Lowered {
        LoweredLayer layer;     // lowered once, for every candidate of the lowering
        TilingExtents extents;  // of the lowered layer
    };
    std::vector<Lowered> lowered;
    std::vector<std::pair<Candidate, size_t>> all;  // with the index of its lowering
    for (const Lowering& lowering : lowerings_for(original, hw)) {
        LoweredLayer l = lower(original, lowering);
        // A layer whose tensors cannot all be addressed has no plan; skipping it before
        // the search also spares enumerating the tile space of such extremes.
        if (tensor_footprint(l, hw).total() > kMaxDramBytes) continue;
        const TilingExtents e = lowered_extents(l, hw);
        for (const Candidate& c : candidates(e, hw, &refused.fewest_instructions)) {
            all.push_back({c, lowered.size()});
        }
        lowered.push_back({std::move(l), e});
    }
    if (all.empty()) return std::nullopt;
    constexpr size_t kAtLeast = 8;      // candidates always scheduled
    constexpr size_t kAtMost = 256;     // candidates ever scheduled by the estimate
    constexpr int64_t kBudget = 16000; // instructions scheduled, past kAtLeast
    constexpr int kMoves = 8;           // rounds of the local search
    const size_t ranked = std::min(kAtMost, all.size());
    std::partial_sort(all.begin(), all.begin() + static_cast<long>(ranked), all.end(),
                      [](const auto& a, const auto& b) { return a.first.estimate < b.first.estimate; });
    std::set<std::tuple<size_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, LoopOrder>> tried;
    Conv2dPlan best;
    size_t best_lowering = 0;
    bool have = false;
    int64_t spent = 0;  // instructions scheduled, or the most a refused schedule emitted
    auto consider = [&](size_t li, const TileSizes& t, LoopOrder order) {
        if (!tried.insert({li, t.oh, t.ow, t.kb, t.cb, t.r, t.s, order}).second) return;
        Conv2dPlan p = make_plan(lowered[li].extents, hw, t, order);
        const int64_t at_least = min_instructions(lowered[li].extents, t);
        if (!plan_fits(p) || at_least > kMaxInstructions) return;
        if (spent > 0 && spent + at_least > kMaxScheduled) return;  // the first always runs
        p.lowering = lowered[li].layer.lowering;
        try {
            predict_plan(lowered[li].layer, hw, p, kMaxInstructions);
        } catch (const Error& e) {  // a program too long, or too large for the DRAM
            refused.schedule_error = e.what();
            spent += kMaxInstructions;
            return;
        }
        spent += p.instructions;
        if (!have || p.predicted_cycles < best.predicted_cycles) {
            best = p;
            best_lowering = li;
        }
        have = true;
    };
    for (size_t i = 0; i < ranked && (i < kAtLeast || spent < kBudget); ++i) {
        consider(all[i].second, all[i].first.tile, all[i].first.order);
    }
    if (!have) return std::nullopt;
    const TilingExtents& e = lowered[best_lowering].extents;
    const auto sizes = tile_sizes(e, hw);  // the local search stays in the tile space
    int64_t TileSizes::*const dims[] = {&TileSizes::oh, &TileSizes::ow, &TileSizes::kb,
                                        &TileSizes::cb, &TileSizes::r,  &TileSizes::s};
    for (int round = 0; round < kMoves; ++round) {
        const Conv2dPlan from = best;
        for (size_t d = 0; d < 6; ++d) {
            for (int64_t v : next_to(sizes[d], from.tile.*dims[d])) {
                TileSizes t = from.tile;
                t.*dims[d] = v;
                consider(best_lowering, t, from.order);
            }
        }
        if (!one_order(e, from.tile)) {
            consider(best_lowering, from.tile,
                     from.order == LoopOrder::WeightsOuter ? LoopOrder::SpatialOuter
                                                           : LoopOrder::WeightsOuter);
        }
        if (best.predicted_cycles >= from.predicted_cycles) break;  // a local optimum
    }
    return best;
}

// What a program reads: its LOADs' bytes and its instructions.
int64_t dram_read_bytes(const Conv2dProgram& program) {
    return program.load_bytes + static_cast<int64_t>(program.insns.size() * isa::kInsnBytes);
}

}  // namespace

void predict_plan(const LoweredLayer& lowered, const HwParams& hw, Conv2dPlan& plan,
                  int64_t max_instructions) {
    const Conv2dProgram program = schedule_unplaced(lowered, hw, plan, max_instructions);
    const CostPrediction cost = predict_cycles(program.insns, hw);
    plan.predicted_cycles = cost.cycles;
    plan.ideal_cycles = cost.gemm_steps;
    plan.dram_read_bytes = dram_read_bytes(program);
    plan.dram_write_bytes = program.drain_bytes;
    plan.instructions = static_cast<int64_t>(program.insns.size());
}

ProgramPrediction predict_later_run(const LoweredLayer& lowered, const HwParams& hw,
                                     const Conv2dPlan& plan, bool weights_loaded,
                                     bool params_loaded) {
    const Conv2dProgram program =
        schedule_unplaced(lowered, hw, plan, kMaxInstructions, BufferWindow{0, 0, weights_loaded},
                          BufferWindow{0, 0, params_loaded});
    const auto instructions = static_cast<int64_t>(program.insns.size());
    return {instructions, predict_cycles(program.insns, hw).cycles, dram_read_bytes(program)};
}

void predict_plan(const Conv2dLayer& layer, const HwParams& hw, Conv2dPlan& plan,
                  int64_t max_instructions) {
    predict_plan(lower(layer, plan.lowering), hw, plan, max_instructions);
}

std::vector<Conv2dPlan> tile_space(const Conv2dLayer& layer, const HwParams& hw) {
    validate(layer);
    std::vector<Conv2dPlan> out;
    for (const Lowering& lowering : lowerings_for(layer, hw)) {
        const TilingExtents e = lowered_extents(lower(layer, lowering), hw);
        for (const Candidate& c : candidates(e, hw)) {
            out.push_back(make_plan(e, hw, c.tile, c.order));
            out.back().lowering = lowering;
        }
    }
    return out;
}

Conv2dPlan plan_conv2d(const Conv2dLayer& layer, const HwParams& hw) {
    validate(layer);
    Refusals refused;
    const std::optional<Conv2dPlan> best = best_plan(layer, hw, refused);
    if (best) return *best;
    const TensorFootprint f = tensor_footprint(lower(layer, Lowering{}), hw);
    if (f.total() > kMaxDramBytes) {
        throw Error(fmt::format(
            "layer needs more than 4 GiB of device DRAM: input {}, weights {}, output {} "
            "bytes; split the batch or the image",
            count_text(f.input), count_text(f.weights), count_text(f.output)));
    }
    if (!refused.schedule_error.empty()) throw Error(refused.schedule_error);
    if (refused.fewest_instructions > 0) {
        throw Error(fmt::format("layer needs a program of at least {} instructions; the "
                                "planner schedules at most {}: split the batch or the image",
                                count_text(refused.fewest_instructions), kMaxInstructions));
    }
    // Unreachable for configs that load: the 1x1x1 tile needs one entry of each buffer.
    // Kept so that a future ISA limit cannot fail silently.
    const Conv2dPlan smallest = make_plan(layer, hw, TileSizes{}, LoopOrder::WeightsOuter);
    throw Error(fmt::format(
        "layer cannot be tiled: even a 1x1 tile needs INP {}/{}, WGT {}/{}, ACC {}/{}, "
        "PRM {}/{} entries",
        smallest.inp.entries, smallest.inp.depth, smallest.wgt.entries, smallest.wgt.depth,
        smallest.acc.entries, smallest.acc.depth, smallest.prm.entries * smallest.prm.buffers,
        smallest.prm.depth));
}

}  // namespace accel
