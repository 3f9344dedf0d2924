// TFLite's MAXIMUM and MINIMUM (reference_ops::MaximumMinimumBroadcastSlow): the larger or
// smaller of the raw int8 values, broadcasting (ops/broadcast.hpp). TFLite compares the
// stored values and ignores the quantization, which the converter gives inputs and
// output alike.
#pragma once
#include <cstdint>

#include "base/tensor.hpp"

namespace accel {

TensorI8 maximum(const TensorI8& input1, const TensorI8& input2);
TensorI8 minimum(const TensorI8& input1, const TensorI8& input2);

}  // namespace accel
