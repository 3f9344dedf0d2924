// TFLite's RESIZE_NEAREST_NEIGHBOR (reference_ops::ResizeNearestNeighbor) on NHWC int8:
// each output pixel copies the input pixel its coordinates map to, in float, with
// align_corners and half_pixel_centers as TFLite computes them. The values are copied,
// not requantized.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"

namespace accel {

struct ResizeNearestParams {
    std::vector<int64_t> rows, cols;  // the input row (column) of each output row (column)
};

// accel::Error for a size that is not positive, or both flags set.
ResizeNearestParams prepare_resize_nearest(const std::vector<int64_t>& input_nhwc,
                                           int64_t out_h, int64_t out_w, bool align_corners,
                                           bool half_pixel_centers);

TensorI8 resize_nearest(const ResizeNearestParams& params, const TensorI8& input);

}  // namespace accel
