// TFLite's SPLIT, SPLIT_V and UNPACK: the input cut along one axis into consecutive
// pieces, each an output; UNPACK's pieces, of one element each, lose that dimension.
// The int8 values are copied, the quantization unchanged.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"

namespace accel {

struct SplitParams {
    size_t axis = 0;                                 // resolved: in [0, rank)
    std::vector<int64_t> sizes;                      // along the axis, one per output
    std::vector<std::vector<int64_t>> output_shapes;
};

// SPLIT: `num` pieces of equal size; accel::Error as TFLite's Prepare fails (an axis out
// of range, a dimension that `num` does not divide).
SplitParams prepare_split(const std::vector<int64_t>& input_shape, int64_t axis, int num);

// SPLIT_V: pieces of `size_splits` (one may be -1: what the others leave); accel::Error
// when they are not `num`, or do not add up to the dimension.
SplitParams prepare_split_v(const std::vector<int64_t>& input_shape,
                            const std::vector<int64_t>& size_splits, int64_t axis, int num);

// UNPACK: `num` pieces of one element, the axis dropped; accel::Error unless `num` is the
// dimension's size.
SplitParams prepare_unpack(const std::vector<int64_t>& input_shape, int64_t axis, int num);

std::vector<TensorI8> split(const SplitParams& params, const TensorI8& input);

}  // namespace accel
