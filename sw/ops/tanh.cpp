#include "ops/tanh.hpp"

#include <cmath>

namespace accel {

Int8Table prepare_tanh(const QuantParams& input, const QuantParams& output) {
    return populate_table(input, output, [](float x) { return std::tanh(x); });
}

}  // namespace accel
