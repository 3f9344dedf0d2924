// An element-wise int8 operator as 256 entries, one per input value: how TFLite's
// reference kernels run LOGISTIC and TANH (a table its Prepare fills from float math),
// and how any other element-wise golden operator of one int8 input can be tabulated,
// by running it on every int8 value.
#pragma once
#include <array>
#include <cstdint>
#include <functional>

#include "base/tensor.hpp"
#include "ops/quant_params.hpp"

namespace accel {

// entries[q + 128] is the output for the input q.
struct Int8Table {
    std::array<int8_t, 256> entries{};
    int8_t operator()(int8_t q) const { return entries[static_cast<size_t>(q + 128)]; }
};

// TFLite's LUTPopulate<int8_t>, all in float: for each q, f(input.scale * (q - zero
// point)) divided by output.scale (as a product with its float reciprocal), rounded half
// away from zero, plus the output zero point, clamped to int8. accel::Error for a zero
// point outside int8 or a scale that is not positive (int8_zero_point).
Int8Table populate_table(const QuantParams& input, const QuantParams& output,
                         const std::function<float(float)>& f);

// The table of any element-wise int8 function: `f` run on every int8 value.
Int8Table tabulate(const std::function<int8_t(int8_t)>& f);

TensorI8 apply_table(const Int8Table& table, const TensorI8& input);

}  // namespace accel
