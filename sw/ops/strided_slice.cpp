#include "ops/strided_slice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"

namespace accel {
namespace {

constexpr int64_t kLowest = std::numeric_limits<int32_t>::lowest();
constexpr int64_t kMax = std::numeric_limits<int32_t>::max();

// StartForAxis and StopForAxis: a mask takes the whole dimension in the stride's
// direction; a negative index counts from the end; the result is clamped to
// [0, size] going forward, [-1, size - 1] going backward.
int64_t clamp_index(int64_t i, int64_t size, int64_t stride) {
    if (i < 0) i += size;
    return stride > 0 ? std::clamp<int64_t>(i, 0, size) : std::clamp<int64_t>(i, -1, size - 1);
}

}  // namespace

StridedSliceParams prepare_strided_slice(const std::vector<int64_t>& shape,
                                         const StridedSliceOptions& o) {
    const size_t rank = shape.size();
    if (o.begin.size() != rank || o.end.size() != rank || o.strides.size() != rank) {
        throw Error(fmt::format("strided_slice: begin, end and strides have {}, {} and {} "
                                "values for the rank-{} input", o.begin.size(), o.end.size(),
                                o.strides.size(), rank));
    }
    if (rank > 31) throw Error("strided_slice: more than 31 dimensions");
    if (o.ellipsis_mask != 0 || o.new_axis_mask != 0) {
        throw Error("strided_slice: the ellipsis and new axis masks are not supported");
    }
    StridedSliceParams p;
    for (size_t d = 0; d < rank; ++d) {
        const int64_t size = shape[d], stride = o.strides[d];
        const uint32_t bit = uint32_t{1} << d;
        if (stride == 0) throw Error(fmt::format("strided_slice: stride of dimension {} is 0", d));
        int64_t start = 0, stop = 0;
        if (size != 0) {
            start = (static_cast<uint32_t>(o.begin_mask) & bit) ? (stride > 0 ? kLowest : kMax)
                                                                : o.begin[d];
            start = clamp_index(start, size, stride);
            stop = o.offset ? o.end[d] + o.begin[d] : o.end[d];
            if (static_cast<uint32_t>(o.end_mask) & bit) stop = stride > 0 ? kMax : kLowest;
            stop = clamp_index(stop, size, stride);
        }
        const bool shrink = (static_cast<uint32_t>(o.shrink_axis_mask) & bit) != 0;
        if (shrink) {
            if (start < 0 || start >= size) {
                throw Error(fmt::format("strided_slice: index {} of dimension {} is outside its "
                                        "size {}", o.begin[d], d, size));
            }
            stop = start + 1;
        }
        // TFLite divides in float and rounds up: valid for either sign of the stride.
        const auto n = static_cast<int64_t>(
            std::ceil(static_cast<float>(stop - start) / static_cast<float>(stride)));
        p.start.push_back(start);
        p.stop.push_back(stop);
        p.stride.push_back(stride);
        p.sliced.push_back(std::max<int64_t>(n, 0));
        if (!shrink) p.output_shape.push_back(p.sliced.back());
    }
    return p;
}

}  // namespace accel
