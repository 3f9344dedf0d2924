#include "random_layer.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "ops/quant.hpp"

namespace accel::testing {
namespace {

int pick(std::mt19937& rng, int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
}

}  // namespace

LayerCase make_case(std::mt19937& rng, const Conv2dShape& shape, const Conv2dParams& geometry) {
    LayerCase c;
    c.layer.shape = shape;
    c.layer.params = geometry;
    Conv2dParams& p = c.layer.params;
    p.input_zero_point = pick(rng, -40, 40);
    p.output_zero_point = pick(rng, -20, 20);
    // |x - zx| * |w| is about 64 * 64 on average; a sum of depth terms of random sign
    // has a spread of about 4096 * sqrt(depth). Scale that to about +-64.
    const double depth = static_cast<double>(shape.r * shape.s * shape.c);
    const double scale = 64.0 / (4096.0 * std::sqrt(depth) + 1.0);
    p.multiplier.resize(static_cast<size_t>(shape.k));
    p.shift.resize(static_cast<size_t>(shape.k));
    for (int64_t k = 0; k < shape.k; ++k) {
        const double jitter = std::uniform_real_distribution<double>(0.5, 1.5)(rng);
        const QuantizedMultiplier q = quantize_multiplier(std::min(0.999, scale * jitter));
        // One channel in six takes about the same scale through a left shift of 1 to 8
        // and a smaller multiplier, so that the devices' left shift is exercised. Derived
        // from the jitter rather than drawn, so every other value of the case (and of
        // the layers drawn after it) stays as it was.
        const int left = jitter >= 4.0 / 3 ? 1 + static_cast<int>((jitter - 4.0 / 3) * 48) : 0;
        p.multiplier[static_cast<size_t>(k)] =
            left > 0 ? q.multiplier >> std::min(31, left - q.shift) : q.multiplier;
        p.shift[static_cast<size_t>(k)] = left > 0 ? left : q.shift;
    }
    if (pick(rng, 0, 3) == 0) p.act_min = p.output_zero_point;  // ReLU
    c.x = TensorI8({shape.n, shape.h, shape.w, shape.c});
    c.w = TensorI8({shape.r, shape.s, shape.c, shape.k});
    for (auto& v : c.x.data) v = static_cast<int8_t>(pick(rng, -128, 127));
    for (auto& v : c.w.data) v = static_cast<int8_t>(pick(rng, -128, 127));
    c.bias.resize(static_cast<size_t>(shape.k));
    for (auto& v : c.bias) v = pick(rng, -20000, 20000);
    return c;
}

LayerCase random_layer(std::mt19937& rng, const LayerLimits& lim) {
    static const int kKernels[] = {1, 1, 2, 3, 3, 5, 7};
    while (true) {
        Conv2dShape s;
        s.n = pick(rng, 1, static_cast<int>(lim.max_n));
        s.h = pick(rng, 1, static_cast<int>(lim.max_hw));
        s.w = pick(rng, 1, static_cast<int>(lim.max_hw));
        s.c = pick(rng, 1, static_cast<int>(lim.max_c));
        s.k = pick(rng, 1, static_cast<int>(lim.max_k));
        s.r = std::min(kKernels[pick(rng, 0, 6)], lim.max_kernel);
        s.s = pick(rng, 0, 3) == 0 ? std::min(kKernels[pick(rng, 0, 6)], lim.max_kernel) : s.r;
        Conv2dParams g;
        g.stride_h = pick(rng, 1, lim.max_stride);
        g.stride_w = pick(rng, 0, 1) ? g.stride_h : pick(rng, 1, lim.max_stride);
        g.dilation_h = pick(rng, 1, lim.max_dilation);
        g.dilation_w = pick(rng, 1, lim.max_dilation);
        g.pad_top = pick(rng, 0, lim.max_pad);
        g.pad_bottom = pick(rng, 0, lim.max_pad);
        g.pad_left = pick(rng, 0, lim.max_pad);
        g.pad_right = pick(rng, 0, lim.max_pad);
        Conv2dLayer probe{s, g};
        if (probe.out_h() < 1 || probe.out_w() < 1) continue;
        return make_case(rng, s, g);
    }
}

size_t distinct_values(const TensorI8& y) {
    return std::set<int8_t>(y.data.begin(), y.data.end()).size();
}

}  // namespace accel::testing
