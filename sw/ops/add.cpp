#include "ops/add.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/quant.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {
namespace {

// QuantizeMultiplierSmallerThanOneExp: TFLite aborts unless the result is a right shift.
QuantizedMultiplier quantize_below_one(double scale, const char* what) {
    if (!(scale > 0.0 && scale < 1.0)) {
        throw Error(fmt::format("add: {} rescaling {} is not in (0, 1)", what, scale));
    }
    const QuantizedMultiplier q = quantize_multiplier(scale);
    if (q.shift > 0) {
        throw Error(fmt::format("add: {} rescaling {} rounds to 1", what, scale));
    }
    return q;
}

// Numpy broadcasting: shapes aligned at the last dimension, a 1 (or a missing leading
// dimension) stretches. Each input's stride is 0 along the dimensions it stretches.
struct Broadcast {
    std::vector<int64_t> shape;
    std::vector<int64_t> stride1, stride2;
};

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

Broadcast broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    const size_t rank = std::max(a.size(), b.size());
    Broadcast r;
    r.shape.assign(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
        const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
        if (da != db && da != 1 && db != 1) {
            throw Error(fmt::format("add: dimensions {} and {} (from the end: {}) do not "
                                    "broadcast", da, db, i));
        }
        r.shape[rank - 1 - i] = da == 1 ? db : da;
    }
    r.stride1 = aligned_strides(a, rank);
    r.stride2 = aligned_strides(b, rank);
    return r;
}

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
    p.input1_offset = -int8_zero_point(input1, "input1");
    p.input2_offset = -int8_zero_point(input2, "input2");
    p.output_offset = int8_zero_point(output, "output");
    p.left_shift = 20;
    // TFLite doubles the larger float scale in float (exact) and divides in double.
    const double twice_max_input_scale = 2 * std::max(input1.scale, input2.scale);
    const double output_denominator = static_cast<double>((1 << p.left_shift) * output.scale);
    const QuantizedMultiplier q1 = quantize_below_one(input1.scale / twice_max_input_scale,
                                                      "input1");
    const QuantizedMultiplier q2 = quantize_below_one(input2.scale / twice_max_input_scale,
                                                      "input2");
    const QuantizedMultiplier qo =
        quantize_below_one(twice_max_input_scale / output_denominator, "output");
    p.input1_multiplier = q1.multiplier;
    p.input1_shift = q1.shift;
    p.input2_multiplier = q2.multiplier;
    p.input2_shift = q2.shift;
    p.output_multiplier = qo.multiplier;
    p.output_shift = qo.shift;
    prepare_activation(p, activation, output.scale, p.output_offset);
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
    const Broadcast b = broadcast_shapes(input1.shape, input2.shape);
    TensorI8 out(b.shape);
    const size_t rank = b.shape.size();
    std::vector<int64_t> index(rank, 0);  // the output position, odometer style
    int64_t at1 = 0, at2 = 0;
    for (size_t i = 0; i < out.size(); ++i) {
        out.data[i] = add_one(p, input1.data[static_cast<size_t>(at1)],
                              input2.data[static_cast<size_t>(at2)]);
        for (size_t d = rank; d-- > 0;) {
            at1 += b.stride1[d];
            at2 += b.stride2[d];
            if (++index[d] < b.shape[d]) break;
            at1 -= b.stride1[d] * b.shape[d];
            at2 -= b.stride2[d] * b.shape[d];
            index[d] = 0;
        }
    }
    return out;
}

}  // namespace accel
