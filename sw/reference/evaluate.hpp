// The golden int8 reference of one TFLite operator, with TFLite's reference-kernel
// semantics (ops/): what every host operator computes and what every device operator
// is checked against.
#pragma once
#include <vector>

#include "graph/model.hpp"
#include "ops/match.hpp"
#include "reference/value.hpp"

namespace accel::reference {

// `inputs` holds the operator's input values in order; nullptr for a constant (read
// from the model) or an omitted optional input. Returns one value per output of `op`
// (several for SPLIT, SPLIT_V and UNPACK). Throws accel::Error naming the operator when
// its parameters are outside what TFLite's Prepare accepts.
// `match` picks the runtime whose rounding the requantizing operators reproduce.
std::vector<Value> evaluate(const graph::Model& model, const graph::Operator& op,
                            const std::vector<const Value*>& inputs, Match match = Match::ref);

// The operator's Prepare alone, from the model: every parameter evaluate() computes,
// with its errors, and nothing run (reference/model_check.hpp checks each operator so).
void prepare(const graph::Model& model, const graph::Operator& op);

}  // namespace accel::reference
