// The scheduler: turns a conv2d plan into the instruction stream of docs/isa.md and
// the DRAM layout it expects (docs/tiling.md). The host-side layout conversion that
// fills and reads that DRAM lives in layout.hpp.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "base/int_math.hpp"
#include "compiler/plan.hpp"
#include "hw/isa.hpp"
#include "ops/conv2d.hpp"

namespace accel {

struct DramRegion {
    uint32_t base = 0;
    uint32_t bytes = 0;
};

// Where each tensor lives in DRAM, in the blocked layouts the hardware reads:
//  input    [NB][CB][Hp][Wp] entries of BATCH x BLOCK_IN int8; Hp, Wp include `extra_pad`
//           rows/columns of zx that the load unit cannot insert itself (past kMaxLoadPad).
//           With a strided-read lowering it is the original input, of which the LOADs read
//           every step_h-th row from first_y and every step_w-th column from first_x:
//           the lowered layer's row y is row first_y + y*step_h here (columns alike).
//           With the packing lowering it is the original input too, which packing LOADs
//           read: the lowered column j packs its padded columns j .. j+pack_taps-1
//           (pack_bytes channels each), streamed from unpadded column j - pack_left.
//           A LOAD's window is clipped to rows [0, read_h) and columns [0, read_w) of
//           the input as the LOADs index it: Hp x Wp, or the rows and columns a strided
//           read keeps.
//  weights  [KB][R][S][CB] entries of BLOCK_OUT x BLOCK_IN int8 ([o][i])
//  params   [KB] entries: bias (zx folded in) int32[BO], multiplier int32[BO], shift int32[BO]
//  zx_row   a row of input entries holding zx, read for tiles that lie wholly in padding
//  output   [NB][KB][OH][OW] entries of BATCH x BLOCK_OUT int8
struct DramLayout {
    DramRegion program, input, weights, params, zx_row, output;
    int64_t extra_pad_top = 0, extra_pad_bottom = 0, extra_pad_left = 0, extra_pad_right = 0;
    int64_t padded_h = 0, padded_w = 0;  // Hp, Wp
    int64_t read_h = 0, read_w = 0;      // the rows and columns the LOADs index (above)
    int64_t first_y = 0, first_x = 0, step_h = 1, step_w = 1;
    int64_t pack_taps = 1, pack_bytes = 0, pack_left = 0;
    uint64_t dram_bytes = 0;             // everything above, rounded up
};

struct Conv2dProgram {
    Conv2dLayer layer;                   // the lowered layer the instructions compute
    Lowering lowering;                   // how it was lowered (lowering.hpp)
    std::vector<isa::Insn> insns;
    DramLayout layout;
    int64_t gemm_steps = 0;              // sum of the GEMMs' reduction steps
    int64_t load_bytes = 0;              // DRAM bytes the LOADs read
    int64_t drain_bytes = 0;             // DRAM bytes the DRAINs write
};

// The DRAM bytes of a layer's tensors, lowered as `lowering` says, in the layouts
// above, saturating at INT64_MAX for extreme shapes. Their total bounds the layer's DRAM image from below:
// the planner refuses a layer whose tensors alone pass 4 GiB before searching.
struct TensorFootprint {
    int64_t input = 0, weights = 0, params = 0, output = 0;
    int64_t total() const {
        return saturating_add(saturating_add(input, weights), saturating_add(params, output));
    }
};
TensorFootprint tensor_footprint(const Conv2dLayer& original, const Lowering& lowering,
                                 const HwParams& hw);

// For the layer lowered as the plan says.
DramLayout make_dram_layout(const Conv2dLayer& original, const HwParams& hw,
                            const Conv2dPlan& plan);

// Schedules the plan's lowering of `layer` (lowering.hpp). Throws accel::Error when the
// layer's DRAM image would not fit 32-bit addresses, or as soon as the program passes
// `max_instructions` (the planner's bound on the work of one candidate).
Conv2dProgram schedule_conv2d(const Conv2dLayer& layer, const HwParams& hw,
                              const Conv2dPlan& plan,
                              int64_t max_instructions = std::numeric_limits<int64_t>::max());

}  // namespace accel
