// Shapes computed at compile time. Keras' Flatten, converted with a dynamic batch,
// computes its new shape in the graph: SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE, on
// int32 tensors. With the static shapes the kit runs, every such int32 tensor is known
// before anything runs: each operator that writes one is evaluated here, in model order,
// and its output becomes a constant. The operator stays in the model (its index is the
// file's) and runs nowhere: the graph compiler places it "folded".
#pragma once
#include "graph/model.hpp"

namespace accel::reference {

// Folds every operator that writes an int32 tensor: SHAPE of any tensor, and
// STRIDED_SLICE, PACK, CONCATENATION and RESHAPE of int32 constants or folded tensors.
// Throws accel::Error naming the operator when one reads an int32 tensor known only at
// run time (a graph input) or computes what TFLite's Prepare refuses.
void fold_shape_computations(graph::Model& model);

// Whether `op` writes an int32 shape (folded, once fold_shape_computations ran).
bool computes_shape(const graph::Model& model, const graph::Operator& op);

}  // namespace accel::reference
