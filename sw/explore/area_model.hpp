// The fast area model of stage 2 (docs/explore.md): a least-squares fit of each FPGA
// resource to a few features of the config, over the points synthesized, so that every
// point of a sweep gets an area estimate. Its error is measured, not assumed: each
// synthesized point is predicted by a fit of the others (leave-one-out).
#pragma once
#include <string>
#include <vector>

#include "explore/point_row.hpp"
#include "hw/hw_config.hpp"

namespace accel::explore {

struct AreaSample {
    HwConfig config;
    Area area;  // synthesized
};

class AreaModel {
public:
    // Fits on `samples`, with as many features (most telling first: MACs, SRAM, drain
    // lanes, bus width) as leave-one-out allows. Needs two samples or more.
    explicit AreaModel(const std::vector<AreaSample>& samples);

    Area estimate(const HwConfig& config) const;  // measured = false
    size_t features() const { return features_; }
    // Leave-one-out mean absolute relative error per resource, in %.
    double lut_error = 0, ff_error = 0, dsp_error = 0, bram_error = 0;

private:
    size_t features_ = 1;
    std::vector<std::vector<double>> coefficients_;  // per resource: LUT, FF, DSP, BRAM
};

// "area model (LUT4 ~ 1 + MACs + ...) on N synthesized points: leave-one-out error ..."
std::string describe(const AreaModel& model, size_t samples);

}  // namespace accel::explore
