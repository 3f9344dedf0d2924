// Weights kept on chip across inferences (docs/networks.md, "Weights resident"): which
// device layers keep their weights in the weight buffer (WGT) from one inference to the
// next, and where. A layer qualifies when its plan loads each weight tile once
// (weights_loaded_once_entries); each such layer gets a region of its own at the top
// of the buffer while the region below still holds what every other program needs.
#pragma once
#include "hw/hw_params.hpp"
#include "network/network_plan.hpp"

namespace accel::network {

// Fills `plan`'s ConvLayer::resident and shared_wgt_entries. Layers are taken in model
// order, in passes until none more fits: a layer joins when its region, the regions
// taken, and the largest window a layer left out (or an ADD) needs all fit the buffer.
// Every plan is kept as planned, so a model whose weights do not fit runs as before.
void keep_weights_resident(NetworkPlan& plan, const HwParams& hw);

}  // namespace accel::network
