// A depthwise operator's channel blocks as one program (compiler/program_chain.hpp,
// docs/networks.md): the blocks read and write disjoint slabs of the arena, so the next
// block's loads run under the previous block's drain, and the device starts once per
// operator instead of once per block.
#pragma once
#include <cstddef>
#include <cstdint>

#include "compiler/layout.hpp"
#include "hw/hw_params.hpp"
#include "network/network_plan.hpp"

namespace accel::network {

// Whether a step's conv2d layers run as one program: a device step of several.
bool chained(const Step& s);

// The PRM window of layer `index` of a chained step when its parameters do not stay on
// chip: neighbouring layers alternate between two windows of the layer's `entries`
// (program_chain.hpp says why), so the shared window must hold twice as many.
BufferWindow chained_params_window(size_t index, int64_t entries);

// Fills Step::chain of every chained step: its layers' programs, as the runner places
// them (resident constants loaded only in the first inference), chained and predicted.
void predict_chains(NetworkPlan& plan, const HwParams& hw);

}  // namespace accel::network
