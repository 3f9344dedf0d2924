// The golden int8 conv2d: the bit-exact meaning of every result (docs/semantics.md).
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"
#include "ops/conv2d.hpp"

namespace accel {

// x: [N,H,W,C] int8, w: [R,S,C,K] int8, bias: K int32. Returns y: [N,OH,OW,K] int8.
// Validates the layer and the tensor shapes first (accel::Error).
TensorI8 conv2d_reference(const Conv2dLayer& layer, const TensorI8& x, const TensorI8& w,
                          const std::vector<int32_t>& bias);

}  // namespace accel
