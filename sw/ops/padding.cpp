#include "ops/padding.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {
namespace {

struct AxisPadding {
    int64_t out;
    int64_t before, after;
};

AxisPadding pad_axis(Padding kind, int64_t in, int64_t filter, int stride, int dilation,
                     char axis) {
    if (in < 1 || filter < 1 || stride < 1 || dilation < 1) {
        throw Error(fmt::format("padding along {}: input {}, filter {}, stride {}, dilation {}"
                                " must all be >= 1", axis, in, filter, stride, dilation));
    }
    const int64_t effective_filter = (filter - 1) * dilation + 1;
    const int64_t out = kind == Padding::Same ? (in + stride - 1) / stride
                                              : (in + stride - effective_filter) / stride;
    if (out < 1) {
        throw Error(fmt::format("padding along {}: filter {} (dilated {}) does not fit the "
                                "input {} with VALID padding", axis, filter, effective_filter,
                                in));
    }
    const int64_t total = std::max<int64_t>(0, (out - 1) * stride + effective_filter - in);
    if (total > std::numeric_limits<int>::max()) {
        throw Error(fmt::format("padding along {}: {} pixels do not fit an int", axis, total));
    }
    return {out, total / 2, total / 2 + total % 2};
}

}  // namespace

WindowPadding compute_padding(Padding kind, int64_t in_h, int64_t in_w, int64_t filter_h,
                              int64_t filter_w, int stride_h, int stride_w, int dilation_h,
                              int dilation_w) {
    const AxisPadding h = pad_axis(kind, in_h, filter_h, stride_h, dilation_h, 'H');
    const AxisPadding w = pad_axis(kind, in_w, filter_w, stride_w, dilation_w, 'W');
    return {h.out, w.out, static_cast<int>(h.before), static_cast<int>(h.after),
            static_cast<int>(w.before), static_cast<int>(w.after)};
}

}  // namespace accel
