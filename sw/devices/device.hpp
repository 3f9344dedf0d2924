// The interface every backend that runs instruction streams implements: the functional
// simulator (fsim), the Verilator model of the RTL, and boards. Tests and the runtime
// are written against this, so each can run on any device.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "hw/hw_params.hpp"

namespace accel {

// What a run leaves behind besides DRAM. The first group is defined by the ISA and
// agrees between all devices for the same program; the second is timing, which only
// a cycle-accurate device measures (fsim leaves it 0).
struct DeviceCounters {
    uint32_t errors = 0;            // error mask (docs/isa.md); 0 = OK
    uint64_t load_insns = 0;        // instructions completed per unit
    uint64_t gemm_insns = 0;
    uint64_t drain_insns = 0;
    uint64_t gemm_steps = 0;        // reduction steps issued to the GEMM core
    uint64_t load_bytes = 0;        // DRAM bytes read by LOAD
    uint64_t drain_bytes = 0;       // DRAM bytes written by DRAIN

    uint64_t cycles = 0;            // start to done
    uint64_t fetch_bytes = 0;       // DRAM bytes read by fetch (prefetch included)
    uint64_t load_busy = 0, gemm_busy = 0, drain_busy = 0;  // cycles with work under way
    uint64_t load_wait = 0, gemm_wait = 0, drain_wait = 0;  // cycles waiting for a token
};

class Device {
public:
    virtual ~Device() = default;

    virtual std::string name() const = 0;
    virtual const HwParams& params() const = 0;

    // DRAM is byte-addressed from 0 to dram_bytes()-1. Out-of-range host accesses throw
    // accel::Error.
    virtual uint64_t dram_bytes() const = 0;
    virtual void write_dram(uint64_t addr, std::span<const uint8_t> bytes) = 0;
    virtual void read_dram(uint64_t addr, std::span<uint8_t> bytes) const = 0;

    // Runs `count` instructions starting at DRAM byte address `insn_addr` until the
    // device is done (docs/isa.md). Errors of the program are reported in the counters'
    // error mask; a device that stops responding throws accel::DeviceError.
    virtual DeviceCounters run(uint32_t insn_addr, uint32_t count) = 0;
};

}  // namespace accel
