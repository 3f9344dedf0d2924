#include "network/weight_residency.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

#include "compiler/add_program.hpp"
#include "compiler/layout.hpp"
#include "compiler/planner.hpp"
#include "network/block_chain.hpp"

namespace accel::network {
namespace {

// A device layer as the choice sees it.
struct Layer {
    ConvLayer* conv = nullptr;
    LoweredLayer lowered;
    bool chained = false;                  // one of a chained step's (block_chain.hpp)
    bool weights = false, params = false;  // chosen to stay
};

// A layer's claim on a buffer: the region it would take (0: none, it streams), the
// entries it needs in the shared window otherwise, and the cycles a later inference
// saves with the region.
struct Claim {
    int64_t region = 0, need = 0, saving = 0;
};

// The most saving subset of `items` (claim indices) within `budget` entries: a 0/1
// knapsack over entries, which number at most the buffer's depth.
std::vector<size_t> best_fill(const std::vector<Claim>& claims, const std::vector<size_t>& items,
                              int64_t budget, int64_t& saving) {
    const auto width = static_cast<size_t>(budget + 1);
    std::vector<int64_t> best(width, 0);
    std::vector<std::vector<bool>> took(items.size(), std::vector<bool>(width, false));
    for (size_t i = 0; i < items.size(); ++i) {
        const Claim& c = claims[items[i]];
        for (int64_t b = budget; b >= c.region; --b) {
            const int64_t with = best[static_cast<size_t>(b - c.region)] + c.saving;
            if (with > best[static_cast<size_t>(b)]) {
                best[static_cast<size_t>(b)] = with;
                took[i][static_cast<size_t>(b)] = true;
            }
        }
    }
    saving = best.back();
    std::vector<size_t> out;
    for (int64_t b = budget, i = static_cast<int64_t>(items.size()) - 1; i >= 0; --i) {
        if (took[static_cast<size_t>(i)][static_cast<size_t>(b)]) {
            out.push_back(items[static_cast<size_t>(i)]);
            b -= claims[items[static_cast<size_t>(i)]].region;
        }
    }
    return out;
}

// The window the programs without a region need: `floor` (the ADDs'), and the largest
// need of the claims that stream or that cannot have a region beside that window,
// which widen it: largest first, until the next one fits.
int64_t shared_floor(const std::vector<Claim>& claims, int64_t floor, int64_t depth) {
    std::vector<const Claim*> candidates;
    for (const Claim& c : claims) {
        if (c.region == 0) floor = std::max(floor, c.need);
        if (c.region > 0) candidates.push_back(&c);
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const Claim* a, const Claim* b) { return a->region > b->region; });
    for (const Claim* c : candidates) {
        if (c->region + floor <= depth) break;
        floor = std::max(floor, c->need);
    }
    return floor;
}

// Which claims get a region: for each width the shared window could have (`floor`, or
// the need of a claim left out), the claims that need more must have one and the
// others fill what is left for the most saving; the best width wins. Only claims whose
// region fits beside `floor` (shared_floor) are candidates.
std::vector<bool> choose_regions(const std::vector<Claim>& claims, int64_t floor, int64_t depth) {
    std::set<int64_t> widths = {floor};
    for (const Claim& c : claims) {
        if (c.region > 0 && c.need > floor && c.region + floor <= depth) widths.insert(c.need);
    }
    std::vector<bool> best(claims.size(), false);
    int64_t best_saving = -1;
    for (const int64_t width : widths) {
        std::vector<bool> chosen(claims.size(), false);
        int64_t taken = 0, saving = 0;
        std::vector<size_t> optional;
        for (size_t i = 0; i < claims.size(); ++i) {
            const Claim& c = claims[i];
            if (c.region == 0 || c.region + floor > depth) continue;
            if (c.need > width) {
                chosen[i] = true;
                taken += c.region;
                saving += c.saving;
            } else {
                optional.push_back(i);
            }
        }
        if (taken + width > depth) continue;
        int64_t filled = 0;
        for (size_t i : best_fill(claims, optional, depth - width - taken, filled)) chosen[i] = true;
        if (saving + filled > best_saving) {
            best_saving = saving + filled;
            best = chosen;
        }
    }
    return best;
}

// Regions for the chosen, from the top of a buffer of `depth` entries down, in model
// order; returns the entries left below them.
int64_t place_regions(std::vector<Layer>& layers, const std::vector<Claim>& claims,
                      bool Layer::*chosen, std::optional<BufferRegion> Residency::*region,
                      int64_t depth) {
    int64_t taken = 0;
    for (size_t i = 0; i < layers.size(); ++i) {
        if (!(layers[i].*chosen)) continue;
        taken += claims[i].region;
        if (!layers[i].conv->resident) layers[i].conv->resident = Residency{};
        (*layers[i].conv->resident).*region = BufferRegion{static_cast<uint32_t>(depth - taken),
                                                           static_cast<uint32_t>(claims[i].region)};
    }
    return depth - taken;
}

}  // namespace

void keep_weights_resident(NetworkPlan& plan, const HwParams& hw) {
    std::vector<Layer> layers;
    bool adds = false;
    for (Step& s : plan.steps) {
        if (s.placement != Placement::Device) continue;
        adds = adds || s.add.has_value();
        for (ConvLayer& c : s.convs) {
            layers.push_back({&c, lower(c.layer, c.plan.lowering), chained(s)});
        }
    }
    auto predict = [&hw](const Layer& l, bool weights, bool params) {
        if (!weights && !params) return l.conv->plan.predicted_cycles;
        return predict_later_run(l.lowered, hw, l.conv->plan, weights, params).predicted_cycles;
    };
    // Weights first: they are most of what moves.
    std::vector<Claim> wgt;
    for (const Layer& l : layers) {
        const Conv2dPlan& p = l.conv->plan;
        const int64_t region = weights_loaded_once_entries(p, l.lowered.layer.shape);
        wgt.push_back({region, region > 0 ? region : p.wgt.entries * p.wgt.buffers, 0});
    }
    const int64_t wgt_floor =
        shared_floor(wgt, adds ? kAddWeightEntries : 0, hw.wgt_depth);
    for (size_t i = 0; i < layers.size(); ++i) {
        if (wgt[i].region == 0 || wgt[i].region + wgt_floor > hw.wgt_depth) continue;
        wgt[i].saving = std::max<int64_t>(0, predict(layers[i], false, false) -
                                                 predict(layers[i], true, false));
    }
    const std::vector<bool> wgt_chosen = choose_regions(wgt, wgt_floor, hw.wgt_depth);
    for (size_t i = 0; i < layers.size(); ++i) layers[i].weights = wgt_chosen[i];
    // Then the parameters, beside the weights chosen.
    // A chained layer left out takes one of two alternating windows (block_chain.hpp).
    std::vector<Claim> prm;
    for (const Layer& l : layers) {
        const Conv2dPlan& p = l.conv->plan;
        const int64_t region = params_loaded_once_entries(p);
        const int64_t need = p.prm.entries * p.prm.buffers;
        prm.push_back({region, l.chained ? 2 * need : need, 0});
    }
    const int64_t prm_floor = shared_floor(prm, adds ? kAddParamEntries : 0, hw.prm_depth);
    for (size_t i = 0; i < layers.size(); ++i) {
        if (prm[i].region == 0 || prm[i].region + prm_floor > hw.prm_depth) continue;
        prm[i].saving = std::max<int64_t>(0, predict(layers[i], layers[i].weights, false) -
                                                 predict(layers[i], layers[i].weights, true));
    }
    const std::vector<bool> prm_chosen = choose_regions(prm, prm_floor, hw.prm_depth);
    for (size_t i = 0; i < layers.size(); ++i) layers[i].params = prm_chosen[i];

    plan.shared_wgt_entries =
        place_regions(layers, wgt, &Layer::weights, &Residency::weights, hw.wgt_depth);
    plan.shared_prm_entries =
        place_regions(layers, prm, &Layer::params, &Residency::params, hw.prm_depth);
    for (Layer& l : layers) {
        if (l.conv->resident) {
            l.conv->resident->steady =
                predict_later_run(l.lowered, hw, l.conv->plan, l.weights, l.params);
        }
    }
}

}  // namespace accel::network
