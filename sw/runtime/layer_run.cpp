#include "runtime/layer_run.hpp"

#include <chrono>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compiler/planner.hpp"
#include "ops/reference.hpp"

namespace accel {
namespace {

// Where `got` and `want` differ, the first few with their [n, oh, ow, k] index.
LayerCheck compare(const TensorI8& got, const TensorI8& want) {
    LayerCheck c;
    c.outputs = static_cast<int64_t>(want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        if (got.data[i] == want.data[i]) continue;
        if (static_cast<size_t>(c.differing++) >= LayerCheck::kFirst) continue;
        std::vector<int64_t> index(want.rank());
        size_t rest = i;
        for (size_t d = want.rank(); d-- > 0;) {
            index[d] = static_cast<int64_t>(rest % static_cast<size_t>(want.shape[d]));
            rest /= static_cast<size_t>(want.shape[d]);
        }
        c.first.push_back({std::move(index), got.data[i], want.data[i]});
    }
    return c;
}

}  // namespace

std::string describe(const LayerCheck::Difference& d) {
    return fmt::format("y[{}]: device {}, reference {}", fmt::join(d.index, ","), d.got, d.want);
}

LayerResult run_layer(const Conv2dLayer& layer, const TensorI8& x, const TensorI8& w,
                      const std::vector<int32_t>& bias, const HwParams& hw, Backend backend,
                      const DeviceFactory& make_device, const LayerRunOptions& options) {
    LayerResult r;
    r.backend = backend;
    if (!on_device(backend)) {
        const auto start = std::chrono::steady_clock::now();
        r.y = conv2d_reference(layer, x, w, bias);
        r.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (options.check) r.check = compare(r.y, r.y);  // the reference checks itself
        return r;
    }
    const Conv2dPlan plan = options.plan != nullptr ? *options.plan : plan_conv2d(layer, hw);
    if (options.progress) options.progress({1, 1, "", 0, plan.predicted_cycles});
    r.device = run_conv2d(make_device, hw, layer, plan, x, w, bias);
    r.y = std::move(r.device->y);
    r.seconds = r.device->device_seconds;
    if (options.check) r.check = compare(r.y, conv2d_reference(layer, x, w, bias));
    return r;
}

}  // namespace accel
