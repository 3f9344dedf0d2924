// Fixed costs of the RTL, in cycles, measured against the Verilator model: the cost
// model's calibration (cost_model.cpp), and the coarser margins the planner's estimate
// and the scheduler's last-tile split use, kept beside it so that a recalibration sees
// them all. Times are those of the CYCLES counter; an instruction completes in the
// cycle its unit reports it done, and its tokens and its unit are free from the next.
#pragma once
#include <cstdint>

#include "hw/hw_params.hpp"

namespace accel::timing {

// The cost model.
constexpr int64_t kStartCycles = 1;      // CSR start to fetch's first request
constexpr int64_t kDoneCycles = 3;       // last completion to the end of the run
constexpr int64_t kGemmPipeline = 3;     // a GEMM's completion after its last issue
constexpr int64_t kDrainLead = 16;       // a DRAIN beat's read to its data out of
                                         // requant (two SRAM read stages) and into
                                         // the burst writer
constexpr int64_t kDrainAddressLead = 2; // a DRAIN beat's read to its address in the
                                         // burst writer, which closes a burst
constexpr int64_t kDrainTail = 1;        // the last B response to the DRAIN's completion
constexpr int64_t kAddPipeline = kAddOperandsLatency;  // add mode: the operands'
                                                     // rescaling before accel_requant
// Double-scale mode: the stages of accel_double_requant_serial beyond accel_requant's.
// Its one accel_double_requant lane takes the beat's lanes a cycle each.
constexpr int64_t double_scale_pipeline(const HwParams& hw) {
    return int64_t{kDoubleRequantLatency} + hw.beat_bytes - kRequantLatency;
}
constexpr int64_t kUnitTurnaround = 1;   // completion to the next start
constexpr int64_t kReadGap = 0;          // a read burst's slot: cycles after its last beat
constexpr int64_t kReadSlice = 1;        // accel_top's register slice on the R channel
constexpr int64_t kWriteGap = 2;         // a write burst's slot: cycles after its B

// The planner's estimate (planner.cpp): a step's cycles besides its GEMM's issue cycles
// (pipeline, token hand-over, turnaround), and a LOAD's besides the DRAM latency and
// its beats (request, walker, completion).
constexpr int64_t kEstimateStepOverhead = 8;
constexpr int64_t kEstimateLoadOverhead = 6;

// The scheduler's split of the last tile (scheduler.cpp): a DRAIN's cycles besides the
// DRAM latency and its beats (requant pipeline, AW lead, B response).
constexpr int64_t kDrainOverhead = 17;

}  // namespace accel::timing
