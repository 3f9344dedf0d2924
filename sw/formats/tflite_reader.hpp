// Reads an int8 TFLite model (.tflite) into the graph IR (graph/model.hpp).
//
// The file is untrusted input: it is checked by the flatbuffers verifier before
// anything is read from it, then every operator is checked against what the kit runs:
// one subgraph; the operators of graph::OpKind with fused activations NONE, RELU,
// RELU6 or RELU_N1_TO_1; int8 activations with per-tensor quantization (QUANTIZE may
// read float32, DEQUANTIZE writes float32); symmetric int8 weights; int32 constant
// biases; int32/int64 constant shapes, paddings and axes. Anything else is an
// accel::Error with a one-line message naming the operator, its TFLite type and what is
// wrong, e.g. "operator 7 (TANH): not supported".
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "graph/model.hpp"

namespace accel {

// Messages start with "<path>: "; a missing file is "<path>: cannot open: ...".
graph::Model read_tflite(const std::string& path);

// The same from a whole file's bytes; messages carry no file name.
graph::Model parse_tflite(std::span<const uint8_t> bytes);

}  // namespace accel
