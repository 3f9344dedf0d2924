// Planner and scheduler invariants over thousands of random layers and configs:
// every footprint fits its buffer, every instruction passes the fetch checks, the
// DRAINs write every output entry exactly once, and the tokens balance.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "compiler/plan.hpp"
#include "compiler/planner.hpp"
#include "compiler/scheduler.hpp"
#include "hw/hw_config.hpp"
#include "random_layer.hpp"

namespace accel {
namespace {

// A random config that derives (tiny buffers included).
HwParams random_config(std::mt19937& rng) {
    auto pow2 = [&](int lo, int hi) { return 1 << std::uniform_int_distribution<int>(lo, hi)(rng); };
    while (true) {
        HwConfig c = default_hw_config();
        c.name = "random";
        c.batch = pow2(0, 1);
        c.block_in = pow2(1, 5);
        c.block_out = pow2(1, 5);
        c.input_kib = pow2(0, 6);
        c.weight_kib = pow2(0, 7);
        c.acc_kib = pow2(0, 6);
        c.axi_data_bits = pow2(5, 7);
        try {
            return derive_params(c);
        } catch (const Error&) {
            // a beat larger than an entry, or a buffer smaller than one entry: redraw
        }
    }
}

void check_program(const Conv2dLayer& l, const HwParams& hw, const Conv2dPlan& plan,
                   const Conv2dProgram& prog) {
    // Every instruction passes the checks fetch applies.
    for (const isa::Insn& insn : prog.insns) {
        ASSERT_EQ(isa::check(insn, hw), isa::ErrorCode::Ok) << isa::to_string(insn);
    }
    // Tokens balance: each queue's pushes are all popped.
    std::array<int64_t, 4> balance{};  // ld2cp, cp2ld, cp2dr, dr2cp
    std::vector<int> written(static_cast<size_t>(plan.nb * plan.kb * l.out_h() * l.out_w()), 0);
    const int64_t entry = hw.batch * hw.block_out;
    for (const isa::Insn& insn : prog.insns) {
        const isa::Tokens t = isa::tokens_of(insn);
        if (std::holds_alternative<isa::Load>(insn)) {
            balance[0] += t.push_next;
            balance[1] -= t.pop_next;
        } else if (std::holds_alternative<isa::Gemm>(insn)) {
            balance[0] -= t.pop_prev;
            balance[1] += t.push_prev;
            balance[2] += t.push_next;
            balance[3] -= t.pop_next;
        } else if (const auto* d = std::get_if<isa::Drain>(&insn)) {
            balance[2] -= t.pop_prev;
            balance[3] += t.push_prev;
            for (uint32_t kb = 0; kb < d->n_kb; ++kb)
                for (uint32_t y = 0; y < d->n_y; ++y)
                    for (uint32_t x = 0; x < d->n_x; ++x) {
                        const int64_t at = d->dram_base + kb * d->dram_kb + y * d->dram_y +
                                           x * d->dram_x - prog.layout.output.base;
                        ASSERT_EQ(at % entry, 0);
                        ++written.at(static_cast<size_t>(at / entry));
                    }
        }
    }
    EXPECT_EQ(balance, (std::array<int64_t, 4>{0, 0, 0, 0}));
    for (size_t i = 0; i < written.size(); ++i) ASSERT_EQ(written[i], 1) << "output entry " << i;
}

TEST(Planner, RandomLayersAndConfigsFitAndCoverExactlyOnce) {
    std::mt19937 rng(99);
    for (int i = 0; i < 2000; ++i) {
        const HwParams hw = random_config(rng);
        testing::LayerLimits lim;
        lim.max_hw = 24;
        lim.max_c = 80;
        lim.max_k = 80;
        const testing::LayerCase c = testing::random_layer(rng, lim);
        const Conv2dPlan plan = plan_conv2d(c.layer, hw);
        ASSERT_TRUE(plan_fits(plan)) << "case " << i;
        for (const BufferUse* b : {&plan.inp, &plan.wgt, &plan.acc, &plan.prm}) {
            ASSERT_LE(b->used_bytes(), b->capacity_bytes()) << "case " << i;
        }
        check_program(c.layer, hw, plan, schedule_conv2d(c.layer, hw, plan));
        if (HasFatalFailure()) return;
    }
}

// SRAM entries a LOAD writes: z planes of (padded) y rows of its row's entries, in turn.
int64_t load_entries(const isa::Load& ld) {
    return int64_t{ld.z_size} * (ld.pad_top + ld.y_size + ld.pad_bottom) *
           static_cast<int64_t>(isa::load_row_entries(ld));
}

// Calls check(layer, plan, "case I plan J") on about `per_layer` plans of each of
// `layers` random layers (at most `max_hw` rows and columns, `max_c` input and `max_k`
// output channels) of the default config, until it returns false.
template <typename Check>
void for_sampled_plans(unsigned seed, int layers, int64_t max_hw, int64_t max_c,
                       int64_t max_k, size_t per_layer, Check check) {
    std::mt19937 rng(seed);
    const HwParams hw = default_hw_params();
    for (int i = 0; i < layers; ++i) {
        testing::LayerLimits lim;
        lim.max_hw = max_hw;
        lim.max_c = max_c;
        lim.max_k = max_k;
        const testing::LayerCase c = testing::random_layer(rng, lim);
        const std::vector<Conv2dPlan> space = tile_space(c.layer, hw);
        for (size_t j = 0; j < space.size(); j += 1 + space.size() / per_layer) {
            const std::string what = "case " + std::to_string(i) + " plan " + std::to_string(j);
            if (!check(c.layer, space[j], what)) return;
        }
    }
}

TEST(Planner, ResidentTilesAndAllFittingParametersAreLoadedOnce) {
    // A resident buffer holds every distinct tile in its own slot, and parameters that
    // all fit are loaded block by block: no SRAM entry of either is ever written twice.
    const HwParams hw = default_hw_params();
    int resident_plans = 0;
    for_sampled_plans(7, 150, 20, 64, 64, 6, [&](const Conv2dLayer& layer, const Conv2dPlan& plan,
                                                 const std::string& what) {
        const Conv2dProgram prog = schedule_unplaced(lower(layer, plan.lowering), hw, plan);
        std::vector<int> inp(static_cast<size_t>(hw.inp_depth)), wgt(static_cast<size_t>(hw.wgt_depth)),
            prm(static_cast<size_t>(hw.prm_depth));
        for (const isa::Insn& insn : prog.insns) {
            const auto* ld = std::get_if<isa::Load>(&insn);
            if (ld == nullptr) continue;
            std::vector<int>& seen = ld->buffer == isa::Buffer::Inp   ? inp
                                     : ld->buffer == isa::Buffer::Wgt ? wgt
                                                                      : prm;
            for (int64_t e = 0; e < load_entries(*ld); ++e) ++seen.at(ld->sram_base + e);
        }
        auto once = [](const std::vector<int>& seen) {
            return std::all_of(seen.begin(), seen.end(), [](int n) { return n <= 1; });
        };
        if (plan.inp.resident) EXPECT_TRUE(once(inp)) << what;
        if (plan.wgt.resident) EXPECT_TRUE(once(wgt)) << what;
        if (plan.kb <= hw.prm_depth) EXPECT_TRUE(once(prm)) << what;
        resident_plans += plan.inp.resident || plan.wgt.resident;
        check_program(prog.lowered.layer, hw, plan, prog);
        return !HasFailure();
    });
    EXPECT_GT(resident_plans, 100);  // the property was exercised
}

// The WGT and PRM entries a program's LOADs write and its GEMMs and DRAINs read.
struct BufferAccess {
    std::set<int64_t> wgt_written, prm_written, wgt_read, prm_read;
};
BufferAccess buffer_access(const Conv2dProgram& prog) {
    BufferAccess a;
    for (const isa::Insn& insn : prog.insns) {
        if (const auto* ld = std::get_if<isa::Load>(&insn)) {
            if (ld->buffer == isa::Buffer::Inp) continue;
            auto& written = ld->buffer == isa::Buffer::Wgt ? a.wgt_written : a.prm_written;
            for (int64_t e = 0; e < load_entries(*ld); ++e) written.insert(ld->sram_base + e);
        } else if (const auto* g = std::get_if<isa::Gemm>(&insn)) {
            for (uint32_t kb = 0; kb < g->n_kb; ++kb) {
                a.prm_read.insert(g->prm_base + kb);
                for (uint32_t r = 0; r < g->n_r; ++r)
                    for (uint32_t s = 0; s < g->n_s; ++s)
                        for (uint32_t cb = 0; cb < g->n_cb; ++cb)
                            a.wgt_read.insert(g->wgt_base + kb * g->wgt_kb + r * g->wgt_r +
                                              s * g->wgt_s + cb * g->wgt_cb);
            }
        } else if (const auto* d = std::get_if<isa::Drain>(&insn)) {
            for (uint32_t kb = 0; kb < d->n_kb; ++kb) a.prm_read.insert(d->prm_base + kb);
        }
    }
    return a;
}

bool within(const std::set<int64_t>& entries, const BufferWindow& w) {
    return entries.empty() || (*entries.begin() >= w.base && *entries.rbegin() < w.base + w.entries);
}

bool includes(const std::set<int64_t>& all, const std::set<int64_t>& some) {
    return std::includes(all.begin(), all.end(), some.begin(), some.end());
}

TEST(Planner, ProgramsStayInTheirWindowsAndLaterRunsReadWhatTheFirstLoaded) {
    // A network's layer whose weights or parameters stay on chip gets a region at the
    // top of WGT and PRM (network/weight_residency.hpp): every access of its program
    // lies inside it, and the program of a later run, without those LOADs, reads only
    // entries the first program wrote.
    const HwParams hw = default_hw_params();
    int kept_weights = 0, kept_params = 0;
    for_sampled_plans(11, 100, 16, 48, 80, 4, [&](const Conv2dLayer& layer, const Conv2dPlan& plan,
                                                  const std::string& what) {
        const LoweredLayer lowered = lower(layer, plan.lowering);
        const int64_t w = weights_loaded_once_entries(plan, lowered.layer.shape);
        const int64_t p = params_loaded_once_entries(plan);
        if (w == 0 && p == 0) return true;
        const auto top = [](int64_t entries, int64_t depth) {
            return BufferWindow{static_cast<uint32_t>(depth - entries),
                                static_cast<uint32_t>(entries), false};
        };
        BufferWindow wgt = w > 0 ? top(w, hw.wgt_depth) : BufferWindow{};
        BufferWindow prm = p > 0 ? top(p, hw.prm_depth) : BufferWindow{};
        const BufferAccess first =
            buffer_access(schedule_unplaced(lowered, hw, plan, INT64_MAX, wgt, prm));
        wgt.loaded = w > 0;
        prm.loaded = p > 0;
        const BufferAccess later =
            buffer_access(schedule_unplaced(lowered, hw, plan, INT64_MAX, wgt, prm));
        if (w > 0) {
            EXPECT_TRUE(within(first.wgt_written, wgt) && within(first.wgt_read, wgt)) << what;
            EXPECT_TRUE(later.wgt_written.empty()) << what;
            EXPECT_TRUE(includes(first.wgt_written, later.wgt_read)) << what;
            ++kept_weights;
        }
        if (p > 0) {
            EXPECT_TRUE(within(first.prm_written, prm) && within(first.prm_read, prm)) << what;
            EXPECT_TRUE(later.prm_written.empty()) << what;
            EXPECT_TRUE(includes(first.prm_written, later.prm_read)) << what;
            ++kept_params;
        }
        return !HasFailure();
    });
    EXPECT_GT(kept_weights, 100);  // the property was exercised
    EXPECT_GT(kept_params, 100);
}

TEST(Planner, TheSeedQuestionFitsA2MbitAccumulator) {
    // 2x112x64x16 NHWC input, 3x3x16x16 weights, pad 1: 229,376 int32 accumulators
    // (7 Mbit) untiled, 3.5x the buffer (docs/tiling.md, worked example B).
    HwConfig c = default_hw_config();
    c.acc_kib = 256;  // 2 Mbit
    const HwParams hw = derive_params(c);
    Conv2dLayer l;
    l.shape = {2, 112, 64, 16, 16, 3, 3};
    l.params.pad_top = l.params.pad_bottom = l.params.pad_left = l.params.pad_right = 1;
    l.params.multiplier.assign(16, 1 << 30);
    l.params.shift.assign(16, -8);
    const Conv2dPlan plan = plan_conv2d(l, hw);
    EXPECT_LE(plan.acc.used_bytes(), 256 * 1024);
    EXPECT_TRUE(plan_fits(plan));
}

// Beats wider than an instruction (512- and 1024-bit AXI): every LOAD and DRAIN address
// must still be a whole beat, so DRAM regions start at beat multiples, not 64 bytes.
TEST(Planner, WideBusesPutEveryDramRegionOnABeat) {
    std::mt19937 rng(7);
    for (const int bits : {512, 1024}) {
        HwConfig c = default_hw_config();
        c.name = "wide";
        c.block_in = c.block_out = 128;
        c.input_kib = 1024;
        c.weight_kib = 16384;
        c.acc_kib = 1024;
        c.axi_data_bits = bits;
        const HwParams hw = derive_params(c);
        for (int i = 0; i < 60; ++i) {
            const testing::LayerCase lc = testing::random_layer(rng, testing::LayerLimits{});
            const Conv2dPlan plan = plan_conv2d(lc.layer, hw);
            const Conv2dProgram prog = schedule_conv2d(lc.layer, hw, plan);
            for (const DramRegion& r : {prog.layout.input, prog.layout.weights,
                                        prog.layout.params, prog.layout.zx_row,
                                        prog.layout.output}) {
                ASSERT_EQ(r.base % hw.beat_bytes, 0u) << bits << "-bit bus, case " << i;
            }
            check_program(prog.lowered.layer, hw, plan, prog);
            if (HasFatalFailure()) return;
        }
    }
}

Conv2dLayer layer_of(const Conv2dShape& shape) {
    Conv2dLayer l;
    l.shape = shape;
    l.params.multiplier.assign(static_cast<size_t>(shape.k), 1 << 30);
    l.params.shift.assign(static_cast<size_t>(shape.k), 0);
    return l;
}

// Layers that pass validate() but whose tensors alone pass the 4 GiB of DRAM the ISA
// addresses are refused before any search (which took minutes on such extents), with
// the sizes named.
TEST(Planner, LayersBeyondTheDramAreRefusedBeforeSearching) {
    const HwParams hw = default_hw_params();
    for (const Conv2dShape& shape :
         {Conv2dShape{1, 65536, 65536, 65536, 65536, 65536, 65536},
          Conv2dShape{1, 4096, 4096, 1 << 24, 1 << 24, 4096, 4096},
          Conv2dShape{1 << 24, 1 << 24, 1 << 24, 1 << 24, 1 << 24, 1, 1}}) {
        try {
            plan_conv2d(layer_of(shape), hw);
            ADD_FAILURE() << "planned a layer of " << shape.h << "x" << shape.w;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("more than 4 GiB of device DRAM"),
                      std::string::npos)
                << e.what();
        }
    }
}

// A layer that fits the DRAM but whose every program is enormous is refused with the
// instruction count, not scheduled for minutes.
TEST(Planner, LayersWithEnormousProgramsAreRefused) {
    const HwParams hw = default_hw_params();
    Conv2dLayer l = layer_of({15, 4, 7440, 3995, 3903, 2, 2});
    l.params.stride_h = l.params.stride_w = 7;
    l.params.pad_top = l.params.pad_bottom = l.params.pad_left = l.params.pad_right = 3;
    try {
        const Conv2dPlan p = plan_conv2d(l, hw);
        ADD_FAILURE() << "planned " << p.instructions << " instructions";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("instructions"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace accel
