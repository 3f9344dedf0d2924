// An optional recorder of what the load, compute and drain units do in every cycle of a
// run on the Verilator device, and of the cycles a DRAM beat moves, as run-length
// intervals: the data of a timeline (`accel conv2d/bench --timeline`). Switched on by
// VerilatorOptions::activity; when it is off the device pays one null-pointer test per
// cycle.
//
// It reads the RTL's own counters (the registers behind the CYCLES ... DRAIN_WAIT CSRs,
// docs/isa.md) after each clock edge: a busy/wait counter that advanced by one means the
// unit was in that state during the cycle, a byte counter that advanced means a beat
// crossed the bus, and the CYCLES counter gives the cycle's index since start. So the
// timeline agrees with the counters by construction, and nothing in the RTL exists only
// for it.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "base/error.hpp"
#include "hw/csr.hpp"
#include "activity_timeline.hpp"

namespace accel {

namespace detail {
// The index of a 64-bit counter in the RTL's counter file, from its CSR offset.
constexpr size_t counter_index(uint32_t csr_offset) { return (csr_offset - csr::kCycles) / 8; }
}  // namespace detail

class ActivityRecorder {
public:
    // `counter_words`: the RTL's counter register file, 64 bits per counter in CSR order
    // starting at CYCLES, as 32-bit words (lowest first), `word_count` of them.
    ActivityRecorder(const uint32_t* counter_words, size_t word_count, ActivityTimeline* out)
        : words_(counter_words), out_(out) {
        if (word_count < 2 * kCounters) {
            throw Error(fmt::format("activity recorder: the model has {} counter words, "
                                    "{} expected",
                                    word_count, 2 * kCounters));
        }
        read(prev_);
    }

    // After every clock edge.
    void sample() {
        std::array<uint32_t, kCounters> now;
        read(now);
        const uint64_t cycle = prev_[0];
        if (now[0] == prev_[0] + 1) {  // a running cycle: index prev_[0] (low word)
            if (cycle_hi_ == 0 && prev_[0] == 0) restart();
            const uint64_t index = (cycle_hi_ << 32) | cycle;
            for (size_t u = 0; u < 3; ++u) {
                if (now[kBusy + u] == prev_[kBusy + u] + 1) extend(out_->units[u].busy, index);
                if (now[kWait + u] == prev_[kWait + u] + 1) extend(out_->units[u].wait, index);
            }
            DramActivity& dram = out_->dram;
            if (now[kFetchBytes] != prev_[kFetchBytes]) extend(dram.fetch_reads, index);
            if (now[kLoadBytes] != prev_[kLoadBytes]) extend(dram.load_reads, index);
            if (now[kDrainBytes] != prev_[kDrainBytes]) extend(dram.drain_writes, index);
            if (now[0] == 0) ++cycle_hi_;  // the low word wrapped
            out_->cycles = index + 1;
        }
        prev_ = now;
    }

private:
    static constexpr auto counter = detail::counter_index;
    static constexpr size_t kBusy = counter(csr::kLoadBusy);  // load, compute, drain follow
    static constexpr size_t kWait = counter(csr::kLoadWait);
    static constexpr size_t kFetchBytes = counter(csr::kFetchBytes);
    static constexpr size_t kLoadBytes = counter(csr::kLoadBytes);
    static constexpr size_t kDrainBytes = counter(csr::kDrainBytes);
    static constexpr size_t kCounters = kWait + 3;
    static_assert(counter(csr::kGemmBusy) == kBusy + 1 && counter(csr::kDrainBusy) == kBusy + 2);
    static_assert(counter(csr::kGemmWait) == kWait + 1 && counter(csr::kDrainWait) == kWait + 2);

    // The low 32 bits of each counter. Cycles and busy spans of one run stay far below
    // 2^32 steps between samples, so increments are all that matter.
    void read(std::array<uint32_t, kCounters>& v) const {
        for (size_t i = 0; i < kCounters; ++i) v[i] = words_[2 * i];
    }

    // Cycle 0 of a run: the counters were just reset by the start.
    void restart() {
        *out_ = ActivityTimeline{};
        cycle_hi_ = 0;
    }

    static void extend(std::vector<ActivityInterval>& spans, uint64_t cycle) {
        if (!spans.empty() && spans.back().end == cycle) {
            spans.back().end = cycle + 1;
        } else {
            spans.push_back({cycle, cycle + 1});
        }
    }

    const uint32_t* words_;
    ActivityTimeline* out_;
    std::array<uint32_t, kCounters> prev_{};
    uint64_t cycle_hi_ = 0;
};

}  // namespace accel
