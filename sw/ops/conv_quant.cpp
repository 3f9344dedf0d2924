#include "ops/conv_quant.hpp"

#include <cmath>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/quant.hpp"

namespace accel {

ChannelRequantization prepare_conv_requantization(float input_scale,
                                                  const std::vector<float>& filter_scales,
                                                  float output_scale, int64_t channels) {
    if (channels < 1) throw Error(fmt::format("requantization: {} output channels", channels));
    const auto count = static_cast<int64_t>(filter_scales.size());
    if (count != 1 && count != channels) {
        throw Error(fmt::format("requantization: {} filter scales for {} output channels",
                                count, channels));
    }
    if (!(input_scale > 0.0f && std::isfinite(input_scale)) ||
        !(output_scale > 0.0f && std::isfinite(output_scale))) {
        throw Error(fmt::format("requantization: input scale {} and output scale {} must be "
                                "positive and finite", input_scale, output_scale));
    }
    ChannelRequantization r;
    r.multiplier.reserve(static_cast<size_t>(channels));
    r.shift.reserve(static_cast<size_t>(channels));
    for (int64_t c = 0; c < channels; ++c) {
        const float filter_scale = filter_scales[static_cast<size_t>(count == 1 ? 0 : c)];
        if (!(filter_scale >= 0.0f)) {
            throw Error(fmt::format("requantization: filter scale {} of channel {} is negative",
                                    filter_scale, c));
        }
        const double effective = static_cast<double>(input_scale) *
                                 static_cast<double>(filter_scale) /
                                 static_cast<double>(output_scale);
        QuantizedMultiplier q{0, 0};  // TFLite's QuantizeMultiplier(0) is {0, 0}
        if (effective != 0.0) q = quantize_multiplier(effective);
        r.multiplier.push_back(q.multiplier);
        r.shift.push_back(q.shift);
    }
    return r;
}

}  // namespace accel
