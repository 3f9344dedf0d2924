// TFLite's int8 LOGISTIC with its reference kernel: Prepare requires the output scale
// 1/256 and fills a 256-entry table with 1 / (1 + exp(-x)) in float (ops/lookup_table.hpp).
#pragma once
#include "ops/lookup_table.hpp"
#include "ops/quant_params.hpp"

namespace accel {

// accel::Error for an output scale other than 1/256 (TFLite's Prepare refuses it).
Int8Table prepare_logistic(const QuantParams& input, const QuantParams& output);

}  // namespace accel
