// The accelerator's RTL, compiled by Verilator, as a Device: the DRAM model of the
// config's latency and outstanding limit on its AXI master, control through its
// AXI4-Lite slave, a watchdog, optional FST tracing and the counters read back.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "devices/device.hpp"
#include "dram_faults.hpp"

namespace accel {

struct ActivityTimeline;  // activity_timeline.hpp

struct VerilatorOptions {
    std::string trace_path;             // FST waveform file; empty: no tracing
    // The cycles [trace_from, trace_to) of the trace: counted from the start of the first
    // run, over the runs one after another (reset and CSR traffic between them are not
    // counted, nor traced when a window is set).
    uint64_t trace_from = 0, trace_to = UINT64_MAX;
    uint64_t watchdog_cycles = 1000000; // no progress for this long: DeviceError
    uint64_t max_cycles = 0;            // a longer run: DeviceError; 0: derived from the
                                        // program, at most 2^30 (devices/run_budget.hpp)
    // Called about every 2^16 cycles of a run with the cycles it has taken so far: a
    // progress display's clock. Empty: not called.
    std::function<void(uint64_t run_cycles)> on_cycles;
    // Faults the DRAM model injects (dram_faults.hpp). Cycles in which they held a
    // transfer back extend max_cycles by one each and count as progress for the
    // watchdog; an error response the RTL reports or ignores ends the run with a
    // DeviceError naming the unit, the response and the address.
    sim::DramFaultPlan faults;
    // When set, each run's per-unit busy/wait intervals are recorded here
    // (activity_recorder.hpp); it costs a little simulation speed.
    std::shared_ptr<ActivityTimeline> activity;
    // Nonzero: every register and memory the model leaves uninitialised starts random,
    // drawn from this seed (for models Verilated with --x-initial unique, such as the
    // synthesized netlist's, docs/fpga.md); 0: Verilator's default, zeros.
    uint32_t random_init_seed = 0;
};

// The hardware configs a model was compiled for (CMake's ACCEL_HW_CONFIGS).
std::vector<std::string> verilator_configs();

// The device for `params`, when a model was compiled for a config with the same
// hardware parameters (the name may differ); otherwise accel::Error naming the
// compiled configs.
std::unique_ptr<Device> make_verilator_device(const HwParams& params, uint64_t dram_bytes,
                                              const VerilatorOptions& options);

}  // namespace accel
