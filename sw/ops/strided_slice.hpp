// TFLite's STRIDED_SLICE (reference_ops::StridedSlice, its strided_slice_logic): per
// dimension a start, stop and stride from begin, end and strides with the begin, end and
// shrink-axis masks; negative indices count from the end and are clamped. The elements
// are copied: on int8 activations at run time, on int32 shapes at compile time
// (reference/constant_folding.hpp). The ellipsis and new-axis masks are not supported.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"

namespace accel {

struct StridedSliceOptions {
    std::vector<int64_t> begin, end, strides;  // one per input dimension
    int32_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0,
            shrink_axis_mask = 0;
    bool offset = false;  // end is relative to begin
};

struct StridedSliceParams {
    std::vector<int64_t> start, stop, stride;  // per input dimension
    std::vector<int64_t> sliced;               // elements along each input dimension
    std::vector<int64_t> output_shape;         // without the shrunk dimensions
};

// accel::Error as TFLite's Prepare fails: vectors of another length than the rank, a
// zero stride, a shrunk index outside its dimension, an ellipsis or new axis.
StridedSliceParams prepare_strided_slice(const std::vector<int64_t>& input_shape,
                                         const StridedSliceOptions& options);

template <typename T>
Tensor<T> strided_slice(const StridedSliceParams& p, const Tensor<T>& input) {
    Tensor<T> out(p.output_shape);
    const size_t rank = p.start.size();
    std::vector<int64_t> strides(rank, 1);  // of the input, in elements
    for (size_t d = rank; d-- > 1;) strides[d - 1] = strides[d] * input.shape[d];
    std::vector<int64_t> index(rank, 0);  // steps taken along each dimension
    for (size_t i = 0; i < out.data.size(); ++i) {
        int64_t at = 0;
        for (size_t d = 0; d < rank; ++d) at += (p.start[d] + index[d] * p.stride[d]) * strides[d];
        out.data[i] = input.data[static_cast<size_t>(at)];
        for (size_t d = rank; d-- > 0;) {
            if (++index[d] < p.sliced[d]) break;
            index[d] = 0;
        }
    }
    return out;
}

}  // namespace accel
