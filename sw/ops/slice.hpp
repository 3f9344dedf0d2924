// TFLite's SLICE: `size` elements from `begin` along each dimension (a size of -1: to the
// end), copied as a STRIDED_SLICE with strides of 1 (ops/strided_slice.hpp).
#pragma once
#include <cstdint>
#include <vector>

#include "ops/strided_slice.hpp"

namespace accel {

// accel::Error as TFLite's Prepare fails: begin or size of another length than the rank,
// over 5 dimensions, a size below -1, or a slice past a dimension's end.
StridedSliceParams prepare_slice(const std::vector<int64_t>& input_shape,
                                 const std::vector<int64_t>& begin,
                                 const std::vector<int64_t>& size);

}  // namespace accel
