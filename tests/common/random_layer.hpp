// Random conv2d layers and tensors for the end-to-end tests: every parameter of
// docs/semantics.md varied, with data and requantization chosen so that the outputs
// spread over the int8 range rather than clip.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "base/tensor.hpp"
#include "ops/conv2d.hpp"

namespace accel::testing {

struct LayerCase {
    Conv2dLayer layer;
    TensorI8 x, w;
    std::vector<int32_t> bias;
};

struct LayerLimits {
    int64_t max_n = 3, max_hw = 20, max_c = 40, max_k = 40;
    int max_kernel = 7, max_stride = 3, max_dilation = 2, max_pad = 3;
};

// A random valid layer (kernel sizes among 1, 3, 5, 7 and others), with tensors.
LayerCase random_layer(std::mt19937& rng, const LayerLimits& limits);

// A layer of the given shape with random data and a requantization scaled to its
// reduction depth (some channels through a positive, left shift).
LayerCase make_case(std::mt19937& rng, const Conv2dShape& shape, const Conv2dParams& geometry);

// Number of distinct values in y: a spread check for tests.
size_t distinct_values(const TensorI8& y);

}  // namespace accel::testing
