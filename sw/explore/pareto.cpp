// pareto_front (pareto.hpp): sorted by the first objective, a point is on the front
// when no point before it is at least as good on every other objective. Sweeps hold
// thousands of points, so the quadratic scan over the front is enough.
#include "explore/pareto.hpp"

#include <algorithm>
#include <numeric>

namespace accel::explore {
namespace {

bool weakly_dominates(const std::vector<double>& a, const std::vector<double>& b) {
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i] > b[i]) return false;
    }
    return true;
}

}  // namespace

std::vector<size_t> pareto_front(const std::vector<std::vector<double>>& points) {
    std::vector<size_t> order(points.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&points](size_t a, size_t b) { return points[a] < points[b]; });
    std::vector<size_t> front;
    for (size_t i : order) {
        const bool beaten = std::any_of(front.begin(), front.end(), [&](size_t f) {
            return weakly_dominates(points[f], points[i]);
        });
        if (!beaten) front.push_back(i);
    }
    std::sort(front.begin(), front.end());
    return front;
}

}  // namespace accel::explore
