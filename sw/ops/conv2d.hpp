// A quantized int8 conv2d layer: shapes and parameters (docs/semantics.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace accel {

struct Conv2dShape {
    int64_t n = 1, h = 1, w = 1, c = 1;  // input  [N,H,W,C]
    int64_t k = 1, r = 1, s = 1;         // weights [R,S,C,K]
};

// The requantization shifts of TFLite's MultiplyByQuantizedMultiplier (docs/semantics.md):
// a positive shift multiplies the accumulator by 2^shift, a negative one divides.
constexpr int kMinShift = -31, kMaxShift = 30;

// The largest dimension validate() takes: it keeps every derived count far from int64
// overflow.
constexpr int64_t kMaxConv2dDim = int64_t{1} << 24;

struct Conv2dParams {
    int stride_h = 1, stride_w = 1;
    int pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
    int dilation_h = 1, dilation_w = 1;
    int input_zero_point = 0;
    int output_zero_point = 0;
    std::vector<int32_t> multiplier;  // K values
    std::vector<int32_t> shift;       // K values, each in [kMinShift, kMaxShift]
    // When not empty, K finite scales >= 0 that requantize instead of multiplier and
    // shift (then empty), as TFLite's reference FULLY_CONNECTED does
    // (ops/double_rounding.hpp): zy + round(acc * scale) wraps in int32.
    std::vector<double> double_scale;
    // The final shift of multiplier and shift rounds ties upward (ops/quant.hpp, mbqm_up),
    // as LiteRT's optimized kernels do (--match opt), instead of away from zero.
    bool round_up = false;
    int act_min = -128, act_max = 127;
};

// The rows (or columns) of input that `out` output rows of a kernel `kernel` rows tall
// read, in padded coordinates: the input span of a tile, or of a whole layer.
constexpr int64_t input_span(int64_t out, int64_t stride, int64_t kernel, int64_t dilation) {
    return (out - 1) * stride + (kernel - 1) * dilation + 1;
}

struct Conv2dLayer {
    Conv2dShape shape;
    Conv2dParams params;

    // May be < 1 for an invalid layer; validate() rejects that.
    int64_t out_h() const;
    int64_t out_w() const;
    int64_t macs() const;  // N*OH*OW*K*R*S*C
};

// Throws accel::Error describing the first rule of docs/semantics.md the layer breaks.
void validate(const Conv2dLayer& layer);

// The input [N,H,W,C] or the weights [R,S,C,K] of a conv2d: four dimensions, none empty.
// Throws accel::Error "NAME: WHAT must have a non-empty shape LAYOUT, got SHAPE".
void check_conv2d_tensor(const std::vector<int64_t>& shape, const std::string& name,
                         const char* what, const char* layout);

// The shape of the conv2d of input x [N,H,W,C] and weights w [R,S,C,K] (both checked
// by check_conv2d_tensor). Throws accel::Error "W_NAME: weights have C = .. but input
// X_NAME has C = .." when their channels differ.
Conv2dShape conv2d_shape_of(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                            const std::string& x_name, const std::string& w_name);

// A per-channel vector (bias, multiplier, shift) of `k` values. Throws accel::Error
// "NAME: must have shape (K,) = (<k>,), got SHAPE".
void check_per_channel(const std::vector<int64_t>& shape, int64_t k, const std::string& name);

}  // namespace accel
