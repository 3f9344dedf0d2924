// Host-side conversion between the user's tensors (NHWC, HWIO) and the blocked DRAM
// layouts of layout.hpp, with C and K zero-padded to the block sizes.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "base/tensor.hpp"
#include "compiler/scheduler.hpp"
#include "ops/conv2d.hpp"

namespace accel {

// The whole DRAM image of a conv2d's program: instructions, input, weights, parameters
// (bias with -zx*sum(w) folded in, multiplier, shift), the zx row. The output region is
// zero. x, w and bias are the original layer's (program.lowered.original).
std::vector<uint8_t> build_dram_image(const Conv2dProgram& program, const HwParams& hw,
                                      const TensorI8& x, const TensorI8& w,
                                      const std::vector<int32_t>& bias);

// The parts of a conv2d's DRAM image that do not depend on its input: weights,
// parameters and the zx row, written where the program's layout puts them into `mem`,
// which holds the device's DRAM from address `origin` on.
void pack_constants(const Conv2dProgram& program, const HwParams& hw, const TensorI8& w,
                    const std::vector<int32_t>& bias, std::span<uint8_t> mem,
                    uint64_t origin = 0);

// An activation [N,H,W,C] in device memory: [NB][CB][H][W] entries of BATCH x BLOCK_IN,
// C zero-padded. It is at once the input layout of a conv2d without host-side padding
// and, when block_in == block_out, the output layout of one: a network's activations
// go from one device operator to the next as they lie.
int64_t activation_entries(const std::vector<int64_t>& nhwc, const HwParams& hw);
int64_t activation_bytes(const std::vector<int64_t>& nhwc, const HwParams& hw);
std::vector<uint8_t> pack_activation(const TensorI8& x, const HwParams& hw);
TensorI8 unpack_activation(std::span<const uint8_t> bytes, const std::vector<int64_t>& nhwc,
                           const HwParams& hw);

// Reads y [N,OH,OW,K] of the original `layer` back from the output region of its DRAM
// image ([NB][KB][OH][OW] entries, layout.hpp), which `output_region` points at.
TensorI8 unpack_output(const Conv2dLayer& layer, const HwParams& hw, const uint8_t* output_region);

// bias[k] - zx * sum over r,s,c of w[r,s,c,k], in int32 with wraparound: exact because
// padding holds zx (docs/semantics.md).
std::vector<int32_t> fold_input_zero_point(const Conv2dLayer& layer, const TensorI8& w,
                                           const std::vector<int32_t>& bias);

}  // namespace accel
