#include "ops/transpose.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"

namespace accel {

TransposeParams prepare_transpose(const std::vector<int64_t>& input_shape,
                                  const std::vector<int64_t>& perm) {
    const size_t rank = input_shape.size();
    if (perm.size() != rank || rank > 6) {
        throw Error(fmt::format("transpose: perm [{}] for an input of rank {} (at most 6)",
                                fmt::join(perm, ","), rank));
    }
    TransposeParams p{perm, {}};
    std::vector<bool> seen(rank, false);
    for (const int64_t d : perm) {
        if (d < 0 || d >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(d)]) {
            throw Error(fmt::format("transpose: perm [{}] is no permutation of the input's {} "
                                    "dimensions", fmt::join(perm, ","), rank));
        }
        seen[static_cast<size_t>(d)] = true;
        p.output_shape.push_back(input_shape[static_cast<size_t>(d)]);
    }
    return p;
}

TensorI8 transpose(const TransposeParams& p, const TensorI8& input) {
    TensorI8 out(p.output_shape);
    const size_t rank = p.perm.size();
    std::vector<int64_t> in_strides(rank, 1);
    for (size_t d = rank; d-- > 1;) in_strides[d - 1] = in_strides[d] * input.shape[d];
    std::vector<int64_t> step(rank);  // input stride of each output dimension
    for (size_t i = 0; i < rank; ++i) step[i] = in_strides[static_cast<size_t>(p.perm[i])];
    std::vector<int64_t> index(rank, 0);
    int64_t at = 0;
    for (size_t i = 0; i < out.data.size(); ++i) {
        out.data[i] = input.data[static_cast<size_t>(at)];
        for (size_t d = rank; d-- > 0;) {
            at += step[d];
            if (++index[d] < p.output_shape[d]) break;
            at -= step[d] * p.output_shape[d];
            index[d] = 0;
        }
    }
    return out;
}

}  // namespace accel
