// TFLite's int8 MEAN as its reference kernel computes it: Prepare quantizes
// input_scale / output_scale, and reference_ops::QuantizedMeanOrSum sums in int32,
// folds 1/count into the multiplier and requantizes with MultiplyByQuantizedMultiplier.
// This is the path for every scale and zero point, equal or not.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct MeanParams {
    std::vector<int> axes;  // resolved: non-negative, ascending, no duplicates
    bool keep_dims = true;
    int32_t input_zero_point = 0;
    int32_t output_zero_point = 0;
    int32_t multiplier = 0;  // input_scale / output_scale, before the 1/count
    int shift = 0;           // in [-31, 30]
};

// axes may be negative (counted from the end) and repeat; rank is the input's.
MeanParams prepare_mean(size_t rank, const std::vector<int>& axes, bool keep_dims,
                        const QuantParams& input, const QuantParams& output);

// Mean over params.axes; those dimensions become 1 (keep_dims) or disappear.
TensorI8 mean(const MeanParams& params, const TensorI8& input);

}  // namespace accel
