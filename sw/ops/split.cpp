#include "ops/split.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"

namespace accel {
namespace {

size_t resolve_axis(int64_t axis, size_t rank, const char* op) {
    const auto r = static_cast<int64_t>(rank);
    if (axis < -r || axis >= r) {
        throw Error(fmt::format("{}: axis {} is outside the rank-{} input", op, axis, rank));
    }
    return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

SplitParams pieces(const std::vector<int64_t>& shape, size_t axis, std::vector<int64_t> sizes) {
    SplitParams p{axis, std::move(sizes), {}};
    for (const int64_t n : p.sizes) {
        std::vector<int64_t> s = shape;
        s[axis] = n;
        p.output_shapes.push_back(std::move(s));
    }
    return p;
}

}  // namespace

SplitParams prepare_split(const std::vector<int64_t>& input_shape, int64_t axis, int num) {
    const size_t a = resolve_axis(axis, input_shape.size(), "split");
    if (num < 1 || input_shape[a] % num != 0) {
        throw Error(fmt::format("split: {} splits of dimension {} ({}) are not even", num, a,
                                input_shape[a]));
    }
    return pieces(input_shape, a, std::vector<int64_t>(static_cast<size_t>(num), input_shape[a] / num));
}

SplitParams prepare_split_v(const std::vector<int64_t>& input_shape,
                            const std::vector<int64_t>& size_splits, int64_t axis, int num) {
    const size_t a = resolve_axis(axis, input_shape.size(), "split_v");
    if (static_cast<int64_t>(size_splits.size()) != num) {
        throw Error(fmt::format("split_v: {} size_splits for num_splits {}", size_splits.size(), num));
    }
    std::vector<int64_t> sizes = size_splits;
    const auto unknown = std::count(sizes.begin(), sizes.end(), -1);
    int64_t known = 0;
    for (const int64_t n : sizes) {
        if (n < -1) throw Error(fmt::format("split_v: size_splits [{}] has a size below -1", fmt::join(size_splits, ",")));
        if (n > 0) known += n;
    }
    if (unknown == 1) *std::find(sizes.begin(), sizes.end(), -1) = input_shape[a] - known;
    if (unknown > 1 || (unknown == 1 && known > input_shape[a]) ||
        (unknown == 0 && known != input_shape[a])) {
        throw Error(fmt::format("split_v: size_splits [{}] do not add up to dimension {} ({})",
                                fmt::join(size_splits, ","), a, input_shape[a]));
    }
    return pieces(input_shape, a, std::move(sizes));
}

SplitParams prepare_unpack(const std::vector<int64_t>& input_shape, int64_t axis, int num) {
    const size_t a = resolve_axis(axis, input_shape.size(), "unpack");
    if (input_shape[a] != num) {
        throw Error(fmt::format("unpack: num {} differs from dimension {} ({})", num, a,
                                input_shape[a]));
    }
    SplitParams p = pieces(input_shape, a, std::vector<int64_t>(static_cast<size_t>(num), 1));
    for (std::vector<int64_t>& s : p.output_shapes) s.erase(s.begin() + static_cast<std::ptrdiff_t>(a));
    return p;
}

std::vector<TensorI8> split(const SplitParams& p, const TensorI8& input) {
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < p.axis; ++d) outer *= input.shape[d];
    for (size_t d = p.axis + 1; d < input.shape.size(); ++d) inner *= input.shape[d];
    const int64_t along = input.shape[p.axis];
    std::vector<TensorI8> out;
    int64_t first = 0;  // of the piece along the axis
    for (size_t i = 0; i < p.sizes.size(); ++i) {
        TensorI8 y(p.output_shapes[i]);
        const int64_t chunk = p.sizes[i] * inner;
        for (int64_t o = 0; o < outer; ++o) {
            const auto from = input.data.begin() + static_cast<std::ptrdiff_t>((o * along + first) * inner);
            std::copy(from, from + chunk, y.data.begin() + static_cast<std::ptrdiff_t>(o * chunk));
        }
        first += p.sizes[i];
        out.push_back(std::move(y));
    }
    return out;
}

}  // namespace accel
