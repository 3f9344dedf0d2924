#include "ops/exp.hpp"

#include <cmath>

namespace accel {

Int8Table prepare_exp(const QuantParams& input, const QuantParams& output) {
    return populate_table(input, output, [](float x) { return std::exp(x); });
}

}  // namespace accel
