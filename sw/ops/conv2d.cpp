#include "ops/conv2d.hpp"

#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/tensor.hpp"

namespace accel {
namespace {

// Output extent along one axis; 0 when the (dilated) kernel does not fit at all.
int64_t out_extent(int64_t in, int pad_a, int pad_b, int64_t kernel, int dilation, int stride) {
    const int64_t span = in + pad_a + pad_b - int64_t{dilation} * (kernel - 1) - 1;
    return span < 0 ? 0 : span / stride + 1;  // guard: C division would round -1/2 up to 0
}

// `message` is only called, and the text formatted, when the check fails.
template <typename Message>
void require(bool ok, Message&& message) {
    if (!ok) throw Error(message());
}

// With kMaxConv2dDim, bounds that keep every derived count far from int64 overflow.
constexpr int kMaxParam = 1 << 16;

void validate_shape(const Conv2dShape& s) {
    const std::pair<std::string_view, int64_t> dims[] = {
        {"N", s.n}, {"H", s.h}, {"W", s.w}, {"C", s.c}, {"K", s.k}, {"R", s.r}, {"S", s.s}};
    // A pair, not a structured binding: clang 14 (the fuzz build) cannot capture those.
    for (const auto& dim : dims) {
        require(dim.second >= 1 && dim.second <= kMaxConv2dDim, [&] {
            return fmt::format("dimension {} = {}: must be in [1, {}]", dim.first, dim.second,
                               kMaxConv2dDim);
        });
    }
}

void validate_geometry(const Conv2dParams& p) {
    require(p.stride_h >= 1 && p.stride_w >= 1 && p.stride_h <= kMaxParam &&
                p.stride_w <= kMaxParam,
            [&] {
                return fmt::format("stride {},{}: each must be in [1, {}]", p.stride_h,
                                   p.stride_w, kMaxParam);
            });
    require(p.dilation_h >= 1 && p.dilation_w >= 1 && p.dilation_h <= kMaxParam &&
                p.dilation_w <= kMaxParam,
            [&] {
                return fmt::format("dilation {},{}: each must be in [1, {}]", p.dilation_h,
                                   p.dilation_w, kMaxParam);
            });
    for (int pad : {p.pad_top, p.pad_bottom, p.pad_left, p.pad_right}) {
        require(pad >= 0 && pad <= kMaxParam, [&] {
            return fmt::format("pad {},{},{},{}: each must be in [0, {}]", p.pad_top,
                               p.pad_bottom, p.pad_left, p.pad_right, kMaxParam);
        });
    }
}

void validate_quantization(const Conv2dParams& p, int64_t k) {
    require(p.input_zero_point >= -128 && p.input_zero_point <= 127, [&] {
        return fmt::format("input zero point {}: must be in [-128, 127]", p.input_zero_point);
    });
    require(p.output_zero_point >= -128 && p.output_zero_point <= 127, [&] {
        return fmt::format("output zero point {}: must be in [-128, 127]", p.output_zero_point);
    });
    require(p.act_min >= -128 && p.act_min <= 127,
            [&] { return fmt::format("act min {}: must be in [-128, 127]", p.act_min); });
    require(p.act_max >= -128 && p.act_max <= 127,
            [&] { return fmt::format("act max {}: must be in [-128, 127]", p.act_max); });
    require(p.act_min <= p.act_max, [&] {
        return fmt::format("act min {} > act max {}: the range is empty", p.act_min, p.act_max);
    });
    if (!p.double_scale.empty()) {
        require(static_cast<int64_t>(p.double_scale.size()) == k &&
                    p.multiplier.empty() && p.shift.empty(),
                [&] {
                    return fmt::format("double scale: has {} values, expected K = {} (and no "
                                       "multiplier or shift)", p.double_scale.size(), k);
                });
        for (size_t i = 0; i < p.double_scale.size(); ++i) {
            require(std::isfinite(p.double_scale[i]) && p.double_scale[i] >= 0.0, [&] {
                return fmt::format("double scale[{}] = {}: must be finite and >= 0", i,
                                   p.double_scale[i]);
            });
        }
        return;
    }
    require(static_cast<int64_t>(p.multiplier.size()) == k, [&] {
        return fmt::format("multiplier: has {} values, expected K = {}", p.multiplier.size(), k);
    });
    require(static_cast<int64_t>(p.shift.size()) == k, [&] {
        return fmt::format("shift: has {} values, expected K = {}", p.shift.size(), k);
    });
    for (size_t i = 0; i < p.multiplier.size(); ++i) {
        require(p.multiplier[i] >= 0, [&] {
            return fmt::format("multiplier[{}] = {}: must be in [0, 2^31-1]", i, p.multiplier[i]);
        });
        require(p.shift[i] >= kMinShift && p.shift[i] <= kMaxShift, [&] {
            return fmt::format("shift[{}] = {}: must be in [{}, {}]", i, p.shift[i], kMinShift,
                               kMaxShift);
        });
    }
}

}  // namespace

int64_t Conv2dLayer::out_h() const {
    return out_extent(shape.h, params.pad_top, params.pad_bottom, shape.r, params.dilation_h,
                      params.stride_h);
}

int64_t Conv2dLayer::out_w() const {
    return out_extent(shape.w, params.pad_left, params.pad_right, shape.s, params.dilation_w,
                      params.stride_w);
}

int64_t Conv2dLayer::macs() const {
    return shape.n * out_h() * out_w() * shape.k * shape.r * shape.s * shape.c;
}

void validate(const Conv2dLayer& layer) {
    validate_shape(layer.shape);
    validate_geometry(layer.params);
    validate_quantization(layer.params, layer.shape.k);
    require(layer.out_h() >= 1 && layer.out_w() >= 1, [&] {
        return fmt::format("output would be empty ({}x{}): the dilated {}x{} kernel does not "
                           "fit the padded {}x{} input",
                           layer.out_h(), layer.out_w(), layer.shape.r, layer.shape.s,
                           layer.shape.h + layer.params.pad_top + layer.params.pad_bottom,
                           layer.shape.w + layer.params.pad_left + layer.params.pad_right);
    });
}

void check_conv2d_tensor(const std::vector<int64_t>& shape, const std::string& name,
                         const char* what, const char* layout) {
    bool empty = false;
    for (int64_t d : shape) empty = empty || d == 0;
    if (shape.size() != 4 || empty) {
        throw Error(fmt::format("{}: {} must have a non-empty shape {}, got {}", name, what,
                                layout, shape_repr(shape)));
    }
}

Conv2dShape conv2d_shape_of(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                            const std::string& x_name, const std::string& w_name) {
    if (w.at(2) != x.at(3)) {
        throw Error(fmt::format("{}: weights have C = {} but input {} has C = {}", w_name,
                                w.at(2), x_name, x.at(3)));
    }
    return {x[0], x[1], x[2], x[3], w[3], w[0], w[1]};
}

void check_per_channel(const std::vector<int64_t>& shape, int64_t k, const std::string& name) {
    if (shape != std::vector<int64_t>{k}) {
        throw Error(fmt::format("{}: must have shape (K,) = ({},), got {}", name, k,
                                shape_repr(shape)));
    }
}

}  // namespace accel
