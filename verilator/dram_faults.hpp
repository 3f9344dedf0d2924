// Faults the DRAM model (dram_model.hpp) can inject into its AXI answers, as a plan that
// a seed makes reproducible (docs/reliability.md, "DRAM fault injection"):
//
//   backpressure  each cycle, each ready the model drives (AR, AW, W) drops with
//                 probability P;
//   stall         each transfer on a channel (the first, and each after a handshake)
//                 stalls with probability P: no ready (AR, AW, W) or no new valid (R, B)
//                 until the master offers it or the model owes it, and then for a number
//                 of cycles drawn from [LO, HI];
//   reorder       each new R beat comes, with probability P, from the oldest burst of
//                 another ID than the oldest burst in flight (bursts of one ID stay in
//                 order; beats of bursts with different IDs interleave);
//   slverr/decerr the N-th read or write burst is answered with SLVERR or DECERR
//                 (every beat of a read, the B of a write; its W data is discarded).
//
// The plan as text, items separated by commas (parse_dram_fault_plan):
//   seed=N  backpressure=P  stall=P  stall-cycles=LO-HI  stall-on=ar+r+aw+w+b
//   reorder=P  slverr=read:N  slverr=write:N  decerr=read:N  decerr=write:N
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/portable_random.hpp"

namespace accel::sim {

// The five AXI channels, as bits of a mask.
enum DramChannel : unsigned { kChanAr = 1, kChanR = 2, kChanAw = 4, kChanW = 8, kChanB = 16 };
constexpr unsigned kAllDramChannels = kChanAr | kChanR | kChanAw | kChanW | kChanB;

struct DramErrorFault {
    bool write = false;
    uint64_t burst = 1;  // the N-th burst of its direction since the plan was installed
    uint8_t resp = 2;    // 2 SLVERR, 3 DECERR
};

struct DramFaultPlan {
    uint64_t seed = 1;
    double backpressure = 0;
    double stall = 0;
    uint32_t stall_min = 1000, stall_max = 4000;
    unsigned stall_on = kAllDramChannels;
    double reorder = 0;
    std::vector<DramErrorFault> errors;

    bool empty() const { return backpressure == 0 && stall == 0 && reorder == 0 && errors.empty(); }
    // The plan as parse_dram_fault_plan reads it, every item spelled out.
    std::string to_string() const;
};

// The plan a SPEC describes; accel::Error naming the item that is malformed. An empty
// SPEC is an error (there is nothing to inject).
DramFaultPlan parse_dram_fault_plan(const std::string& spec);

// "SLVERR", "DECERR", "OKAY" or "EXOKAY" for an AXI response code.
const char* axi_resp_name(uint8_t resp);

// The plan at run time: the draws, the stall timers and the burst counts.
class DramFaultInjector {
public:
    explicit DramFaultInjector(DramFaultPlan plan);

    const DramFaultPlan& plan() const { return plan_; }

    // Whether `channel` holds back this cycle: a stall is armed or under way, or
    // backpressure drew a drop of a ready. Asked of R and B only when a transfer is owed,
    // which starts an armed stall.
    bool holds(DramChannel channel, uint64_t now);
    // The master offers a transfer on AR, AW or W that waits: starts an armed stall.
    void offered(DramChannel channel, uint64_t now);
    // A handshake on `channel`: the next transfer may stall.
    void handshake(DramChannel channel) { arm(channel); }
    // The response the next burst of a direction is to get: 0 unless an error fault
    // names it.
    uint8_t next_burst_resp(bool write);
    // Whether the next R beat is to come from another ID's burst.
    bool reorder() { return plan_.reorder > 0 && draw(plan_.reorder); }
    // Drops every stall under way (the RTL was reset).
    void clear_stalls();

private:
    struct Stall {
        uint64_t armed = 0;  // cycles of a stall that starts with the next transfer; 0: none
        uint64_t until = 0;  // a stall under way holds the channel before this cycle
    };

    bool draw(double p) { return static_cast<double>(rng_.next() >> 11) * 0x1.0p-53 < p; }
    void arm(DramChannel c);
    void start(Stall& s, uint64_t now);
    static unsigned index(DramChannel c);

    DramFaultPlan plan_;
    PortableRandom rng_;
    Stall stalls_[5];
    uint64_t read_bursts_ = 0, write_bursts_ = 0;
};

}  // namespace accel::sim
