#include "ops/pack.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"

namespace accel {

PackParams prepare_pack(const std::vector<std::vector<int64_t>>& shapes, int axis) {
    if (shapes.empty()) throw Error("pack: no inputs");
    const std::vector<int64_t>& first = shapes[0];
    const int rank = static_cast<int>(first.size()) + 1;  // the output's
    const int resolved = axis < 0 ? axis + rank : axis;
    if (resolved < 0 || resolved >= rank) {
        throw Error(fmt::format("pack: axis {} is outside the rank-{} output", axis, rank));
    }
    for (size_t i = 1; i < shapes.size(); ++i) {
        if (shapes[i] != first) {
            throw Error(fmt::format("pack: input {} [{}] differs from input 0 [{}]", i,
                                    fmt::join(shapes[i], ","), fmt::join(first, ",")));
        }
    }
    PackParams p;
    p.axis = resolved;
    p.output_shape = first;
    p.output_shape.insert(p.output_shape.begin() + resolved, static_cast<int64_t>(shapes.size()));
    return p;
}

}  // namespace accel
