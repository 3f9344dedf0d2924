// TFLite's int8 EXP with its reference kernel: Prepare fills a 256-entry table with
// exp(x) in float (ops/lookup_table.hpp).
#pragma once
#include "ops/lookup_table.hpp"
#include "ops/quant_params.hpp"

namespace accel {

Int8Table prepare_exp(const QuantParams& input, const QuantParams& output);

}  // namespace accel
