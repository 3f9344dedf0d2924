// An instruction-level timing model of the RTL: each unit executes its queue in order;
// an instruction starts when fetch has dispatched it, its unit is free and its tokens
// have been pushed; LOAD and DRAIN data move over one shared bus.
#include "accel/cost_model.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "accel/int_math.hpp"

namespace accel {
namespace {

// Fixed costs of the RTL, in cycles (measured against the Verilator model).
constexpr int64_t kStartCycles = 4;      // CSR start to the first instruction request
constexpr int64_t kDoneCycles = 3;       // last completion to done
constexpr int64_t kGemmPipeline = 5;     // first issue to last ACC write
constexpr int64_t kDrainPipeline = 5;    // ACC read to the first W beat
constexpr int64_t kUnitTurnaround = 1;   // completion to the next start
constexpr int64_t kReadTurnaround = 3;   // a read burst's slot: cycles beyond latency + beats
constexpr int64_t kWriteTurnaround = 3;  // a write burst's slot: cycles beyond latency + beats
constexpr int64_t kMaxBurstBeats = 16;   // AXI INCR bursts the RTL issues

enum Queue { kLd2Cp, kCp2Ld, kCp2Dr, kDr2Cp };

struct Tokens {
    std::array<std::deque<int64_t>, 4> ready;  // push times, FIFO per queue
    int64_t pop(Queue q) {
        if (ready[q].empty()) return 0;  // not produced earlier: not our streams
        const int64_t t = ready[q].front();
        ready[q].pop_front();
        return t;
    }
};

// The DRAM data path: one beat per cycle, shared by every read and write. The units
// are modelled in program order, not time order, so a transfer modelled later may
// really happen earlier (a LOAD that starts while the previous tile's DRAIN waits for
// its GEMM): each takes the first free cycles from its ready time on, filling gaps.
class BusCalendar {
public:
    // Moves `n` beats in the first free cycles at or after `t`; returns the cycle after
    // the last one.
    int64_t take(int64_t t, int64_t n) {
        if (n <= 0) return t;
        // Most transfers start after everything booked so far: extend or append.
        if (busy_.empty() || busy_.back().end <= t) {
            if (!busy_.empty() && busy_.back().end == t) {
                busy_.back().end = t + n;
            } else {
                busy_.push_back({t, t + n});
            }
            return t + n;
        }
        // The first interval that ends after t: t is inside it or in the gap before it.
        size_t k = static_cast<size_t>(
            std::upper_bound(busy_.begin(), busy_.end(), t,
                             [](int64_t v, const Interval& b) { return v < b.end; }) -
            busy_.begin());
        while (n > 0) {
            if (k < busy_.size() && busy_[k].begin <= t) {  // inside a busy interval
                t = busy_[k].end;
                ++k;
                continue;
            }
            const int64_t gap_end = k < busy_.size() ? busy_[k].begin : t + n;
            const int64_t end = std::min(gap_end, t + n);
            n -= end - t;
            k = book(k, t, end);
            t = end;
        }
        return t;
    }

private:
    struct Interval {
        int64_t begin, end;
    };

    // Books [begin, end) in the gap before interval k, merging it with the neighbours it
    // touches; returns the index of the first interval that ends after `end`.
    size_t book(size_t k, int64_t begin, int64_t end) {
        const bool joins_prev = k > 0 && busy_[k - 1].end == begin;
        const bool joins_next = k < busy_.size() && busy_[k].begin == end;
        if (joins_prev && joins_next) {
            busy_[k - 1].end = busy_[k].end;
            busy_.erase(busy_.begin() + static_cast<long>(k));
            return k - 1;
        }
        if (joins_prev) {
            busy_[k - 1].end = end;
            return k;
        }
        if (joins_next) {
            busy_[k].begin = begin;
            return k;
        }
        busy_.insert(busy_.begin() + static_cast<long>(k), {begin, end});
        return k + 1;
    }

    std::vector<Interval> busy_;  // by start; disjoint, never touching
};

struct Machine {
    explicit Machine(const HwParams& params) : hw(params) {}
    const HwParams& hw;
    Tokens tokens;
    std::array<int64_t, 3> unit_free{};        // load, compute, drain
    BusCalendar bus;
    CostPrediction out;

    int64_t beats(int64_t bytes) const { return ceil_div(bytes, hw.beat_bytes); }
    int64_t latency() const { return hw.config.dram_latency_cycles; }

    // Moves `n` beats over the bus no earlier than `t`; returns when the last one moved.
    int64_t transfer(int64_t t, int64_t n) {
        out.bus_beats += n;
        return bus.take(t, n);
    }
};

// Bursts of a run of `beats` contiguous beats: at most 16 beats each (4 KiB page
// crossings are rare in our layouts and ignored).
int64_t bursts_of(int64_t beats) { return ceil_div(beats, kMaxBurstBeats); }

// Cycles to stream `beats` beats in bursts of `burst_beats` on average when at most
// max_outstanding bursts may be in flight and each holds its slot for a round trip of
// latency + its beats + `overhead` cycles (Little's law); at least one beat per cycle.
int64_t stream_cycles(const Machine& m, int64_t beats, double burst_beats, int64_t overhead) {
    const double in_flight = double(m.hw.config.dram_max_outstanding) * burst_beats;
    const double round_trip = double(m.latency()) + burst_beats + double(overhead);
    const double rate = std::min(1.0, in_flight / round_trip);
    return static_cast<int64_t>(double(beats) / rate + 0.5);
}

int64_t load_duration(Machine& m, const isa::Load& l, int64_t start) {
    const uint32_t entry = l.buffer == isa::Buffer::Inp ? m.hw.inp_entry_bytes
                         : l.buffer == isa::Buffer::Wgt ? m.hw.wgt_entry_bytes
                                                        : m.hw.prm_entry_bytes;
    const int64_t rows = int64_t{l.z_size} * l.y_size;
    const int64_t row_beats = m.beats(int64_t{l.x_size} * entry);
    const int64_t beats = rows * row_beats;
    const double burst_beats = double(row_beats) / double(bursts_of(row_beats));
    const int64_t all_entries = int64_t{l.z_size} * (l.pad_top + l.y_size + l.pad_bottom) *
                                (l.pad_left + l.x_size + l.pad_right);
    const int64_t first = start + m.latency() + 2;
    const int64_t data_end = std::max(m.transfer(first, beats),
                                      first + stream_cycles(m, beats, burst_beats, kReadTurnaround));
    return std::max(data_end, start + all_entries) + 1;
}

// The DRAIN's output in DRAM: runs of contiguous beats, which the writer coalesces into
// bursts. Entries of a row are contiguous when dram_x is one entry; rows and then
// output-channel blocks join the run when their strides continue it.
int64_t drain_run_beats(const Machine& m, const isa::Drain& d) {
    const int64_t entry = int64_t{m.hw.batch} * m.hw.block_out;
    if (d.dram_x != entry) return m.beats(entry);
    int64_t run = int64_t{d.n_x} * entry;
    if (d.dram_y == run) {
        run *= d.n_y;
        if (d.dram_kb == run) run *= d.n_kb;
    }
    return m.beats(run);
}

int64_t drain_end(Machine& m, const isa::Drain& d, int64_t start) {
    const int64_t entries = int64_t{d.n_kb} * d.n_y * d.n_x;
    const int64_t n = m.beats(entries * m.hw.batch * m.hw.block_out);
    const int64_t run = drain_run_beats(m, d);
    const double burst_beats = double(run) / double(bursts_of(run));
    const int64_t first = start + kDrainPipeline;
    const int64_t data_end = std::max(m.transfer(first, n),
                                      first + stream_cycles(m, n, burst_beats, kWriteTurnaround));
    return data_end + m.latency() + 2;  // the last B response
}

// Executes one instruction of unit `u`; returns its completion time. `booked(start)` is
// called once its start is known, before it moves any data.
template <typename Booked>
int64_t execute(Machine& m, const isa::Insn& insn, int u, int64_t dispatch, int64_t& start_out,
                Booked&& booked) {
    const isa::Tokens t = isa::tokens_of(insn);
    int64_t start = std::max(dispatch, m.unit_free[static_cast<size_t>(u)]);
    const Queue prev_pop = u == 1 ? kLd2Cp : kCp2Dr, next_pop = u == 0 ? kCp2Ld : kDr2Cp;
    if (t.pop_prev) start = std::max(start, m.tokens.pop(prev_pop));
    if (t.pop_next) start = std::max(start, m.tokens.pop(next_pop));
    start_out = start;
    booked(start);
    int64_t end = start;
    if (const auto* l = std::get_if<isa::Load>(&insn)) {
        end = load_duration(m, *l, start);
        m.out.load_busy += end - start;
    } else if (const auto* g = std::get_if<isa::Gemm>(&insn)) {
        const int64_t steps = int64_t{g->n_kb} * g->n_oy * g->n_ox * g->n_r * g->n_s * g->n_cb;
        end = start + steps + kGemmPipeline;
        m.out.gemm_steps += steps;
        m.out.gemm_busy += end - start;
    } else if (const auto* d = std::get_if<isa::Drain>(&insn)) {
        end = drain_end(m, *d, start);
        m.out.drain_busy += end - start;
    }
    const Queue prev_push = u == 1 ? kCp2Ld : kDr2Cp, next_push = u == 0 ? kLd2Cp : kCp2Dr;
    if (t.push_prev) m.tokens.ready[prev_push].push_back(end);
    if (t.push_next) m.tokens.ready[next_push].push_back(end);
    m.unit_free[static_cast<size_t>(u)] = end + kUnitTurnaround;
    return end;
}

// Fetch (fetch_unit.sv): each instruction is one read burst into one of kFetchSlots
// slots, requested once a slot is free; once its beats are in, it is checked for a
// cycle and dispatched the next, when its unit's queue has room. A slot frees at
// dispatch, and the instruction kFetchSlots on is requested at once.
//
// Fetch runs ahead of the units: while the queues have room it reads instructions that
// the units reach much later, and those reads share the bus with the LOADs running
// meanwhile. So fetch is modelled ahead, as far as it can be known: an instruction's
// dispatch needs room in its unit's queue, i.e. the completion of the instruction
// kUnitQueueDepth earlier in the same unit, and the frontier stops at the first
// instruction whose room depends on one not yet executed. Its reads are booked on the
// bus before the LOAD that executes next books its own.
struct Fetch {
    Fetch(Machine& machine, const std::vector<isa::Insn>& prog)
        : m(machine), program(prog), arrival(prog.size() + kFetchSlots, 0),
          dispatch_at(prog.size(), -1), completion(prog.size(), -1),
          unit_of(prog.size(), -1), queue_ahead(prog.size(), kNone) {
        std::array<std::vector<size_t>, 3> queued;  // each unit's instructions, in order
        for (size_t i = 0; i < prog.size(); ++i) {
            const isa::Insn& insn = prog[i];
            unit_of[i] = std::holds_alternative<isa::Load>(insn)   ? 0
                       : std::holds_alternative<isa::Gemm>(insn)   ? 1
                       : std::holds_alternative<isa::Drain>(insn)  ? 2
                                                                   : -1;
            if (unit_of[i] < 0) continue;
            std::vector<size_t>& q = queued[static_cast<size_t>(unit_of[i])];
            if (q.size() >= kUnitQueueDepth) queue_ahead[i] = q[q.size() - kUnitQueueDepth];
            q.push_back(i);
        }
        for (size_t i = 0; i < kFetchSlots; ++i) request(i, kStartCycles + int64_t(i));
    }
    static constexpr size_t kNone = SIZE_MAX;
    Machine& m;
    const std::vector<isa::Insn>& program;
    std::vector<int64_t> arrival;      // by instruction: the cycle its last beat is in
    std::vector<int64_t> dispatch_at;  // by instruction, once the frontier has passed it
    std::vector<int64_t> completion;   // by instruction, once executed; else -1
    std::vector<int> unit_of;          // 0 load, 1 compute, 2 drain, -1 FINISH
    // By instruction: the one kUnitQueueDepth places earlier in its unit's queue, whose
    // completion makes room for it; kNone for the first kUnitQueueDepth of a unit.
    std::vector<size_t> queue_ahead;
    size_t frontier = 0;               // instructions [0, frontier) are dispatched
    int64_t last_request = 0, last_arrival = 0, last_dispatch = 0;

    void request(size_t i, int64_t t) {
        if (i >= arrival.size()) return;
        const int64_t request = std::max(last_request + 1, t);
        const int64_t first = request + 1 + m.latency();
        arrival[i] = std::max(m.transfer(first, m.beats(isa::kInsnBytes)), last_arrival);
        last_request = request;
        last_arrival = arrival[i];
    }

    // Dispatches instructions [frontier, through] and after them every one dispatched
    // by `until` whose dispatch time is known by now.
    void advance(size_t through, int64_t until) {
        while (frontier < program.size()) {
            const size_t i = frontier;
            const int u = unit_of[i];
            int64_t room = 0;
            if (queue_ahead[i] != kNone) {
                const int64_t done = completion[queue_ahead[i]];
                if (done < 0) return;  // its queue's room is not known yet
                room = done + 1;
            }
            const int64_t at = std::max({arrival[i] + 1, last_dispatch + 2, room});
            if (i > through && at > until) return;
            last_dispatch = at;
            dispatch_at[i] = at;
            ++frontier;
            if (u < 0) return;  // FINISH: nothing after it is fetched
            request(i + kFetchSlots, at + 1);  // its slot frees: the next request goes out
        }
    }

    void completed(size_t i, int64_t end) { completion[i] = end; }
};

}  // namespace

CostPrediction predict_cycles(const std::vector<isa::Insn>& program, const HwParams& hw,
                              std::vector<InsnTime>* timeline) {
    Machine m(hw);
    Fetch fetch(m, program);
    int64_t last = kStartCycles;
    for (size_t i = 0; i < program.size(); ++i) {
        // Reaches i (its queue's room depends only on earlier instructions), then books
        // the reads fetch requests before i starts: the DRAM answers in request order.
        fetch.advance(i, -1);
        const int u = fetch.unit_of[i];
        if (u < 0) break;  // FINISH
        int64_t start = 0;
        const int64_t end = execute(m, program[i], u, fetch.dispatch_at[i] + 1, start,
                                    [&](int64_t at) { fetch.advance(i, at); });
        fetch.completed(i, end);
        if (timeline != nullptr) timeline->push_back({u, start, end});
        last = std::max(last, end);
    }
    m.out.cycles = last + kDoneCycles;
    return m.out;
}

}  // namespace accel
