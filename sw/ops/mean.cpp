#include "ops/mean.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/quant.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {
namespace {

std::vector<int> resolve_axes(size_t rank, const std::vector<int>& axes) {
    std::vector<int> resolved;
    for (int a : axes) {
        const int r = a < 0 ? a + static_cast<int>(rank) : a;
        if (r < 0 || r >= static_cast<int>(rank)) {
            throw Error(fmt::format("mean: axis {} is outside a rank-{} input", a, rank));
        }
        resolved.push_back(r);
    }
    std::sort(resolved.begin(), resolved.end());
    resolved.erase(std::unique(resolved.begin(), resolved.end()), resolved.end());
    return resolved;
}

}  // namespace

MeanParams prepare_mean(size_t rank, const std::vector<int>& axes, bool keep_dims,
                        const QuantParams& input, const QuantParams& output) {
    MeanParams p;
    p.axes = resolve_axes(rank, axes);
    p.keep_dims = keep_dims;
    prepare_rescale(p, input, output);
    return p;
}

TensorI8 mean(const MeanParams& p, const TensorI8& input) {
    const size_t rank = input.rank();
    if (resolve_axes(rank, p.axes) != p.axes) {
        throw Error("mean: axes must be resolved (use prepare_mean)");
    }
    std::vector<bool> reduced(rank, false);
    for (int a : p.axes) reduced[static_cast<size_t>(a)] = true;
    // Each input element adds into the output element with its reduced indices at 0.
    std::vector<int64_t> out_stride(rank, 0), kept_shape;
    int64_t stride = 1, count = 1;
    for (size_t d = rank; d-- > 0;) {
        if (reduced[d]) {
            count *= input.shape[d];
            continue;
        }
        out_stride[d] = stride;
        stride *= input.shape[d];
    }
    for (size_t d = 0; d < rank; ++d) {
        if (!reduced[d]) {
            kept_shape.push_back(input.shape[d]);
        } else if (p.keep_dims) {
            kept_shape.push_back(1);
        }
    }
    TensorI8 out(kept_shape);
    if (input.size() == 0) return out;  // TFLite fills it with zeros too
    std::vector<int32_t> sums(out.size(), 0);
    std::vector<int64_t> index(rank, 0);
    int64_t at = 0;
    for (int8_t v : input.data) {
        sums[static_cast<size_t>(at)] = wrapping_add(sums[static_cast<size_t>(at)], v);
        for (size_t d = rank; d-- > 0;) {
            at += out_stride[d];
            if (++index[d] < input.shape[d]) break;
            at -= out_stride[d] * input.shape[d];
            index[d] = 0;
        }
    }
    // Fold 1/count into the multiplier: scale it up by 2^shift (at most 2^32, and the
    // total right shift at most 31) and divide by count, in int64 as TFLite does.
    int shift = 63 - std::countl_zero(static_cast<uint64_t>(count));
    shift = std::min(shift, 32);
    shift = std::min(shift, 31 + p.shift);
    const auto multiplier =
        static_cast<int32_t>((static_cast<int64_t>(p.multiplier) << shift) / count);
    const int out_shift = p.shift - shift;
    const int64_t zero_sum = int64_t{p.input_zero_point} * count;
    for (size_t i = 0; i < out.size(); ++i) {
        const auto centered = static_cast<int32_t>(static_cast<uint32_t>(
            static_cast<int64_t>(sums[i]) - zero_sum));  // int64, truncated to int32
        const int32_t v =
            wrapping_add(mbqm(centered, multiplier, out_shift), p.output_zero_point);
        out.data[i] = static_cast<int8_t>(std::clamp(v, -128, 127));
    }
    return out;
}

}  // namespace accel
