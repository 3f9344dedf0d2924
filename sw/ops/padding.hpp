// TFLite's SAME/VALID padding of a 2-D window (ComputePaddingHeightWidth): the output
// size, and the padding before and after that TFLite's kernels imply.
#pragma once
#include <cstdint>

namespace accel {

enum class Padding { Same, Valid };

struct WindowPadding {
    int64_t out_h = 0, out_w = 0;
    // SAME puts the odd pixel of the total padding at the bottom/right.
    int pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
};

// SAME: out = ceil(in / stride). VALID: out = ceil((in - effective_filter + 1) / stride),
// with effective_filter = (filter - 1) * dilation + 1. Throws accel::Error for
// non-positive sizes, strides or dilations, and when the output would be empty.
WindowPadding compute_padding(Padding kind, int64_t in_h, int64_t in_w, int64_t filter_h,
                              int64_t filter_w, int stride_h, int stride_w, int dilation_h = 1,
                              int dilation_w = 1);

}  // namespace accel
