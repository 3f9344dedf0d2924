#include "netlist_device.hpp"

#include "Vaccel_top_netlist.h"
#include "Vaccel_top_netlist___024root.h"  // rootp, which the device probes for counters
#include "verilator_device_impl.hpp"

namespace accel::netlist_sim {

std::unique_ptr<Device> make_netlist_device(const HwParams& params, uint64_t dram_bytes,
                                            const VerilatorOptions& options) {
    return std::make_unique<VerilatorDevice<Vaccel_top_netlist>>(
        "netlist:" + params.config.name, params, dram_bytes, options);
}

}  // namespace accel::netlist_sim
