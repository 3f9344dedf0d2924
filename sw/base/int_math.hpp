// Integer helpers shared by the planner, the cost model and the metrics.
#pragma once
#include <cstdint>

namespace accel {

// ⌈a / b⌉ for a >= 0, b > 0.
constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace accel
