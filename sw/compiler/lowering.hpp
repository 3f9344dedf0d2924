// Rewrites of a conv2d into an equivalent one the core runs faster (docs/tiling.md,
// "Lowering"). The output is the same tensor, bit for bit; only the input and weights
// the device reads change.
//
//  Subsample    a 1x1 layer with stride > 1 reads one pixel in stride_h*stride_w: the
//               LOADs read just those from the original input in DRAM (a DRAM x stride
//               of stride_w entries, a y stride of stride_h rows), and the device runs
//               a 1x1 stride-1 layer on a quarter (at stride 2) of the bytes. No host
//               rewrite: the input stays as it is, so it applies inside networks too.
//               Each pixel read is a burst of its own, which bounds such LOADs by the
//               bursts in flight rather than by the bus.
//  SubsampleRows  the same for the rows only (a DRAM y stride of stride_h rows): whole
//               rows stream in long bursts, at twice the bytes (at stride 2) of
//               Subsample, and the core skips the unused columns (stride 1 x stride_w).
//  PackColumns  a layer with few input channels (C <= block_in/2, e.g. RGB) wastes most
//               of each block_in-wide dot product on zero padding. Packing LOADs
//               (docs/isa.md, LOAD, pack_taps) put P horizontally adjacent pixels into
//               one input-channel block as they read the original input: entry column
//               j of the device's input holds the padded pixels j, j+1, ..., j+P-1 side
//               by side, and the weights hold the matching taps, so the kernel shrinks
//               from S to ceil(S/P) columns of dilation P. No host rewrite of the input:
//               it applies inside networks too. Undilated layers only (the LOAD packs
//               adjacent entries).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/tensor.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa_fields.hpp"
#include "ops/conv2d.hpp"

namespace accel {

// Rows or columns of padding one LOAD inserts (its pad fields, docs/isa.md); the host
// pads a layer's input beyond that.
constexpr int64_t kMaxLoadPad = static_cast<int64_t>(isa::field_max(isa::kPadBits));

enum class LoweringKind { None, Subsample, SubsampleRows, PackColumns };

struct Lowering {
    LoweringKind kind = LoweringKind::None;
    int64_t pack = 1;  // PackColumns: kernel taps per input-channel block
    bool operator==(const Lowering&) const = default;
};

// Every lowering that applies to the layer on this core; {None} always comes first.
std::vector<Lowering> lowerings_for(const Conv2dLayer& layer, const HwParams& hw);

// "none", "subsample the strided 1x1 input by strided DMA reads", "pack 5 kernel
// columns per input-channel block".
std::string lowering_name(const Lowering& lowering);

// Whether the LOADs read the original input with strides (Subsample, SubsampleRows),
// and whether they read each input entry apart (a DRAM x stride: Subsample across
// strided columns).
bool reads_strided(const Lowering& lowering);
bool reads_entries_apart(const Conv2dLayer& layer, const Lowering& lowering);

// Where a strided-read lowering's input lies in the original one: its row y is the
// original row rows.first + y*rows.step (columns alike), and the rows of padding the
// lowered layer keeps are the outputs whose pixel falls in the original's padding. An
// axis the DMA reads whole has step 1 and keeps the original padding.
struct SubsampleAxis {
    int64_t first = 0, count = 0;  // first original row read, rows read
    int64_t step = 1;              // original rows per lowered row
    int64_t pad_before = 0, pad_after = 0;
};
struct SubsampleWindow {
    SubsampleAxis rows, cols;
};
SubsampleWindow subsample_window(const Conv2dLayer& layer, const Lowering& lowering);

// The layer the device runs: same N, output shape, K and requantization.
Conv2dLayer lower_layer(const Conv2dLayer& layer, const Lowering& lowering);

// The lowered layer's weights [R,S',C',K]; the input is never rewritten (the LOADs
// subsample or pack it as they read it).
TensorI8 lower_weights(const Conv2dLayer& layer, const Lowering& lowering, const TensorI8& w);

}  // namespace accel
