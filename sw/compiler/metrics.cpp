#include "base/int_math.hpp"
#include "compiler/metrics.hpp"

#include <algorithm>
#include <vector>

namespace accel {
namespace {

// How many of `in` positions along one axis some output tap reads.
int64_t positions_read(int64_t in, int64_t out, int64_t kernel, int stride, int pad,
                       int dilation) {
    std::vector<bool> read(static_cast<size_t>(in), false);
    for (int64_t o = 0; o < out; ++o) {
        for (int64_t t = 0; t < kernel; ++t) {
            const int64_t i = o * stride - pad + t * dilation;
            if (i >= 0 && i < in) read[static_cast<size_t>(i)] = true;
        }
    }
    return std::count(read.begin(), read.end(), true);
}

}  // namespace

int64_t input_elements_read(const Conv2dLayer& layer) {
    const Conv2dShape& s = layer.shape;
    const Conv2dParams& p = layer.params;
    // The taps along H and W are independent, so the set read is a product of the two.
    const int64_t rows =
        positions_read(s.h, layer.out_h(), s.r, p.stride_h, p.pad_top, p.dilation_h);
    const int64_t cols =
        positions_read(s.w, layer.out_w(), s.s, p.stride_w, p.pad_left, p.dilation_w);
    return s.n * rows * cols * s.c;
}

CompulsoryBytes compulsory_bytes(const Conv2dLayer& layer) {
    const Conv2dShape& s = layer.shape;
    CompulsoryBytes b;
    b.input = input_elements_read(layer);
    b.weights = s.r * s.s * s.c * s.k;
    b.params = s.k * (4 + 4 + 1);
    b.output = s.n * layer.out_h() * layer.out_w() * s.k;
    return b;
}

int64_t roofline_cycles(const Conv2dLayer& layer, const HwConfig& hw) {
    const int64_t compute = ceil_div(layer.macs(), hw.pes());
    const int64_t memory = ceil_div(compulsory_bytes(layer).total(), hw.bus_bytes_per_cycle());
    return std::max(compute, memory);
}

int64_t direct_gemm_cycles(const Conv2dLayer& layer, const HwConfig& hw) {
    const Conv2dShape& s = layer.shape;
    return ceil_div(s.n, hw.batch) * layer.out_h() * layer.out_w() * s.r * s.s *
           ceil_div(s.c, hw.block_in) * ceil_div(s.k, hw.block_out);
}

}  // namespace accel
