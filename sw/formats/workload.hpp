// A workload: a named list of conv2d layers to benchmark (configs/workloads/*.yaml,
// docs/cli.md "accel bench"), and the reproducible random data each layer runs on.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/tensor.hpp"
#include "ops/conv2d.hpp"

namespace accel {

// One layer as the YAML gives it. Zero points and the requantization scale are
// optional; when absent they are drawn from the layer's seed (make_workload_case).
struct WorkloadLayer {
    std::string name;
    int64_t h = 1, w = 1, cin = 1, cout = 1;
    int kernel = 1, pad = 0, stride = 1, dilation = 1;
    std::optional<int> input_zero_point, output_zero_point;
    std::optional<double> scale;  // one real scale in (0, 2^30) for every output channel
    bool relu = false;
};

struct Workload {
    std::string name;
    int64_t batch = 1;
    uint64_t seed = 1;
    std::vector<WorkloadLayer> layers;

    // The layer called `name`, or nullptr.
    const WorkloadLayer* find(const std::string& layer_name) const;
};

// Parses YAML text; `source` names the file in messages. Unknown keys, missing keys,
// wrong types, out-of-range values, duplicate layer names and layers whose output
// would be empty throw accel::Error naming the source and the key.
Workload parse_workload(const std::string& yaml_text, const std::string& source);
Workload load_workload(const std::string& path);

// The workloads in configs/workloads/, embedded at build time ("resnet18", ...).
std::vector<std::string> builtin_workload_names();
// accel::Error naming the known suites when there is no such suite.
Workload builtin_workload(const std::string& suite);

// The conv2d of a workload layer with its zero points and per-channel requantization
// (seeded random where the YAML leaves them out), and random int8 input and weights
// and int32 bias. The same workload seed and layer name give the same case, whatever
// other layers the workload holds.
struct WorkloadCase {
    Conv2dLayer layer;
    TensorI8 x, w;
    std::vector<int32_t> bias;
};
Conv2dLayer workload_conv2d(const Workload& workload, const WorkloadLayer& layer);
WorkloadCase make_workload_case(const Workload& workload, const WorkloadLayer& layer);

// "56x56x64->128 3x3/2" (input HxWxC -> K, kernel, stride when not 1).
std::string describe(const WorkloadLayer& layer);

}  // namespace accel
