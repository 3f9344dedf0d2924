#include "network/block_chain.hpp"

#include <vector>

#include "compiler/cost_model.hpp"
#include "compiler/program_chain.hpp"
#include "compiler/scheduler.hpp"
#include "hw/isa.hpp"

namespace accel::network {
namespace {

// The chained program of a step's layers, their resident constants loaded or not, and
// its prediction. Addresses do not change the cycles, so the layers are scheduled in
// images of their own.
ProgramPrediction predict_chain(const Step& s, const HwParams& hw, bool later) {
    std::vector<std::vector<isa::Insn>> programs;
    int64_t read = 0;
    for (const ConvLayer& c : s.convs) {
        const bool weights = later && c.resident && c.resident->weights;
        const bool params = later && c.resident && c.resident->params;
        Conv2dProgram p = schedule_unplaced(lower(c.layer, c.plan.lowering), hw, c.plan,
                                            INT64_MAX, BufferWindow{0, 0, weights},
                                            BufferWindow{0, 0, params});
        read += p.load_bytes;
        programs.push_back(std::move(p.insns));
    }
    const std::vector<isa::Insn> chain = chain_programs(programs);
    const auto instructions = static_cast<int64_t>(chain.size());
    return {instructions, predict_cycles(chain, hw).cycles,
            read + instructions * static_cast<int64_t>(isa::kInsnBytes)};
}

}  // namespace

bool chained(const Step& s) { return s.placement == Placement::Device && s.convs.size() > 1; }

BufferWindow chained_params_window(size_t index, int64_t entries) {
    return {static_cast<uint32_t>(static_cast<int64_t>(index % 2) * entries),
            static_cast<uint32_t>(entries), false};
}

void predict_chains(NetworkPlan& plan, const HwParams& hw) {
    for (Step& s : plan.steps) {
        if (chained(s)) s.chain = ChainedPrograms{predict_chain(s, hw, false), predict_chain(s, hw, true)};
    }
}

}  // namespace accel::network
