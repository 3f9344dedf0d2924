#include "ops/slice.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"

namespace accel {

StridedSliceParams prepare_slice(const std::vector<int64_t>& input_shape,
                                 const std::vector<int64_t>& begin,
                                 const std::vector<int64_t>& size) {
    const size_t rank = input_shape.size();
    if (begin.size() != rank || size.size() != rank || rank > 5) {
        throw Error(fmt::format("slice: begin [{}] and size [{}] for an input of rank {} (at most 5)",
                                fmt::join(begin, ","), fmt::join(size, ","), rank));
    }
    StridedSliceOptions o{.begin = begin, .end = {}, .strides = std::vector<int64_t>(rank, 1)};
    for (size_t d = 0; d < rank; ++d) {
        const int64_t n = size[d] == -1 ? input_shape[d] - begin[d] : size[d];
        if (begin[d] < 0 || n < 0 || begin[d] + n > input_shape[d]) {
            throw Error(fmt::format("slice: begin {} and size {} of dimension {} do not fit its {}",
                                    begin[d], size[d], d, input_shape[d]));
        }
        o.end.push_back(begin[d] + n);
    }
    return prepare_strided_slice(input_shape, o);
}

}  // namespace accel
