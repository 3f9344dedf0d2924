// The per-output-channel requantization of TFLite's int8 CONV_2D, DEPTHWISE_CONV_2D
// and FULLY_CONNECTED (PopulateConvolutionQuantizationParams).
#pragma once
#include <cstdint>
#include <vector>

namespace accel {

struct ChannelRequantization {
    std::vector<int32_t> multiplier;  // one per output channel
    std::vector<int32_t> shift;       // one per output channel, in [-31, 30]
};

// Channel c's effective scale is input_scale * filter_scale[c] / output_scale, each
// float widened to double first; quantize_multiplier() turns it into multiplier and
// shift. One filter scale (per-tensor quantization) applies to every channel. A zero
// filter scale gives {0, 0} as in TFLite. Throws accel::Error for a filter scale count
// that is neither 1 nor `channels`, non-positive input/output scales, negative filter
// scales and effective scales of 2^30 or more.
ChannelRequantization prepare_conv_requantization(float input_scale,
                                                  const std::vector<float>& filter_scales,
                                                  float output_scale, int64_t channels);

}  // namespace accel
