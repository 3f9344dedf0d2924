// Host-side layout conversion between the user's tensors (NHWC, HWIO) and the blocked
// DRAM layouts of scheduler.hpp, with C and K zero-padded to the block sizes.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"
#include "compiler/scheduler.hpp"
#include "ops/conv2d.hpp"

namespace accel {

// The whole DRAM image of a conv2d: instructions, input, weights, parameters (bias with
// -zx*sum(w) folded in, multiplier, shift), the zx row. The output region is zero.
std::vector<uint8_t> build_dram_image(const Conv2dLayer& layer, const HwParams& hw,
                                      const Conv2dProgram& program, const TensorI8& x,
                                      const TensorI8& w, const std::vector<int32_t>& bias);

// Reads y [N,OH,OW,K] back from the output region of a DRAM image (or of its output
// region alone when `bytes` starts at the region).
TensorI8 unpack_output(const Conv2dLayer& layer, const HwParams& hw, const DramLayout& layout,
                       const uint8_t* output_region);

// bias[k] - zx * sum over r,s,c of w[r,s,c,k], in int32 with wraparound: exact because
// padding holds zx (docs/semantics.md).
std::vector<int32_t> fold_input_zero_point(const Conv2dLayer& layer, const TensorI8& w,
                                           const std::vector<int32_t>& bias);

}  // namespace accel
