// Programs chained into one (compiler/program_chain.hpp): one FINISH, the seams' tokens,
// and every token popped only after it is pushed, in program order, with none left over.
#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "compiler/planner.hpp"
#include "compiler/program_chain.hpp"
#include "compiler/scheduler.hpp"
#include "hw/hw_config.hpp"
#include "hw/isa.hpp"

namespace accel {
namespace {

// A depthwise-like block: 6x6x16 -> 16, 3x3, padding 1, three tiles on the default config.
std::vector<isa::Insn> block_program(const HwParams& hw) {
    Conv2dLayer l;
    l.shape = {1, 6, 6, 16, 16, 3, 3};
    l.params.pad_top = l.params.pad_bottom = l.params.pad_left = l.params.pad_right = 1;
    l.params.multiplier.assign(16, 1 << 30);
    l.params.shift.assign(16, -8);
    const Conv2dPlan plan = plan_conv2d(l, hw);
    return schedule_conv2d(l, hw, plan).insns;
}

// For each token queue, how many tokens are pushed and popped; fails if a pop comes
// before its push in program order.
std::array<int, isa::kTokenQueues> balance(const std::vector<isa::Insn>& program) {
    std::array<int, isa::kTokenQueues> held{};
    for (const isa::Insn& insn : program) {
        const std::optional<isa::Unit> unit = isa::unit_of(insn);
        if (!unit) continue;
        const isa::Tokens t = isa::tokens_of(insn);
        const std::pair<bool, isa::TokenFlag> flags[] = {
            {t.pop_prev, isa::TokenFlag::PopPrev}, {t.pop_next, isa::TokenFlag::PopNext},
            {t.push_prev, isa::TokenFlag::PushPrev}, {t.push_next, isa::TokenFlag::PushNext}};
        for (const auto& [set, flag] : flags) {
            if (!set) continue;
            const auto q = static_cast<size_t>(*isa::token_queue(*unit, flag));
            const bool pop = flag == isa::TokenFlag::PopPrev || flag == isa::TokenFlag::PopNext;
            held[q] += pop ? -1 : 1;
            EXPECT_GE(held[q], 0) << "a pop before its push, queue " << q;
        }
    }
    return held;
}

TEST(ProgramChain, SeamsOrderTheBuffersAndEveryTokenIsPoppedAfterItsPush) {
    const HwParams hw = derive_params(default_hw_config());
    const std::vector<isa::Insn> one = block_program(hw);
    ASSERT_EQ(balance(one), (std::array<int, isa::kTokenQueues>{}));
    const std::vector<isa::Insn> chain = chain_programs({one, one, one});
    ASSERT_EQ(chain.size(), 3 * one.size() - 2);
    for (size_t i = 0; i + 1 < chain.size(); ++i) {
        EXPECT_FALSE(std::holds_alternative<isa::Finish>(chain[i])) << i;
    }
    EXPECT_EQ(balance(chain), (std::array<int, isa::kTokenQueues>{}));
    // The second program's first LOAD waits for the first one's last GEMM, its first GEMM
    // for the first one's last DRAIN.
    const size_t seam = one.size() - 1;
    size_t last_gemm = 0, last_drain = 0;
    for (size_t i = 0; i < seam; ++i) {
        if (std::holds_alternative<isa::Gemm>(chain[i])) last_gemm = i;
        if (std::holds_alternative<isa::Drain>(chain[i])) last_drain = i;
    }
    EXPECT_TRUE(std::get<isa::Gemm>(chain[last_gemm]).tokens.push_prev);
    EXPECT_TRUE(std::get<isa::Drain>(chain[last_drain]).tokens.push_prev);
    ASSERT_TRUE(std::holds_alternative<isa::Load>(chain[seam]));
    EXPECT_TRUE(std::get<isa::Load>(chain[seam]).tokens.pop_next);
    for (size_t i = seam; i < chain.size(); ++i) {
        if (const auto* g = std::get_if<isa::Gemm>(&chain[i])) {
            EXPECT_TRUE(g->tokens.pop_next);
            break;
        }
    }
}

TEST(ProgramChain, RefusesAProgramWithoutItsFinish) {
    const HwParams hw = derive_params(default_hw_config());
    std::vector<isa::Insn> cut = block_program(hw);
    cut.pop_back();
    EXPECT_THROW(chain_programs({block_program(hw), cut}), std::logic_error);
}

}  // namespace
}  // namespace accel
