// Figures that depend only on a layer and a hardware config, not on how it is tiled:
// the lower bounds every run is measured against (docs/cli.md, "report").
#pragma once
#include <cstdint>

#include "hw/hw_config.hpp"
#include "ops/conv2d.hpp"

namespace accel {

// Input elements the layer actually reads (rows and columns some output tap touches),
// each counted once. A 1x1 stride-2 layer reads a quarter of its input.
int64_t input_elements_read(const Conv2dLayer& layer);

struct CompulsoryBytes {
    int64_t input = 0;    // input_elements_read, int8
    int64_t weights = 0;  // R*S*C*K int8
    int64_t params = 0;   // per output channel: int32 bias + int32 multiplier + int8 shift
    int64_t output = 0;   // N*OH*OW*K int8
    int64_t total() const { return input + weights + params + output; }
};
CompulsoryBytes compulsory_bytes(const Conv2dLayer& layer);

// max(ceil(MACs / PEs), ceil(compulsory bytes / bus bytes per cycle)).
int64_t roofline_cycles(int64_t macs, int64_t compulsory_bytes, const HwConfig& hw);
int64_t roofline_cycles(const Conv2dLayer& layer, const HwConfig& hw);

// GEMM issue cycles of the direct blocking (no tap packing), if the core never stalled:
// ceil(N/batch) * OH * OW * R * S * ceil(C/block_in) * ceil(K/block_out).
int64_t direct_gemm_cycles(const Conv2dLayer& layer, const HwConfig& hw);

}  // namespace accel
