// One conv2d layer on the Verilator device under a DRAM fault plan, judged by the rules
// of docs/reliability.md: stalls, backpressure and reordering complete bit-exact; an
// error response completes bit-exact (fetch may drop a read past the program's end) or
// ends in a DeviceError naming the unit and the fault; a run never writes outside its
// output region, never hangs, and never ends any other way.
#pragma once
#include <cstdint>
#include <string>

#include "dram_faults.hpp"
#include "hw/hw_params.hpp"
#include "random_layer.hpp"

namespace accel::testing {

struct FaultRunOutcome {
    bool ok = false;            // the rules held
    bool device_error = false;  // the run ended in a DeviceError (ok or not)
    uint64_t cycles = 0;        // of a run that completed
    std::string what;           // how it ended, or which rule broke
};

// `max_cycles` is the device's cycle budget (0: its default).
FaultRunOutcome run_with_faults(const HwParams& hw, const LayerCase& c,
                                const sim::DramFaultPlan& faults, uint64_t max_cycles = 0);

// A random plan of every fault class but errors (with probability error_share, one
// error response on a read or a write), from `seed`: the soak's mix.
sim::DramFaultPlan random_fault_plan(uint64_t seed, double error_share);

}  // namespace accel::testing
