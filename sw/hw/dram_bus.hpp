// The DRAM as the accelerator reaches it over its AXI4 master (docs/architecture.md,
// "AXI"): byte addresses of isa::kDramAddrBits bits, INCR bursts of at most
// kMaxBurstBeats beats that never cross a kPageBytes boundary. The compiler, the
// devices, the DRAM model and the RTL (through accel_isa_pkg, written by gen_hw_params)
// all take these from here.
#pragma once
#include <cstdint>

#include "hw/isa_fields.hpp"

namespace accel::dram_bus {

// The bytes the addresses reach: 4 GiB.
constexpr uint64_t kAddressSpaceBytes = uint64_t{1} << isa::kDramAddrBits;
// The most bytes a device's DRAM, or a layer's or network's image in it, may hold: a
// size the ISA's 32-bit address and stride fields can still express.
constexpr uint64_t kMaxDramBytes = isa::field_max(isa::kDramAddrBits);

constexpr uint32_t kMaxBurstBeats = 16;  // the longest INCR burst the units issue
constexpr uint32_t kPageBytes = 4096;    // no burst crosses a boundary of these

}  // namespace accel::dram_bus
