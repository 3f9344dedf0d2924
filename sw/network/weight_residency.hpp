// Weights kept on chip across inferences (docs/networks.md, "Weights resident across
// inferences"): which device layers keep their weights in the weight buffer (WGT), and
// their parameters in the parameter table (PRM), from one inference to the next, and
// where. A layer qualifies when its plan loads each tile of them once
// (weights_loaded_once_entries, params_loaded_once_entries); each layer chosen gets a
// region of its own at the top of the buffer, while the window below still holds what
// every other program needs there.
#pragma once
#include "hw/hw_params.hpp"
#include "network/network_plan.hpp"

namespace accel::network {

// Fills `plan`'s ConvLayer::resident, shared_wgt_entries and shared_prm_entries: the
// weights first, then the parameters, each buffer's regions chosen for the most
// predicted cycles saved (a knapsack for each width the shared window could have).
// Every plan is kept as planned, so a model whose weights do not fit runs as before.
void keep_weights_resident(NetworkPlan& plan, const HwParams& hw);

}  // namespace accel::network
