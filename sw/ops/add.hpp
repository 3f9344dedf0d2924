// TFLite's int8 ADD: Prepare (both inputs rescaled to twice the larger input scale,
// shifted left by 20 bits, then the sum rescaled to the output) and the reference
// kernel's AddFunc, over numpy-style broadcast shapes (BroadcastAdd6DSlow).
#pragma once
#include <cstdint>

#include "base/tensor.hpp"
#include "ops/activation.hpp"
#include "ops/quant_params.hpp"

namespace accel {

struct AddParams {
    int left_shift = 20;
    int32_t input1_offset = 0, input2_offset = 0;  // -zero points
    int32_t input1_multiplier = 0, input2_multiplier = 0, output_multiplier = 0;
    int input1_shift = 0, input2_shift = 0, output_shift = 0;  // each in [-31, 0]
    int32_t output_offset = 0;                                  // output zero point
    int32_t act_min = -128, act_max = 127;
};

// Throws accel::Error where TFLite's Prepare fails its checks: a rescaling multiplier
// that is not in (0, 1) or rounds to 1 (e.g. an output scale below 2^-20 of the inputs').
AddParams prepare_add(const QuantParams& input1, const QuantParams& input2,
                      const QuantParams& output, FusedActivation activation);

// TFLite's int8 SUB: ADD's Prepare with input2's multiplier negated, run by ADD's kernel
// (as TFLite runs it), so that input2 is subtracted.
AddParams prepare_sub(const QuantParams& input1, const QuantParams& input2,
                      const QuantParams& output, FusedActivation activation);

// Shapes broadcast as numpy's do (aligned at the last dimension, 1 stretches).
TensorI8 add(const AddParams& params, const TensorI8& input1, const TensorI8& input2);

}  // namespace accel
