// A .tflite model read and checked whole (reference/model_check.hpp) before anything runs,
// for `accel run` and accel.run_tflite alike.
#pragma once
#include <string>

#include "graph/model.hpp"

namespace accel {

// accel::Error for a file that cannot be read or a model the kit refuses; every message
// starts with the file's path.
graph::Model read_model(const std::string& path);

}  // namespace accel
