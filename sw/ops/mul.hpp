// TFLite's int8 MUL with its reference kernel (reference_integer_ops::Mul and
// BroadcastMul6DSlow): (a - a_zp) * (b - b_zp) rescaled by one fixed-point multiplier of
// input1_scale * input2_scale / output_scale (computed in float, as Prepare does),
// over numpy-style broadcast shapes (ops/broadcast.hpp): the squeeze-excite [1,1,1,C]
// times [1,H,W,C], or a tensor times a scalar constant.
#pragma once
#include <cstdint>

#include "base/tensor.hpp"
#include "ops/activation.hpp"
#include "ops/quant.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct MulParams {
    int32_t input1_offset = 0, input2_offset = 0;  // -zero points
    int32_t output_offset = 0;                      // output zero point
    QuantizedMultiplier output{0, 0};                // shift in [-31, 30]
    int32_t act_min = -128, act_max = 127;
};

MulParams prepare_mul(const QuantParams& input1, const QuantParams& input2,
                      const QuantParams& output, FusedActivation activation);

// One pair of values: the golden operator element by element.
int8_t mul(const MulParams& params, int8_t a, int8_t b);

TensorI8 mul(const MulParams& params, const TensorI8& input1, const TensorI8& input2);

}  // namespace accel
