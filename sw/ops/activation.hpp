// The fused activations of TFLite's int8 operators and the clamp range they become
// (CalculateActivationRangeQuantized).
#pragma once
#include <cstdint>

namespace accel {

enum class FusedActivation { None, Relu, Relu6, ReluN1To1 };

struct ActivationRange {
    int32_t min = -128;
    int32_t max = 127;
};

// The real bounds (0, 6, -1, 1) quantized with the output's scale and zero point, in
// float as TFLite does (round half away from zero), and intersected with [-128, 127].
// Throws accel::Error when a bound quantizes outside int32, where TFLite fails.
ActivationRange activation_range(FusedActivation kind, float scale, int32_t zero_point);

// The Prepare step of every operator with a fused activation: p.act_min and p.act_max
// from activation_range().
template <typename ClampParams>
void prepare_activation(ClampParams& p, FusedActivation kind, float scale, int32_t zero_point) {
    const ActivationRange act = activation_range(kind, scale, zero_point);
    p.act_min = act.min;
    p.act_max = act.max;
}

}  // namespace accel
