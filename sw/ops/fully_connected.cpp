#include "ops/fully_connected.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/error.hpp"
#include "ops/conv_quant.hpp"
#include "ops/double_rounding.hpp"
#include "ops/quant.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {
namespace {

void check_weights_shape(const std::vector<int64_t>& shape) {
    if (shape.size() != 2 || shape[0] < 1 || shape[1] < 1) {
        throw Error("fully_connected: weights must be [K, C] with K, C >= 1");
    }
}

// The reference rounds (double)acc * scale: round_product_like_double computes it in
// integers, bit-exact, the form a device computes. Each scale is checked once here.
std::vector<DoubleScale> reference_scales(const std::vector<double>& effective_scale) {
    std::vector<DoubleScale> scales;
    for (size_t c = 0; c < effective_scale.size(); ++c) {
        try {
            scales.push_back(decompose_scale(effective_scale[c]));
        } catch (const Error& e) {
            throw Error(fmt::format("fully_connected: output channel {}: {}", c, e.what()));
        }
    }
    return scales;
}

}  // namespace

FullyConnectedParams prepare_fully_connected(const std::vector<int64_t>& weights_shape,
                                             FusedActivation activation,
                                             const QuantParams& input,
                                             const std::vector<float>& weight_scales,
                                             int64_t weights_zero_point,
                                             const QuantParams& output) {
    check_weights_shape(weights_shape);
    if (weight_scales.empty()) throw Error("fully_connected: no weight scale");
    const int64_t k = weights_shape[0];
    const bool per_channel = weight_scales.size() > 1;
    if (per_channel && static_cast<int64_t>(weight_scales.size()) != k) {
        throw Error(fmt::format("fully_connected: {} weight scales for {} output channels",
                                weight_scales.size(), k));
    }
    if (per_channel && weights_zero_point != 0) {
        throw Error("fully_connected: per-channel weights must have zero point 0");
    }
    FullyConnectedParams p;
    p.input_offset = -int8_zero_point(input, "input");
    p.output_offset = int8_zero_point(output, "output");
    if (weights_zero_point < -128 || weights_zero_point > 127) {
        throw Error(fmt::format("fully_connected: weights zero point {} is outside int8",
                                weights_zero_point));
    }
    p.weights_offset = -static_cast<int32_t>(weights_zero_point);
    if (per_channel) {
        ChannelRequantization r =
            prepare_conv_requantization(input.scale, weight_scales, output.scale, k);
        p.multiplier = std::move(r.multiplier);
        p.shift = std::move(r.shift);
    } else {
        // The per-tensor Prepare forms the product of the two scales in float.
        const double product = static_cast<double>(input.scale * weight_scales[0]);
        QuantizedMultiplier q{0, 0};  // TFLite's QuantizeMultiplier(0) is {0, 0}
        if (product != 0.0) q = quantize_multiplier(product / static_cast<double>(output.scale));
        p.multiplier.assign(static_cast<size_t>(k), q.multiplier);
        p.shift.assign(static_cast<size_t>(k), q.shift);
    }
    for (int64_t c = 0; c < k; ++c) {
        const float w = weight_scales[static_cast<size_t>(per_channel ? c : 0)];
        p.effective_scale.push_back(static_cast<double>(input.scale) * static_cast<double>(w) /
                                    static_cast<double>(output.scale));
    }
    prepare_activation(p, activation, output.scale, p.output_offset);
    return p;
}

TensorI8 fully_connected(const FullyConnectedParams& p, const TensorI8& input,
                         const TensorI8& weights, const std::vector<int32_t>& bias) {
    check_weights_shape(weights.shape);
    const int64_t k = weights.dim(0), depth = weights.dim(1);
    const auto channels = static_cast<size_t>(k);
    const bool fixed_point = p.requantization == FullyConnectedRequantization::FixedPoint;
    if ((fixed_point && (p.multiplier.size() != channels || p.shift.size() != channels)) ||
        (!fixed_point && p.effective_scale.size() != channels)) {
        throw Error(fmt::format("fully_connected: requantization parameters do not have one "
                                "value per output channel ({})", channels));
    }
    if (!bias.empty() && bias.size() != channels) {
        throw Error(fmt::format("fully_connected: {} bias values for {} output channels",
                                bias.size(), channels));
    }
    if (input.rank() < 1 || input.size() % static_cast<size_t>(depth) != 0) {
        throw Error(fmt::format("fully_connected: input of {} values is not a whole number of "
                                "rows of the weights' depth {}", input.size(), depth));
    }
    if (p.act_min > p.act_max) throw Error("fully_connected: act_min > act_max");
    const std::vector<DoubleScale> scales = fixed_point ? std::vector<DoubleScale>{}
                                                        : reference_scales(p.effective_scale);
    const auto batches = static_cast<int64_t>(input.size()) / depth;
    TensorI8 out({batches, k});
    for (int64_t b = 0; b < batches; ++b) {
        const int8_t* x = &input.data[static_cast<size_t>(b * depth)];
        for (int64_t c = 0; c < k; ++c) {
            const int8_t* w = &weights.data[static_cast<size_t>(c * depth)];
            int32_t acc = 0;
            for (int64_t i = 0; i < depth; ++i) {
                acc = wrapping_add(acc, wrapping_mul(wrapping_add(w[i], p.weights_offset),
                                                     wrapping_add(x[i], p.input_offset)));
            }
            const auto cc = static_cast<size_t>(c);
            if (!bias.empty()) acc = wrapping_add(acc, bias[cc]);
            const int32_t scaled = fixed_point ? mbqm(acc, p.multiplier[cc], p.shift[cc], p.round_up)
                                               : round_product_like_double(acc, scales[cc]);
            const int32_t v = wrapping_add(scaled, p.output_offset);
            out.data[static_cast<size_t>(b * k + c)] =
                static_cast<int8_t>(std::clamp(v, p.act_min, p.act_max));
        }
    }
    return out;
}

}  // namespace accel
