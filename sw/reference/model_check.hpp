// A model checked whole before anything of it runs (docs/reliability.md): the readers
// check each tensor and operator on its own; this checks them against each other.
//
// - Data flow: every operator reads tensors that exist by then (graph inputs, constants,
//   or outputs of earlier operators); no tensor is written twice or is both a graph
//   input and an operator's output; every graph output is computed or fed.
// - Shapes: each operator's output shape is inferred from its inputs and options as
//   TFLite's Prepare computes it, and must equal the shape the model declares. The
//   golden operators and the graph compiler read declared shapes; after this check those
//   are the inferred ones, so every buffer they index holds what its shape says.
// - Prepare: each operator's parameters computed as it will run them (reference/evaluate.hpp),
//   so a quantization TFLite's Prepare refuses (a SOFTMAX output scale other than 1/256,
//   a pool that changes the scale, an ADD rescaling out of range) stops the model here.
// - Sizes: every tensor has at most graph::kMaxTensorElements elements and all of them
//   together at most that many bytes, so no element count, byte size or arena offset
//   overflows.
#pragma once
#include <vector>

#include "graph/model.hpp"

namespace accel::reference {

// Throws accel::Error naming the operator (index and TFLite type) or the tensor (index
// and name) and what is wrong.
void check_model(const graph::Model& model);

// The output shapes TFLite's Prepare gives `op`, one per output, from its input tensors'
// declared shapes, its constants and options. Throws accel::Error (without the
// operator's name) when Prepare would fail.
std::vector<std::vector<int64_t>> infer_output_shapes(const graph::Model& model,
                                                      const graph::Operator& op);

// The same for an operator of one output.
std::vector<int64_t> infer_output_shape(const graph::Model& model, const graph::Operator& op);

}  // namespace accel::reference
