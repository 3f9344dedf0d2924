// TFLite's int8 TANH with its reference kernel: Prepare fills a 256-entry table with
// tanh(x) in float (ops/lookup_table.hpp); any output quantization is accepted.
#pragma once
#include "ops/lookup_table.hpp"
#include "ops/quant_params.hpp"

namespace accel {

Int8Table prepare_tanh(const QuantParams& input, const QuantParams& output);

}  // namespace accel
