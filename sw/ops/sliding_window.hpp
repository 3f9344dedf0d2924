// What TFLite's sliding-window operators (DEPTHWISE_CONV_2D, MAX_POOL_2D,
// AVERAGE_POOL_2D) share: the options a model states for the window, and where the
// window reads each output position from once Prepare has padded it.
#pragma once
#include <cstdint>

#include "ops/activation.hpp"
#include "ops/padding.hpp"

namespace accel {

struct WindowOptions {
    Padding padding = Padding::Same;
    int stride_h = 1, stride_w = 1;
    FusedActivation activation = FusedActivation::None;
};

// Output (oy, ox) starts at input row oy * stride_h - pad_top, column ox * stride_w - pad_left.
struct WindowGeometry {
    int stride_h = 1, stride_w = 1;
    int pad_top = 0, pad_left = 0;  // the bottom/right padding follows from out_h/out_w
    int64_t out_h = 1, out_w = 1;
};

// The Prepare step every sliding-window operator shares: its strides, and the top/left
// padding and output size compute_padding() found.
inline WindowGeometry window_geometry(const WindowOptions& options, const WindowPadding& pad) {
    return {.stride_h = options.stride_h, .stride_w = options.stride_w, .pad_top = pad.pad_top,
            .pad_left = pad.pad_left, .out_h = pad.out_h, .out_w = pad.out_w};
}

}  // namespace accel
