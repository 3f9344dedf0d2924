#include "ops/broadcast.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {
namespace {

std::vector<int64_t> aligned_strides(const std::vector<int64_t>& shape, size_t rank) {
    std::vector<int64_t> strides(rank, 0);
    int64_t stride = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        const size_t from_end = shape.size() - 1 - i;
        if (shape[from_end] != 1) strides[rank - 1 - i] = stride;
        stride *= shape[from_end];
    }
    return strides;
}

}  // namespace

Broadcast broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                           const char* op) {
    const size_t rank = std::max(a.size(), b.size());
    Broadcast r;
    r.shape.assign(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
        const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
        if (da != db && da != 1 && db != 1) {
            throw Error(fmt::format("{}: dimensions {} and {} (from the end: {}) do not "
                                    "broadcast", op, da, db, i));
        }
        r.shape[rank - 1 - i] = da == 1 ? db : da;
    }
    r.stride1 = aligned_strides(a, rank);
    r.stride2 = aligned_strides(b, rank);
    return r;
}

}  // namespace accel
