#include "fault_run.hpp"

#include <memory>
#include <vector>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/portable_random.hpp"
#include "compiler/packing.hpp"
#include "compiler/planner.hpp"
#include "compiler/scheduler.hpp"
#include "ops/reference.hpp"
#include "verilator_device.hpp"

namespace accel::testing {
namespace {

// The first DRAM byte outside [out.base, out.base + out.bytes) that differs, or -1.
int64_t first_change_outside(const std::vector<uint8_t>& before, const std::vector<uint8_t>& after,
                             const DramRegion& out) {
    for (size_t i = 0; i < before.size(); ++i) {
        const bool inside = i >= out.base && i < uint64_t{out.base} + out.bytes;
        if (!inside && before[i] != after[i]) return static_cast<int64_t>(i);
    }
    return -1;
}

// A DeviceError an error fault may end a run with: it names the unit and the response.
bool names_unit_and_fault(const std::string& message) {
    const bool unit = message.find("fetch unit: DRAM answered ") != std::string::npos ||
                      message.find("load unit: DRAM answered ") != std::string::npos ||
                      message.find("drain unit: DRAM answered ") != std::string::npos;
    const bool fault = message.find("SLVERR on a ") != std::string::npos ||
                       message.find("DECERR on a ") != std::string::npos;
    return unit && fault;
}

}  // namespace

FaultRunOutcome run_with_faults(const HwParams& hw, const LayerCase& c,
                                const sim::DramFaultPlan& faults, uint64_t max_cycles) {
    const Conv2dPlan plan = plan_conv2d(c.layer, hw);
    const Conv2dProgram program = schedule_conv2d(c.layer, hw, plan);
    const std::vector<uint8_t> image = build_dram_image(program, hw, c.x, c.w, c.bias);
    VerilatorOptions options;
    options.watchdog_cycles = 100000;  // a hang fails within seconds
    options.faults = faults;
    options.max_cycles = max_cycles;
    const std::unique_ptr<Device> device = make_verilator_device(hw, image.size(), options);
    device->write_dram(0, image);

    FaultRunOutcome o;
    DeviceCounters counters;
    try {
        counters = device->run(program.layout.program.base,
                               static_cast<uint32_t>(program.insns.size()));
    } catch (const DeviceError& e) {
        o.device_error = true;
        o.what = e.what();
    }
    std::vector<uint8_t> after(image.size());
    device->read_dram(0, after);
    const int64_t changed = first_change_outside(image, after, program.layout.output);
    if (changed >= 0) {
        o.what = fmt::format("DRAM byte 0x{:x} outside the output region changed ({})", changed,
                             o.what);
        return o;
    }
    if (o.device_error) {
        o.ok = !faults.errors.empty() && names_unit_and_fault(o.what);
        if (!o.ok) o.what = "unexpected device error: " + o.what;
        return o;
    }
    if (counters.errors != 0) {
        o.what = "the device reported an error mask without a DeviceError";
        return o;
    }
    const TensorI8 y = unpack_output(c.layer, hw,
                                     after.data() + program.layout.output.base);
    if (y.data != conv2d_reference(c.layer, c.x, c.w, c.bias).data) {
        o.what = "completed with a result that differs from the golden reference";
        return o;
    }
    o.ok = true;
    o.cycles = counters.cycles;
    o.what = "bit-exact";
    return o;
}

sim::DramFaultPlan random_fault_plan(uint64_t seed, double error_share) {
    PortableRandom rng(seed);
    auto chance = [&rng](double p) { return static_cast<double>(rng.uniform(0, 999999)) < p * 1e6; };
    sim::DramFaultPlan plan;
    plan.seed = seed;
    if (chance(0.5)) plan.backpressure = static_cast<double>(rng.uniform(1, 6)) / 10;
    if (chance(0.5)) plan.stall = static_cast<double>(rng.uniform(1, 20)) / 1000;
    if (chance(0.5)) plan.reorder = static_cast<double>(rng.uniform(2, 10)) / 10;
    if (chance(error_share)) {
        sim::DramErrorFault e;
        e.write = chance(0.5);
        e.resp = chance(0.5) ? 2 : 3;
        e.burst = static_cast<uint64_t>(rng.uniform(1, 32));
        plan.errors.push_back(e);
    }
    return plan;
}

}  // namespace accel::testing
