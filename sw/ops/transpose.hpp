// TFLite's TRANSPOSE (reference_ops::Transpose): output dimension i is input dimension
// perm[i]; the int8 values are copied, the quantization unchanged.
#pragma once
#include <cstdint>
#include <vector>

#include "base/tensor.hpp"

namespace accel {

struct TransposeParams {
    std::vector<int64_t> perm;  // a permutation of [0, rank)
    std::vector<int64_t> output_shape;
};

// accel::Error as TFLite's Prepare fails: a perm of another length than the rank, over
// 6 dimensions, or an index out of range; a perm naming a dimension twice too.
TransposeParams prepare_transpose(const std::vector<int64_t>& input_shape,
                                  const std::vector<int64_t>& perm);

TensorI8 transpose(const TransposeParams& params, const TensorI8& input);

}  // namespace accel
