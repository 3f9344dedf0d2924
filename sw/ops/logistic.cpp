#include "ops/logistic.hpp"

#include <cmath>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {

Int8Table prepare_logistic(const QuantParams& input, const QuantParams& output) {
    // TFLite compares the float scale with the double 1/256 exactly.
    if (static_cast<double>(output.scale) != 1.0 / 256) {
        throw Error(fmt::format("logistic: output scale {} must be 1/256", output.scale));
    }
    return populate_table(input, output, [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
}

}  // namespace accel
