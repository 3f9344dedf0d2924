#include "devices/register_file.hpp"

#include <thread>
#include <utility>

#include <fmt/format.h>

#include "base/error.hpp"
#include "hw/csr.hpp"

namespace accel {
namespace {

uint64_t read64(RegisterFile& regs, uint32_t offset) {
    const uint64_t lo = regs.read32(offset);
    return lo | (uint64_t{regs.read32(offset + 4)} << 32);
}

constexpr uint32_t kStatusBusy = 1u << 0;
constexpr uint32_t kStatusDone = 1u << 1;

[[noreturn]] void stalled(RegisterFile& regs, const std::string& device,
                          std::chrono::milliseconds timeout) {
    throw DeviceError(fmt::format("{}: watchdog: no progress for {} ms; {}", device,
                                  timeout.count(), describe_unit_states(regs)));
}

}  // namespace

void check_csr_identity(RegisterFile& regs, const HwParams& params, const std::string& device) {
    const std::pair<uint32_t, uint32_t> expected[] = {
        {csr::kCfgBatch, params.batch},       {csr::kCfgBlockIn, params.block_in},
        {csr::kCfgBlockOut, params.block_out}, {csr::kCfgAxiDataBits, params.beat_bytes * 8},
        {csr::kCfgInpDepth, params.inp_depth}, {csr::kCfgWgtDepth, params.wgt_depth},
        {csr::kCfgAccDepth, params.acc_depth}};
    for (const auto& [reg, want] : expected) {
        const uint32_t got = regs.read32(reg);
        if (got != want) {
            throw Error(fmt::format("{}: the hardware has {} at CSR 0x{:03x}, the hw config '{}' "
                                    "needs {}",
                                    device, got, reg, params.config.name, want));
        }
    }
}

DeviceCounters run_via_csrs(RegisterFile& regs, uint32_t insn_addr, uint32_t count,
                            const std::string& device, const CsrRunOptions& options) {
    regs.write32(csr::kInsnAddr, insn_addr);
    regs.write32(csr::kInsnCount, count);
    regs.write32(csr::kCtrl, 1);  // done drops at the edge that takes this write
    using clock = std::chrono::steady_clock;
    auto last_progress = clock::now();
    uint64_t last = 0;
    for (;;) {
        const uint32_t status = regs.read32(csr::kStatus);
        if (status & kStatusDone) break;
        // Progress: any of the low words moving. Compute can run long without DRAM.
        const uint64_t now = regs.read32(csr::kGemmSteps) + regs.read32(csr::kLoadBytes) +
                             uint64_t{regs.read32(csr::kDrainBytes)};
        if (now != last || !(status & kStatusBusy)) {
            last = now;
            last_progress = clock::now();
        } else if (clock::now() - last_progress > options.stall_timeout) {
            stalled(regs, device, options.stall_timeout);
        }
        if (options.poll_interval.count() > 0) std::this_thread::sleep_for(options.poll_interval);
    }
    return read_csr_counters(regs);
}

std::string describe_unit_states(RegisterFile& regs) {
    const uint32_t state = regs.read32(csr::kUnitState);
    auto unit = [state](unsigned i) {
        constexpr uint32_t kMask = (1u << csr::kUnitStateBits) - 1;
        return csr::unit_state_words((state >> (csr::kUnitStateBits * i)) & kMask);
    };
    return fmt::format("fetch {}, load {}, compute {}, drain {}", unit(0), unit(1), unit(2),
                       unit(3));
}

DeviceCounters read_csr_counters(RegisterFile& regs) {
    DeviceCounters c;
    c.errors = regs.read32(csr::kError);
    c.cycles = read64(regs, csr::kCycles);
    c.gemm_steps = read64(regs, csr::kGemmSteps);
    c.load_bytes = read64(regs, csr::kLoadBytes);
    c.drain_bytes = read64(regs, csr::kDrainBytes);
    c.fetch_bytes = read64(regs, csr::kFetchBytes);
    c.load_insns = read64(regs, csr::kLoadInsns);
    c.gemm_insns = read64(regs, csr::kGemmInsns);
    c.drain_insns = read64(regs, csr::kDrainInsns);
    c.load_busy = read64(regs, csr::kLoadBusy);
    c.gemm_busy = read64(regs, csr::kGemmBusy);
    c.drain_busy = read64(regs, csr::kDrainBusy);
    c.load_wait = read64(regs, csr::kLoadWait);
    c.gemm_wait = read64(regs, csr::kGemmWait);
    c.drain_wait = read64(regs, csr::kDrainWait);
    return c;
}

}  // namespace accel
