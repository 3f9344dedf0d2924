#include "ops/pad.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {

PadParams prepare_pad(const std::vector<std::array<int64_t, 2>>& paddings,
                      const QuantParams& output) {
    for (const auto& [before, after] : paddings) {
        if (before < 0 || after < 0) {
            throw Error(fmt::format("pad: padding {{{}, {}}} is negative", before, after));
        }
    }
    return {paddings, static_cast<int8_t>(int8_zero_point(output, "output"))};
}

TensorI8 pad(const PadParams& p, const TensorI8& input) {
    const size_t rank = input.rank();
    if (p.paddings.size() != rank) {
        throw Error(fmt::format("pad: {} padding pairs for a rank-{} input", p.paddings.size(),
                                rank));
    }
    std::vector<int64_t> shape(rank);
    for (size_t d = 0; d < rank; ++d) {
        if (p.paddings[d][0] < 0 || p.paddings[d][1] < 0) throw Error("pad: negative padding");
        shape[d] = input.shape[d] + p.paddings[d][0] + p.paddings[d][1];
    }
    TensorI8 out(shape);
    std::fill(out.data.begin(), out.data.end(), p.pad_value);
    if (input.size() == 0) return out;
    if (rank == 0) return input;
    // Copy the input row by row (the last dimension) to its offset in the output.
    const int64_t row = rank == 0 ? 1 : input.shape[rank - 1];
    std::vector<int64_t> index(rank, 0);
    for (size_t from = 0; from < input.size(); from += static_cast<size_t>(row)) {
        int64_t to = 0;
        for (size_t d = 0; d < rank; ++d) to = to * shape[d] + index[d] + p.paddings[d][0];
        std::copy_n(input.data.begin() + static_cast<std::ptrdiff_t>(from), row,
                    out.data.begin() + static_cast<std::ptrdiff_t>(to));
        for (size_t d = rank - 1; d-- > 0;) {  // advance over all but the last dimension
            if (++index[d] < input.shape[d]) break;
            index[d] = 0;
        }
    }
    return out;
}

}  // namespace accel
