// AreaModel (area_model.hpp): ordinary least squares by the normal equations, which for
// a handful of features and points is exact enough; a tiny ridge keeps them solvable
// when two features move together over the points synthesized.
#include "explore/area_model.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel::explore {
namespace {

constexpr const char* kFeatureNames[] = {"1", "MACs", "SRAM KiB", "drain lanes", "bus bits"};
constexpr size_t kMaxFeatures = 5;

std::vector<double> feature_values(const HwConfig& c, size_t n) {
    const std::vector<double> all = {1.0, static_cast<double>(c.pes()),
                                     static_cast<double>(c.input_kib + c.weight_kib + c.acc_kib),
                                     static_cast<double>(c.batch) * c.block_out,
                                     static_cast<double>(c.axi_data_bits)};
    return {all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n)};
}

// The least-squares coefficients of y ~ X.
std::vector<double> fit(const std::vector<std::vector<double>>& x, const std::vector<double>& y) {
    const size_t n = x.front().size();
    std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
    for (size_t r = 0; r < x.size(); ++r) {
        for (size_t i = 0; i < n; ++i) {
            for (size_t j = 0; j < n; ++j) a[i][j] += x[r][i] * x[r][j];
            a[i][n] += x[r][i] * y[r];
        }
    }
    for (size_t i = 0; i < n; ++i) a[i][i] += 1e-9 * (1.0 + a[i][i]);
    for (size_t col = 0; col < n; ++col) {  // Gauss-Jordan with partial pivoting
        size_t pivot = col;
        for (size_t r = col + 1; r < n; ++r) {
            if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
        }
        std::swap(a[col], a[pivot]);
        for (size_t r = 0; r < n; ++r) {
            if (r == col || a[col][col] == 0) continue;
            const double f = a[r][col] / a[col][col];
            for (size_t k = col; k <= n; ++k) a[r][k] -= f * a[col][k];
        }
    }
    std::vector<double> beta(n);
    for (size_t i = 0; i < n; ++i) beta[i] = a[i][i] == 0 ? 0 : a[i][n] / a[i][i];
    return beta;
}

double predict(const std::vector<double>& beta, const std::vector<double>& f) {
    double y = 0;
    for (size_t i = 0; i < f.size(); ++i) y += beta[i] * f[i];
    return std::max(0.0, y);
}

}  // namespace

AreaModel::AreaModel(std::vector<std::string> resources, const std::vector<ResourceSample>& samples)
    : resources_(std::move(resources)), samples_(samples.size()) {
    if (samples.size() < 2) throw Error("the area model needs two synthesized points or more");
    features_ = std::min(kMaxFeatures, samples.size() - 1);
    std::vector<std::vector<double>> x;
    for (const ResourceSample& s : samples) x.push_back(feature_values(s.config, features_));
    for (size_t r = 0; r < resources_.size(); ++r) {
        std::vector<double> y;
        for (const ResourceSample& s : samples) y.push_back(s.counts.at(r));
        coefficients_.push_back(fit(x, y));
        double sum = 0;
        for (size_t out = 0; out < samples.size(); ++out) {
            std::vector<std::vector<double>> xs;
            std::vector<double> ys;
            for (size_t i = 0; i < samples.size(); ++i) {
                if (i != out) xs.push_back(x[i]), ys.push_back(y[i]);
            }
            sum += std::abs(predict(fit(xs, ys), x[out]) - y[out]) / std::max(1.0, y[out]);
        }
        errors_.push_back(100.0 * sum / static_cast<double>(samples.size()));
    }
}

std::vector<int64_t> AreaModel::estimate(const HwConfig& config) const {
    const std::vector<double> f = feature_values(config, features_);
    std::vector<int64_t> counts;
    for (const std::vector<double>& beta : coefficients_) {
        counts.push_back(std::llround(predict(beta, f)));
    }
    return counts;
}

std::string AreaModel::describe() const {
    std::string terms, errors;
    for (size_t i = 0; i < features_; ++i) {
        terms += (i ? " + " : "") + std::string(kFeatureNames[i]);
    }
    for (size_t r = 0; r < resources_.size(); ++r) {
        errors += fmt::format("{}{} {:.1f}%", r ? ", " : "", resources_[r], errors_[r]);
    }
    return fmt::format("area model (each resource ~ {}) fitted on {} synthesized points; "
                       "leave-one-out error: {}", terms, samples_, errors);
}

}  // namespace accel::explore
