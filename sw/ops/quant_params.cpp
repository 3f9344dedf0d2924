#include "ops/quant_params.hpp"

#include <cmath>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {

int32_t int8_zero_point(const QuantParams& q, std::string_view what) {
    if (!(q.scale > 0.0f && std::isfinite(q.scale))) {
        throw Error(fmt::format("{} scale {}: must be positive and finite", what, q.scale));
    }
    if (q.zero_point < -128 || q.zero_point > 127) {
        throw Error(fmt::format("{} zero point {}: must be in [-128, 127] for int8", what,
                                q.zero_point));
    }
    return static_cast<int32_t>(q.zero_point);
}

QuantizedMultiplier rescale_multiplier(const QuantParams& from, const QuantParams& to) {
    return quantize_multiplier(static_cast<double>(from.scale) / static_cast<double>(to.scale));
}

}  // namespace accel
