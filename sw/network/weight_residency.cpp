#include "network/weight_residency.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "compiler/add_program.hpp"
#include "compiler/layout.hpp"
#include "compiler/planner.hpp"

namespace accel::network {
namespace {

// A device layer as the allocation sees it.
struct Candidate {
    ConvLayer* layer;
    LoweredLayer lowered;
    int64_t once = 0;  // its region when resident; 0 when its plan streams the weights
    int64_t need = 0;  // the window it needs when not resident
};

}  // namespace

void keep_weights_resident(NetworkPlan& plan, const HwParams& hw) {
    std::vector<Candidate> all;
    std::multiset<int64_t> left_out;  // the needs of the programs without a region
    for (Step& s : plan.steps) {
        if (s.placement != Placement::Device) continue;
        if (s.add) left_out.insert(kAddWeightEntries);
        for (ConvLayer& c : s.convs) {
            Candidate k{&c, lower(c.layer, c.plan.lowering)};
            k.once = weights_loaded_once_entries(c.plan, k.lowered.layer.shape);
            k.need = k.once > 0 ? k.once : c.plan.wgt.entries * c.plan.wgt.buffers;
            left_out.insert(k.need);
            all.push_back(std::move(k));
        }
    }
    const int64_t depth = hw.wgt_depth;
    int64_t taken = 0;  // entries of the regions, from the top of the buffer down
    for (bool joined = true; joined;) {
        joined = false;
        for (Candidate& k : all) {
            if (k.layer->resident || k.once == 0) continue;
            left_out.erase(left_out.find(k.need));
            const int64_t window = left_out.empty() ? 0 : *left_out.rbegin();
            if (taken + k.once + window > depth) {
                left_out.insert(k.need);
                continue;
            }
            taken += k.once;
            k.layer->resident = ResidentWeights{static_cast<uint32_t>(depth - taken),
                                                static_cast<uint32_t>(k.once),
                                                predict_weights_loaded(k.lowered, hw, k.layer->plan)};
            joined = true;
        }
    }
    plan.shared_wgt_entries = depth - taken;
}

}  // namespace accel::network
