// The Pareto front of a sweep: the points no other point beats on every objective.
#pragma once
#include <cstddef>
#include <vector>

namespace accel::explore {

// The indices (into `points`, each a vector of objectives to minimize, all of the same
// length) of the non-dominated points, in input order. Of equal points, the first stays.
std::vector<size_t> pareto_front(const std::vector<std::vector<double>>& points);

}  // namespace accel::explore
