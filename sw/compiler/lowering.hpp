// Host-side rewrites of a conv2d into an equivalent one the core runs faster
// (docs/tiling.md, "Lowering"). The output is the same tensor, bit for bit; only the
// input and weights the device reads change.
//
//  Subsample    a 1x1 layer with stride > 1 reads one pixel in stride_h*stride_w: the
//               host keeps just those, and the device runs a 1x1 stride-1 layer on a
//               quarter (at stride 2) of the bytes.
//  PackColumns  a layer with few input channels (C <= block_in/2, e.g. RGB) wastes most
//               of each block_in-wide dot product on zero padding. The host packs P
//               horizontally adjacent kernel taps into one input-channel block: entry
//               column j of the device's input holds the pixels j, j+d, ..., j+(P-1)d
//               (d = dilation_w) side by side, and the weights hold the matching taps,
//               so the kernel shrinks from S to ceil(S/P) columns of dilation P*d. The
//               padded C already costs block_in bytes per pixel, so the packed input
//               is no larger in DRAM than the plain one.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/tensor.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"

namespace accel {

enum class LoweringKind { None, Subsample, PackColumns };

struct Lowering {
    LoweringKind kind = LoweringKind::None;
    int64_t pack = 1;  // PackColumns: kernel taps per input-channel block
    bool operator==(const Lowering&) const = default;
};

// Every lowering that applies to the layer on this core; {None} always comes first.
std::vector<Lowering> lowerings_for(const Conv2dLayer& layer, const HwParams& hw);

// "none", "subsample 2x2", "pack 5 kernel columns per input-channel block".
std::string lowering_name(const Lowering& lowering);

// The layer the device runs: same N, output shape, K and requantization.
Conv2dLayer lower_layer(const Conv2dLayer& layer, const Lowering& lowering);

// The device's input [N,H',W',C'] and weights [R,S',C',K] for the lowered layer.
TensorI8 lower_input(const Conv2dLayer& layer, const Lowering& lowering, const TensorI8& x);
TensorI8 lower_weights(const Conv2dLayer& layer, const Lowering& lowering, const TensorI8& w);

}  // namespace accel
