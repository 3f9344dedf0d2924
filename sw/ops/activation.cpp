#include "ops/activation.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {
namespace {

int32_t quantize_bound(float real, float scale, int32_t zero_point) {
    const float q = std::round(real / scale);  // float division and rounding, as TFLite
    if (!(q >= -2147483648.0f && q <= 2147483648.0f)) {
        throw Error(fmt::format("activation bound {} / scale {}: outside int32", real, scale));
    }
    // float(INT32_MAX) is 2^31, which TFLite's range check lets through.
    return wrapping_add(zero_point, truncate_to_int32(q));
}

}  // namespace

ActivationRange activation_range(FusedActivation kind, float scale, int32_t zero_point) {
    constexpr int32_t kMin = -128, kMax = 127;
    switch (kind) {
        case FusedActivation::None:
            return {kMin, kMax};
        case FusedActivation::Relu:
            return {std::max(kMin, quantize_bound(0.0f, scale, zero_point)), kMax};
        case FusedActivation::Relu6:
            return {std::max(kMin, quantize_bound(0.0f, scale, zero_point)),
                    std::min(kMax, quantize_bound(6.0f, scale, zero_point))};
        case FusedActivation::ReluN1To1:
            return {std::max(kMin, quantize_bound(-1.0f, scale, zero_point)),
                    std::min(kMax, quantize_bound(1.0f, scale, zero_point))};
    }
    throw Error("activation: unknown fused activation");
}

}  // namespace accel
