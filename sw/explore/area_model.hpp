// The fast area model of stage 2 (docs/explore.md): a least-squares fit of each counted
// resource (an FPGA's LUT4, FF, DSP and BRAM; or the generic synthesis' cells,
// flip-flops and memory bits) to a few features of the config, over the points
// synthesized, so that every point of a sweep gets an estimate. Its error is measured,
// not assumed: each synthesized point is predicted by a fit of the others
// (leave-one-out).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/hw_config.hpp"

namespace accel::explore {

struct ResourceSample {
    HwConfig config;
    std::vector<double> counts;  // one per resource, as synthesized
};

class AreaModel {
public:
    // Fits each of `resources` (their names, for describe) on `samples`, with as many
    // features (most telling first: MACs, SRAM, drain lanes, bus width) as
    // leave-one-out allows. Needs two samples or more.
    AreaModel(std::vector<std::string> resources, const std::vector<ResourceSample>& samples);

    std::vector<int64_t> estimate(const HwConfig& config) const;  // one per resource
    size_t features() const { return features_; }
    // Leave-one-out mean absolute relative error per resource, in %.
    const std::vector<double>& errors() const { return errors_; }
    // "area model (each resource ~ 1 + MACs + ...) fitted on N synthesized points:
    // leave-one-out error: LUT4 ...%, ..."
    std::string describe() const;

private:
    std::vector<std::string> resources_;
    size_t samples_ = 0, features_ = 1;
    std::vector<std::vector<double>> coefficients_;  // per resource
    std::vector<double> errors_;
};

}  // namespace accel::explore
