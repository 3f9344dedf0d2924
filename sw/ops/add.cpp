#include "ops/add.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/broadcast.hpp"
#include "ops/quant.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {
namespace {

int8_t add_one(const AddParams& p, int8_t a, int8_t b) {
    const int32_t sum = rescaled_sum(wrapping_add(p.input1_offset, a),
                                     wrapping_add(p.input2_offset, b), p.left_shift,
                                     {p.input1_multiplier, p.input1_shift},
                                     {p.input2_multiplier, p.input2_shift});
    const int32_t raw =
        wrapping_add(mbqm(sum, p.output_multiplier, p.output_shift), p.output_offset);
    return static_cast<int8_t>(std::clamp(raw, p.act_min, p.act_max));
}

}  // namespace

AddParams prepare_add(const QuantParams& input1, const QuantParams& input2,
                      const QuantParams& output, FusedActivation activation) {
    AddParams p;
    prepare_binary_offsets(p, input1, input2, output);
    p.left_shift = 20;
    // TFLite doubles the larger float scale in float (exact) and divides in double.
    const double twice_max_input_scale = 2 * std::max(input1.scale, input2.scale);
    const double output_denominator = static_cast<double>((1 << p.left_shift) * output.scale);
    const QuantizedMultiplier q1 = quantize_below_one(input1.scale / twice_max_input_scale,
                                                      "add", "input1");
    const QuantizedMultiplier q2 = quantize_below_one(input2.scale / twice_max_input_scale,
                                                      "add", "input2");
    const QuantizedMultiplier qo =
        quantize_below_one(twice_max_input_scale / output_denominator, "add", "output");
    p.input1_multiplier = q1.multiplier;
    p.input1_shift = q1.shift;
    p.input2_multiplier = q2.multiplier;
    p.input2_shift = q2.shift;
    p.output_multiplier = qo.multiplier;
    p.output_shift = qo.shift;
    prepare_activation(p, activation, output.scale, p.output_offset);
    return p;
}

AddParams prepare_sub(const QuantParams& input1, const QuantParams& input2,
                      const QuantParams& output, FusedActivation activation) {
    AddParams p = prepare_add(input1, input2, output, activation);
    p.input2_multiplier = -p.input2_multiplier;
    return p;
}

TensorI8 add(const AddParams& p, const TensorI8& input1, const TensorI8& input2) {
    if (p.left_shift < 0 || p.left_shift > 30 || p.act_min > p.act_max) {
        throw Error("add: left_shift must be in [0, 30] and act_min <= act_max");
    }
    for (int shift : {p.input1_shift, p.input2_shift, p.output_shift}) {
        if (shift < -31 || shift > 0) throw Error(fmt::format("add: shift {} not in [-31, 0]",
                                                              shift));
    }
    return broadcast_binary(input1, input2, "add",
                            [&](int8_t a, int8_t b) { return add_one(p, a, b); });
}

}  // namespace accel
