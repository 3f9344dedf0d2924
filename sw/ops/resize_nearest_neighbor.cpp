#include "ops/resize_nearest_neighbor.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {
namespace {

// TFLite's GetNearestNeighbor, its arithmetic in float and int32.
std::vector<int64_t> nearest(int64_t in_size, int64_t out_size, bool align_corners,
                             bool half_pixel_centers) {
    const auto in = static_cast<int32_t>(in_size);
    const auto out = static_cast<int32_t>(out_size);
    const float scale = align_corners && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                                 : static_cast<float>(in) / static_cast<float>(out);
    const float offset = half_pixel_centers ? 0.5f : 0.0f;
    std::vector<int64_t> map(static_cast<size_t>(out));
    for (int32_t i = 0; i < out; ++i) {
        const float at = (static_cast<float>(i) + offset) * scale;
        int32_t v = std::min(static_cast<int32_t>(align_corners ? std::round(at) : std::floor(at)),
                             in - 1);
        if (half_pixel_centers) v = std::max(0, v);
        map[static_cast<size_t>(i)] = v;
    }
    return map;
}

}  // namespace

ResizeNearestParams prepare_resize_nearest(const std::vector<int64_t>& x, int64_t out_h,
                                           int64_t out_w, bool align_corners,
                                           bool half_pixel_centers) {
    if (x.size() != 4) throw Error("resize_nearest_neighbor: the input must be NHWC");
    if (out_h < 1 || out_w < 1 || out_h > INT32_MAX || out_w > INT32_MAX) {
        throw Error(fmt::format("resize_nearest_neighbor: size [{}, {}] must be positive",
                                out_h, out_w));
    }
    if (align_corners && half_pixel_centers) {
        throw Error("resize_nearest_neighbor: align_corners and half_pixel_centers are "
                    "exclusive");
    }
    return {nearest(x[1], out_h, align_corners, half_pixel_centers),
            nearest(x[2], out_w, align_corners, half_pixel_centers)};
}

TensorI8 resize_nearest(const ResizeNearestParams& p, const TensorI8& x) {
    const int64_t n = x.shape.at(0), h = x.shape[1], w = x.shape[2], c = x.shape[3];
    const auto oh = static_cast<int64_t>(p.rows.size()), ow = static_cast<int64_t>(p.cols.size());
    TensorI8 out({n, oh, ow, c});
    int8_t* y = out.data.data();
    for (int64_t b = 0; b < n; ++b) {
        for (int64_t i = 0; i < oh; ++i) {
            for (int64_t j = 0; j < ow; ++j) {
                const int8_t* from =
                    x.data.data() + ((b * h + p.rows[static_cast<size_t>(i)]) * w +
                                     p.cols[static_cast<size_t>(j)]) * c;
                y = std::copy(from, from + c, y);
            }
        }
    }
    return out;
}

}  // namespace accel
