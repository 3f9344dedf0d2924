// The inputs of a model's run: given ones, each checked against the model's input, or
// a reproducible random draw -- the same for the same seed in the CLI and in Python.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "graph/model.hpp"
#include "reference/value.hpp"

namespace accel {

// Inputs the caller holds: `value(i, desc)` gives model input i (read from a file, or
// handed over in memory), `name(i)` names it in errors.
struct GivenInputs {
    std::function<reference::Value(size_t i, const graph::TensorDesc& desc)> value;
    std::function<std::string(size_t i)> name;
};

// One value per model input: the given ones, or drawn from `seed` (uniform int8, or
// uniform float32 in [-1, 1) for a model that quantizes its input itself). accel::Error
// for an input of another type, or a given one of another shape.
std::vector<reference::Value> model_inputs(const graph::Model& model, uint64_t seed,
                                         const GivenInputs* given = nullptr);

}  // namespace accel
