// Programs of independent layers run as one instruction stream (docs/networks.md,
// "Depthwise on the device"): a depthwise operator's channel blocks read and write
// disjoint parts of DRAM, so the next block's LOADs may start while the previous one
// still drains. At each seam the FINISH goes and two tokens order what the programs
// share on chip: the next program's first LOAD waits for the previous one's last GEMM
// (cp2ld: the INP, WGT and PRM entries it overwrites are read no more) and its first
// GEMM for the previous one's last DRAIN (dr2cp: every ACC entry is drained). A DRAIN
// also reads PRM, which the next program's LOADs may overwrite before it is done: the
// caller gives neighbouring programs different PRM entries (two it alternates suffice:
// the program after next loads only once the next one's first GEMM has waited for
// this one's last DRAIN).
#pragma once
#include <vector>

#include "hw/isa.hpp"

namespace accel {

// The programs, each as the scheduler emits it (ending in FINISH, every token it pushes
// popped within it), as one. Throws std::logic_error for programs not of that form.
std::vector<isa::Insn> chain_programs(const std::vector<std::vector<isa::Insn>>& programs);

}  // namespace accel
