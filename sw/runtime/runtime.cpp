#include "runtime/runtime.hpp"

#include <chrono>

#include <fmt/format.h>

#include "base/error.hpp"
#include "compiler/packing.hpp"
#include "hw/isa.hpp"

namespace accel {

Conv2dRun run_conv2d(const DeviceFactory& make_device, const HwParams& hw,
                     const Conv2dLayer& layer, const Conv2dPlan& plan, const TensorI8& x,
                     const TensorI8& w, const std::vector<int32_t>& bias) {
    const Conv2dProgram program = schedule_conv2d(lower(layer, plan.lowering), hw, plan);
    const std::vector<uint8_t> image = build_dram_image(program, hw, x, w, bias);
    std::unique_ptr<Device> device = make_device(hw, image.size());
    device->write_dram(0, image);

    Conv2dRun run;
    const auto start = std::chrono::steady_clock::now();
    run.counters = device->run(program.layout.program.base,
                               static_cast<uint32_t>(program.insns.size()));
    run.device_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (run.counters.errors != 0) {
        throw DeviceError(fmt::format("{} reported {} running the conv2d program",
                                      device->name(), isa::error_names(run.counters.errors)));
    }
    std::vector<uint8_t> out(program.layout.output.bytes);
    device->read_dram(program.layout.output.base, out);
    run.y = unpack_output(layer, hw, out.data());
    run.plan = plan;
    run.instructions = static_cast<int64_t>(program.insns.size());
    return run;
}

}  // namespace accel
