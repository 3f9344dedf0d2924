// The widths of the instruction fields that bound what software may ask of the machine
// (docs/isa.md). The field table (isa.cpp) is written with them, and every limit below
// is derived from them: a changed width changes the limit, the RTL packages and the
// checks together.
#pragma once
#include <cstdint>

namespace accel::isa {

constexpr unsigned kOpcodeLo = 0;           // every instruction's first field
constexpr unsigned kOpcodeBits = 4;
constexpr unsigned kSramAddrBits = 16;      // SRAM bases and strides, in entries
constexpr unsigned kExtentBits = 16;        // loop extents (z/y/x sizes, n_kb, n_oy, ...)
constexpr unsigned kKernelExtentBits = 8;   // GEMM's n_r and n_s
constexpr unsigned kPrmAddrBits = 8;        // prm_base
constexpr unsigned kPadBits = 8;            // LOAD's pad_top, pad_bottom, pad_left, pad_right
constexpr unsigned kPackBits = 8;           // LOAD's pack_taps and pack_bytes
constexpr unsigned kDramAddrBits = 32;      // DRAM bases and strides, in bytes
constexpr unsigned kAddShiftBits = 5;       // DRAIN's add_shift: a left shift of an int32

// The largest value a field of `width` bits holds.
constexpr uint64_t field_max(unsigned width) { return (uint64_t{1} << width) - 1; }

}  // namespace accel::isa
