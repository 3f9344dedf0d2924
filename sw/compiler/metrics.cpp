#include "base/int_math.hpp"
#include "compiler/metrics.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace accel {
namespace {

// How many of `in` positions along one axis some output tap reads. Tap t reads the
// positions t·dilation − pad + o·stride, o < out: `out` consecutive steps of one residue
// class modulo the stride. Taps in order start ever later, so within a class each tap's
// run only extends the previous ones: O(kernel + stride), not O(out · kernel), which
// takes seconds on a wide image with a wide kernel.
int64_t positions_read(int64_t in, int64_t out, int64_t kernel, int stride, int pad,
                       int dilation) {
    std::vector<int64_t> covered(static_cast<size_t>(stride), INT64_MIN);  // by class: steps
    int64_t count = 0;
    for (int64_t t = 0; t < kernel; ++t) {
        const int64_t start = t * dilation - pad;
        const int64_t r = ((start % stride) + stride) % stride;  // the class, in [0, stride)
        const int64_t q = (start - r) / stride;                   // its first step
        // Positions r + j·stride with j in [q, q + out), new ones only, inside [0, in).
        const int64_t steps_inside = in > r ? ceil_div(in - r, stride) : 0;
        int64_t& end = covered[static_cast<size_t>(r)];
        const int64_t lo = std::max({q, end, int64_t{0}});
        const int64_t hi = std::min(q + out, steps_inside);
        if (hi > lo) count += hi - lo;
        end = std::max(end, q + out);
    }
    return count;
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

int64_t roofline_cycles(int64_t macs, int64_t compulsory_bytes, const HwConfig& hw) {
    return std::max(ceil_div(macs, hw.pes()), ceil_div(compulsory_bytes, hw.bus_bytes_per_cycle()));
}

int64_t roofline_cycles(const Conv2dLayer& layer, const HwConfig& hw) {
    return roofline_cycles(layer.macs(), compulsory_bytes(layer).total(), hw);
}

int64_t direct_gemm_cycles(const Conv2dLayer& layer, const HwConfig& hw) {
    const Conv2dShape& s = layer.shape;
    return ceil_div(s.n, hw.batch) * layer.out_h() * layer.out_w() * s.r * s.s *
           ceil_div(s.c, hw.block_in) * ceil_div(s.k, hw.block_out);
}

}  // namespace accel
