#include "network/weight_residency.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "compiler/add_program.hpp"
#include "compiler/layout.hpp"
#include "compiler/planner.hpp"

namespace accel::network {
namespace {

// A device layer whose plan loads its weights once, as the choice sees it.
struct Candidate {
    ConvLayer* layer = nullptr;
    int64_t entries = 0;  // its region
    LoadedWeightsPrediction steady;
    int64_t saving = 0;   // predicted cycles a later inference saves
};

struct Choice {
    std::vector<bool> resident;  // by candidate
    int64_t saving = 0;
};

// The most saving subset of `items` (candidate indices) within `budget` entries: a 0/1
// knapsack over entries, which number at most the buffer's depth.
std::vector<size_t> best_fill(const std::vector<Candidate>& all, const std::vector<size_t>& items,
                              int64_t budget, int64_t& saving) {
    const auto width = static_cast<size_t>(budget + 1);
    std::vector<int64_t> best(width, 0);
    std::vector<std::vector<bool>> took(items.size(), std::vector<bool>(width, false));
    for (size_t i = 0; i < items.size(); ++i) {
        const Candidate& c = all[items[i]];
        for (int64_t b = budget; b >= c.entries; --b) {
            const int64_t with = best[static_cast<size_t>(b - c.entries)] + c.saving;
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
            b -= all[items[static_cast<size_t>(i)]].entries;
        }
    }
    return out;
}

// The best choice when the layers left out need a window of at most `window` entries:
// every candidate larger than that is resident, the rest fill what remains.
std::optional<Choice> choose_with_window(const std::vector<Candidate>& all, int64_t window,
                                         int64_t depth) {
    Choice c;
    c.resident.assign(all.size(), false);
    int64_t taken = 0;
    std::vector<size_t> optional;
    for (size_t i = 0; i < all.size(); ++i) {
        if (all[i].entries > window) {
            c.resident[i] = true;
            taken += all[i].entries;
            c.saving += all[i].saving;
        } else {
            optional.push_back(i);
        }
    }
    if (taken + window > depth) return std::nullopt;
    int64_t filled = 0;
    for (size_t i : best_fill(all, optional, depth - window - taken, filled)) c.resident[i] = true;
    c.saving += filled;
    return c;
}

}  // namespace

void keep_weights_resident(NetworkPlan& plan, const HwParams& hw) {
    const int64_t depth = hw.wgt_depth;
    // The window every program without a region needs: the largest of the layers that
    // stream their weights and of the ADDs; a candidate left out adds its own.
    int64_t floor = 0;
    std::vector<std::pair<ConvLayer*, int64_t>> once;  // with its region's entries
    for (Step& s : plan.steps) {
        if (s.placement != Placement::Device) continue;
        if (s.add) floor = std::max(floor, kAddWeightEntries);
        for (ConvLayer& c : s.convs) {
            const int64_t entries =
                weights_loaded_once_entries(c.plan, lower(c.layer, c.plan.lowering).layer.shape);
            if (entries > 0) {
                once.emplace_back(&c, entries);
            } else {
                floor = std::max(floor, c.plan.wgt.entries * c.plan.wgt.buffers);
            }
        }
    }
    // A layer that cannot have a region beside that window stays in it, and widens it:
    // largest first, until the next one fits.
    std::vector<std::pair<ConvLayer*, int64_t>> by_size = once;
    std::stable_sort(by_size.begin(), by_size.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [c, entries] : by_size) {
        if (entries + floor <= depth) break;
        floor = std::max(floor, entries);
    }
    std::vector<Candidate> all;  // in model order
    std::set<int64_t> windows = {floor};
    for (const auto& [c, entries] : once) {
        if (entries + floor > depth) continue;
        Candidate k{c, entries, predict_weights_loaded(lower(c->layer, c->plan.lowering), hw, c->plan), 0};
        k.saving = std::max<int64_t>(0, c->plan.predicted_cycles - k.steady.predicted_cycles);
        all.push_back(k);
        if (entries > floor) windows.insert(entries);
    }
    std::optional<Choice> best;
    for (const int64_t window : windows) {
        const std::optional<Choice> c = choose_with_window(all, window, depth);
        if (c && (!best || c->saving > best->saving)) best = c;
    }
    int64_t taken = 0;  // regions from the top of the buffer down, in model order
    for (size_t i = 0; best && i < all.size(); ++i) {
        if (!best->resident[i]) continue;
        taken += all[i].entries;
        all[i].layer->resident = ResidentWeights{static_cast<uint32_t>(depth - taken),
                                                 static_cast<uint32_t>(all[i].entries),
                                                 all[i].steady};
    }
    plan.shared_wgt_entries = depth - taken;
}

}  // namespace accel::network
