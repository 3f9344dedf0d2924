// An instruction-level timing model of the RTL: each unit executes its queue in order;
// an instruction starts when fetch has dispatched it, its unit is free and its tokens
// have been pushed. Fetch's and the LOADs' read bursts and the DRAINs' write bursts go
// through the DRAM's two ports and share its one data path.
#include "compiler/cost_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "base/int_math.hpp"
#include "compiler/rtl_timing.hpp"
#include "hw/dram_bus.hpp"

namespace accel {
namespace {

using namespace timing;  // the calibrated fixed costs (rtl_timing.hpp)
constexpr auto kMaxBurstBeats = static_cast<int64_t>(dram_bus::kMaxBurstBeats);

constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
constexpr size_t kNoInsn = SIZE_MAX;

using isa::TokenFlag;
using isa::TokenQueue;
using isa::Unit;

// Each dependency queue's tokens: when each was pushed, in order; those before `popped`
// are gone.
struct Tokens {
    std::array<std::vector<int64_t>, isa::kTokenQueues> pushed;
    std::array<size_t, isa::kTokenQueues> popped{};

    static size_t at(TokenQueue q) { return static_cast<size_t>(q); }
    bool has(TokenQueue q) const { return popped[at(q)] < pushed[at(q)].size(); }
    int64_t front(TokenQueue q) const { return pushed[at(q)][popped[at(q)]]; }
    int64_t pop(TokenQueue q) {
        if (!has(q)) return 0;  // not produced earlier: not our streams
        return pushed[at(q)][popped[at(q)]++];
    }
    void push(TokenQueue q, int64_t t) { pushed[at(q)].push_back(t); }
    // Moves the latest token of q later, if it is still there.
    void delay_latest(TokenQueue q, int64_t by) {
        if (has(q)) pushed[at(q)].back() += by;
    }
};

// The queue a flag of unit `u` addresses. The scheduler's streams use only the flags the
// ISA allows; the others address none.
std::optional<TokenQueue> queue_of(int u, TokenFlag f) {
    return isa::token_queue(static_cast<Unit>(u), f);
}

// The DRAM data path: one beat per cycle, shared by every read and write. Instructions
// are modelled in the order they start, but one that starts later may still move data
// in cycles an earlier one left free (a DRAIN's writes between a LOAD's bursts): each
// transfer takes the first free cycles from its ready time on, filling gaps.
class BusCalendar {
public:
    void reserve(size_t n) { busy_.reserve(n); }

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
        // It is nearly always one of the last few, so search from the end.
        size_t k = busy_.size() - 1;
        while (k > 0 && busy_[k - 1].end > t) --k;
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

    // Cycles booked in [from, to).
    int64_t booked_in(int64_t from, int64_t to) const {
        int64_t n = 0;
        for (size_t k = busy_.size(); k > 0 && busy_[k - 1].end > from; --k) {
            const Interval& b = busy_[k - 1];
            n += std::max<int64_t>(0, std::min(to, b.end) - std::max(from, b.begin));
        }
        return n;
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

// A run of bursts of one direction: `n` bursts of `burst_beats` beats on average, the
// first requested at `first_request`, the later ones no faster than one per `spacing`
// cycles.
struct Bursts {
    int64_t first_request = 0, n = 0;
    double burst_beats = 0;
    int64_t spacing = 1;  // at most burst_beats

    int64_t beats() const { return static_cast<int64_t>(double(n) * burst_beats + 0.5); }
    int64_t request_of(int64_t j) const { return first_request + j * spacing; }
    // The first k bursts, and the rest.
    Bursts head(int64_t k) const {
        Bursts b = *this;
        b.n = k;
        return b;
    }
    Bursts rest(int64_t k) const {
        Bursts b = *this;
        b.first_request = request_of(k);
        b.n = n - k;
        return b;
    }
};

// One port of the DRAM (dram_model.cpp), reads or writes: at most max_outstanding
// bursts in flight, their data moved in request order. A burst's data starts `offset`
// cycles after its request (reads: the DRAM latency; writes: W follows AW) and its slot
// frees `hold` cycles after its last beat (reads: at once; writes: at the B response, a
// latency later). Slots free in request order, so a ring of their free times suffices.
// Bursts must be booked in request order.
class BurstPort {
public:
    BurstPort(size_t slots, int64_t offset, int64_t hold)
        : free_(slots, 0), offset_(offset), hold_(hold) {}

    // One burst requested at `t`: returns the cycle after its last beat.
    int64_t single(BusCalendar& bus, int64_t t, int64_t beats) {
        const int64_t request = std::max(t, slot(0));
        const int64_t end = bus.take(std::max(request + offset_, tail_), beats);
        push(1, double(end + hold_), 0);
        tail_ = end;
        return end;
    }

    // A run of bursts: returns the cycle after its last beat. Its beats take the first
    // free cycles of the bus after the data requested before them, and it ends no
    // earlier than its slots allow (stream_end).
    int64_t stream(BusCalendar& bus, const Bursts& r) { return stream(bus, r, alone_end(r)); }
    // The same, given alone_end(r).
    int64_t stream(BusCalendar& bus, const Bursts& r, int64_t alone) {
        if (r.n <= 0) return tail_;
        const int64_t end = std::max(bus.take(first_beat(r), r.beats()), alone);
        const int64_t kept = std::min(r.n, slots());  // its last bursts, back to back
        push(kept, double(end + hold_) - double(kept - 1) * r.burst_beats, r.burst_beats);
        tail_ = end;
        return end;
    }

    // The first beat of a run of bursts booked next.
    int64_t first_beat(const Bursts& r) const {
        return std::max(std::max(r.first_request, slot(0)) + offset_, tail_);
    }

    // When a burst requested at `t` goes out: once a slot is free.
    int64_t accepts(int64_t t) const { return std::max(t, slot(0)); }

    // How many of the run's bursts are requested before `t`, if nothing else uses the
    // port meanwhile: burst j waits for its turn and for the slot of burst j - slots,
    // which frees when its data is in, `per_burst` cycles after the burst before it.
    int64_t requested_before(const Bursts& r, int64_t t, double per_burst) const {
        const int64_t first_group = std::min(r.n, slots());
        for (int64_t j = 0; j < first_group; ++j) {
            if (std::max(r.request_of(j), slot(static_cast<size_t>(j))) >= t) return j;
        }
        const double first_end = double(first_beat(r)) + r.burst_beats;
        const double later = std::ceil((double(t - hold_) - first_end) / per_burst);
        return std::min(r.n, first_group + std::max<int64_t>(0, static_cast<int64_t>(later)));
    }

    // The cycle after the run's last beat, if nothing else used the port meanwhile.
    int64_t alone_end(const Bursts& r) const { return stream_end(r, r.n); }

private:
    // The cycle after the last beat of the first `n` bursts of `r` (a max-plus closed
    // form, exact for bursts of equal length): burst j < slots waits for its request
    // and for the j-th oldest slot; from there the data path adds burst_beats per
    // burst, and each burst `slots` later waits a round trip (offset + beats + hold)
    // for the slot. The longest path takes no round trips (the slots keep up) or as
    // many as fit; the data requested earlier bounds it too.
    int64_t stream_end(const Bursts& r, int64_t n) const {
        const int64_t slots = this->slots(), rounds = (n - 1) / slots, last = (n - 1) % slots;
        const int64_t first_group = std::min(n, slots);
        const double b = r.burst_beats;
        // What a round trip costs beyond the beats of the bursts in flight meanwhile.
        const double wait = std::max(0.0, double(offset_ + hold_) + b - double(slots) * b);
        // From burst 0's request; from a later burst's request the path is no longer
        // (requests come no slower than beats), so only a slot that frees late matters.
        double end = std::max(double(tail_) + double(n) * b,
                              double(r.first_request + offset_) + double(n) * b +
                                  double(rounds) * wait);
        // Slots free in request order: the late ones are the newest.
        for (int64_t j = first_group - 1; j >= 0; --j) {
            const int64_t free = slot(static_cast<size_t>(j));
            if (free <= r.request_of(j)) break;
            const int64_t trips = j <= last ? rounds : rounds - 1;
            end = std::max(end, double(free + offset_) + double(n - j) * b + double(trips) * wait);
        }
        return static_cast<int64_t>(end + 0.5);
    }

    int64_t slots() const { return static_cast<int64_t>(free_.size()); }
    int64_t slot(size_t j) const { return free_[j]; }  // the j-th oldest
    // The slots of `k` more bursts (k at most slots()), the first freeing at `first`
    // and each later one `step` cycles after the one before.
    void push(int64_t k, double first, double step) {
        int64_t* f = free_.data();
        const size_t n = free_.size(), pushed = static_cast<size_t>(k);
        if (pushed < n) std::memmove(f, f + pushed, (n - pushed) * sizeof(int64_t));
        double t = first + 0.5;  // rounded to the nearest cycle
        for (size_t j = n - pushed; j < n; ++j, t += step) f[j] = static_cast<int64_t>(t);
    }

    std::vector<int64_t> free_;  // when each slot frees, oldest first
    int64_t offset_, hold_;
    int64_t tail_ = 0;           // the cycle after the last data booked
};

// The latest LOAD and the latest DRAIN stay open to change while instructions that
// start before they complete are modelled (in time order, next_to_model): a transfer of
// the other direction that wants the data path meanwhile alternates with theirs
// (dram_model.cpp), and GEMMs that run meanwhile take the ACC read port before the
// drain (accel_compute_unit.sv reads an output entry's running sum at its first
// reduction step; accel_drain_unit.sv reads only in cycles compute does not). Their
// completion then moves later; whatever depends on it starts later still, so is
// modelled after.
struct Running {
    bool active = false;
    size_t insn = 0;
    int64_t first = 0, booked_end = 0, beats = 0;  // its data beats as booked on the bus
    int64_t data_end = 0;   // the cycle after its last data beat, as moved
    int64_t waited = 0;     // cycles its beats waited for the other direction's
    int64_t end = 0;        // its completion
    int64_t moved = 0;      // cycles its completion moved since it was last reported
    bool token = false;     // it pushed a token (the latest of its queue)

    void open(size_t i, int64_t data_first, int64_t data_last, int64_t n, int64_t done) {
        *this = Running{true, i, data_first, data_last, n, data_last, 0, done, 0, false};
    }

    // A transfer of the other direction wants the data path from `from` for `n` beats:
    // while both do, they alternate, so each of this one's beats booked after that
    // waits for at most one of its beats, and it for one of these. Returns how many
    // waited.
    int64_t compete(int64_t from, int64_t n) {
        const int64_t both = std::max(from, first);  // both want it from then
        n -= both - from;                             // its beats left by then
        if (!active || both >= booked_end || n <= 0 || beats <= 0) return 0;
        const double after = double(booked_end - both) / double(booked_end - first);
        const int64_t waits = std::min({static_cast<int64_t>(double(beats) * after), n,
                                        beats - waited});
        waited += waits;
        move_data_to(data_end + waits);
        return waits;
    }

    void move_data_to(int64_t t) {
        if (t <= data_end) return;
        end += t - data_end;
        moved += t - data_end;
        data_end = t;
    }
};

// The latest DRAIN's ACC reads: one per beat from the cycle after its start, in cycles
// the compute unit does not read ACC.
struct DrainReads {
    int64_t read_at = 0, left = 0;  // the reads not done by read_at
    int64_t lag = 0;                // from the last read to the cycle after the last W beat

    // A GEMM issuing steps in [from, to) reads ACC in `share` of them; returns when the
    // drain's data can end at the earliest.
    int64_t acc_busy(int64_t from, int64_t to, double share) {
        const int64_t at = std::max(from, read_at);
        if (left <= 0 || at >= read_at + left) return read_at + left + lag;
        left -= at - read_at;
        read_at = at;
        const double free = double(to - at) * (1.0 - share);
        if (double(left) <= free) {
            return at + static_cast<int64_t>(double(left) / (1.0 - share) + 0.5) + lag;
        }
        left -= static_cast<int64_t>(free);
        read_at = to;
        return read_at + left + lag;
    }
};

struct Machine {
    Machine(const HwParams& params, size_t insns)
        : hw(params),
          reads(params.config.dram_max_outstanding,
                params.config.dram_latency_cycles + kReadSlice, kReadGap),
          writes(params.config.dram_max_outstanding, 1,
                 params.config.dram_latency_cycles + kWriteGap) {
        // Room for what a program of `insns` instructions books, allocated once.
        for (std::vector<int64_t>& q : tokens.pushed) q.reserve(insns);
        bus.reserve(2 * insns);
    }
    const HwParams& hw;
    Tokens tokens;
    std::array<int64_t, 3> unit_free{};  // load, compute, drain
    BusCalendar bus;
    BurstPort reads, writes;
    bool fetch_read_last = false;  // the read port's arbiter last granted fetch
    std::array<Running, 3> running;  // the latest LOAD and DRAIN (by unit)
    DrainReads drain_reads;
    CostPrediction out;

    int64_t beats(int64_t bytes) const { return ceil_div(bytes, hw.beat_bytes); }
    int64_t latency() const { return hw.config.dram_latency_cycles; }
};

// Bursts of a run of `beats` contiguous beats: at most 16 beats each (4 KiB page
// crossings are rare in our layouts and ignored).
int64_t bursts_of(int64_t beats) { return ceil_div(beats, kMaxBurstBeats); }

// Fetch (accel_fetch_unit.sv): each instruction is one read burst into one of kFetchSlots
// slots, requested once a slot is free; once its beats are in, it enters the checker's
// pipeline (in program order, one a cycle), its verdict is kept kCheckLatency + 1 cycles
// later, and it is dispatched from then on, one a cycle, when its unit's queue has room.
// A slot frees at dispatch, and the instruction kFetchSlots on is requested the next
// cycle.
//
// Fetch runs ahead of the units: while the queues have room it reads instructions that
// the units reach much later, and those reads share the read port with the LOADs
// running meanwhile. So fetch is modelled ahead, as far as it can be known: an
// instruction's dispatch needs room in its unit's queue, i.e. the completion of the
// instruction kUnitQueueDepth earlier in the same unit, and the frontier stops at the
// first instruction whose room depends on one not yet executed. A request is booked on
// the read port when the model reaches its time (advance), so that fetch's and a
// LOAD's bursts are booked in the order the DRAM receives them.
class Fetch {
public:
    Fetch(Machine& machine, const std::vector<isa::Insn>& prog)
        : m_(machine), arrival_(prog.size(), -1), dispatch_at_(prog.size(), -1),
          completion_(prog.size(), -1), unit_of_(prog.size(), -1),
          tokens_(prog.size()), queue_ahead_(prog.size(), kNone) {
        for (std::vector<size_t>& q : queued_) q.reserve(prog.size());
        for (size_t i = 0; i < prog.size(); ++i) {
            const isa::Insn& insn = prog[i];
            const std::optional<Unit> unit = isa::unit_of(insn);
            unit_of_[i] = unit ? static_cast<int>(*unit) : -1;
            if (unit_of_[i] < 0) break;  // FINISH: the units run nothing after it
            tokens_[i] = isa::tokens_of(insn);
            std::vector<size_t>& q = queued_[static_cast<size_t>(unit_of_[i])];
            if (q.size() >= kUnitQueueDepth) queue_ahead_[i] = q[q.size() - kUnitQueueDepth];
            q.push_back(i);
        }
        for (size_t i = 0; i < kFetchSlots; ++i) request(i, kStartCycles + int64_t(i));
    }

    int unit_of(size_t i) const { return unit_of_[i]; }
    const isa::Tokens& tokens(size_t i) const { return tokens_[i]; }
    // Unit u's instructions, in order.
    const std::vector<size_t>& queue(int u) const { return queued_[static_cast<size_t>(u)]; }
    size_t frontier() const { return frontier_; }
    int64_t dispatch_at(size_t i) const { return dispatch_at_[i]; }
    void completed(size_t i, int64_t end) { completion_[i] = end; }
    // Beats of the requests booked so far.
    int64_t booked_beats() const { return booked_beats_; }
    // The time of the next request not yet booked, when it is known.
    int64_t next_request() const {
        return pending_count_ == 0 ? kNever : pending_[pending_head_].time;
    }

    // Books the requests and dispatches instructions up to `through` whatever their
    // times, then every request at or before `book_until` and every dispatch at or
    // before `until` that is known by now.
    void advance(size_t through, int64_t until, int64_t book_until) {
        while (true) {
            while (pending_count_ > 0 && (pending_[pending_head_].insn <= through ||
                                          pending_[pending_head_].time <= book_until)) {
                book_request();
            }
            if (frontier_ >= arrival_.size() || arrival_[frontier_] < 0) return;
            const size_t i = frontier_;
            int64_t room = 0;
            if (queue_ahead_[i] != kNone) {
                const int64_t done = completion_[queue_ahead_[i]];
                if (done < 0) return;  // its queue's room is not known yet
                room = done + 1;
            }
            const int64_t checked = std::max(arrival_[i], last_check_ + 1);  // enters the checker
            const int64_t at = std::max({checked + kCheckLatency + 1, last_dispatch_ + 1, room});
            if (i > through && at > until) return;
            last_check_ = checked;
            last_dispatch_ = at;
            dispatch_at_[i] = at;
            ++frontier_;
            if (unit_of_[i] < 0) return;  // FINISH: nothing after it is fetched
            request(i + kFetchSlots, at + 1);  // its slot frees: the next request goes out
        }
    }

private:
    static constexpr size_t kNone = SIZE_MAX;
    struct Request {
        size_t insn;
        int64_t time;  // the cycle its AR goes out
    };

    void request(size_t i, int64_t t) {
        if (i >= arrival_.size()) return;  // fetch stops at the program's end
        last_request_ = std::max(last_request_ + 1, t + 1);
        pending_[(pending_head_ + pending_count_++) % kFetchSlots] = {i, last_request_};
    }

    void book_request() {
        const Request r = pending_[pending_head_];
        pending_head_ = (pending_head_ + 1) % kFetchSlots;
        --pending_count_;
        const int64_t beats = m_.beats(isa::kInsnBytes);
        m_.out.bus_beats += beats;
        booked_beats_ += beats;
        last_arrival_ = std::max(m_.reads.single(m_.bus, r.time, beats), last_arrival_);
        m_.fetch_read_last = true;
        arrival_[r.insn] = last_arrival_;
    }

    Machine& m_;
    std::vector<int64_t> arrival_;      // by instruction: the cycle after its last beat
    std::vector<int64_t> dispatch_at_;  // by instruction, once the frontier has passed it
    std::vector<int64_t> completion_;   // by instruction, once executed; else -1
    std::vector<int> unit_of_;          // 0 load, 1 compute, 2 drain, -1 FINISH
    std::vector<isa::Tokens> tokens_;   // by instruction: the tokens it pops and pushes
    // By instruction: the one kUnitQueueDepth places earlier in its unit's queue, whose
    // completion makes room for it; kNone for the first kUnitQueueDepth of a unit.
    std::vector<size_t> queue_ahead_;
    std::array<std::vector<size_t>, 3> queued_;  // each unit's instructions, in order
    // Requested, not yet booked, in request order: at most one per fetch slot.
    std::array<Request, kFetchSlots> pending_{};
    size_t pending_head_ = 0, pending_count_ = 0;
    size_t frontier_ = 0;               // instructions [0, frontier_) are dispatched
    int64_t last_request_ = 0, last_arrival_ = 0, last_check_ = -1, last_dispatch_ = 0;
    int64_t booked_beats_ = 0;
};

// A LOAD's reads and SRAM writes. The burst generator requests its first burst the
// cycle after the start, then one per cycle as slots allow.
struct LoadShape {
    Bursts reads;
    int64_t all_entries = 0;   // SRAM entries written, padding included
    int64_t trailing_pad = 0;  // padding entries after the last data entry
    // Padding entries between data entries that hold up the data: the R beat that
    // completes an entry waits while the walker writes padding, and so does every read
    // behind it; the beats before it in the entry are taken meanwhile.
    int64_t inner_pad = 0;
};

LoadShape load_shape(const Machine& m, const isa::Load& l, int64_t start) {
    const uint32_t entry = isa::entry_bytes(l.buffer, m.hw);
    LoadShape s;
    // Runs of contiguous DRAM bytes: a row, or each entry of a row when they lie apart.
    const int64_t run_entries = isa::load_row_contiguous(l, m.hw) ? l.x_size : 1;
    const int64_t runs = int64_t{l.z_size} * l.y_size * (l.x_size / run_entries);
    const int64_t run_beats = m.beats(run_entries * entry);
    s.reads.first_request = start + 1;
    s.reads.n = runs * bursts_of(run_beats);
    s.reads.burst_beats = double(run_beats) / double(bursts_of(run_beats));
    const auto width = static_cast<int64_t>(isa::load_padded_width(l));
    s.all_entries = int64_t{l.z_size} * static_cast<int64_t>(isa::load_padded_rows(l)) * width;
    s.trailing_pad = l.pad_right + int64_t{l.pad_bottom} * width;
    const int64_t hidden = m.beats(entry) - 1;  // padding taken meanwhile, per run
    const int64_t row_gap = l.pad_right + l.pad_left;
    const int64_t plane_gap = row_gap + int64_t{l.pad_bottom + l.pad_top} * width;
    s.inner_pad = int64_t{l.z_size} * (l.y_size - 1) * std::max<int64_t>(0, row_gap - hidden) +
                  int64_t{l.z_size - 1} * std::max<int64_t>(0, plane_gap - hidden);
    return s;
}

// Books a LOAD's bursts and, between them, fetch's requests in the order the DRAM
// receives them: the bursts requested before fetch's next request, that request (and
// those its dispatches lead to), and so on. `alone` is the LOAD's end on an idle port.
// Returns the cycle after its last beat.
int64_t book_load_reads(Machine& m, Fetch& fetch, size_t i, const Bursts& reads, int64_t alone) {
    const int64_t first_beat = m.reads.first_beat(reads);
    const double per_burst = std::max(1.0, double(alone - first_beat) / double(reads.n));
    int64_t horizon = alone;
    fetch.advance(i, horizon, -1);  // the requests fetch makes meanwhile
    Bursts left = reads;
    int64_t data_end = first_beat;
    while (left.n > 0) {
        int64_t t = fetch.next_request();
        if (t == kNever && left.n < reads.n) {  // fetch's requests held it up: look further
            horizon = std::max(horizon, m.reads.alone_end(left));
            fetch.advance(i, horizon, -1);
            t = fetch.next_request();
        }
        int64_t k = left.n;
        if (t != kNever) {
            // The arbiter alternates when both wait: the LOAD goes first after fetch.
            const int64_t fetch_goes = m.reads.accepts(t) + (m.fetch_read_last ? 1 : 0);
            k = m.reads.requested_before(left, fetch_goes, per_burst);
        }
        if (k > 0) {
            data_end = k == reads.n ? m.reads.stream(m.bus, left, alone)
                                    : m.reads.stream(m.bus, left.head(k));
            m.fetch_read_last = false;
        }
        left = left.rest(k);
        if (left.n > 0) fetch.advance(i, horizon, t);
    }
    return data_end;
}

// The walker writes one SRAM entry per cycle, padding included, a data entry once its
// beats are in; the LOAD completes the cycle after its last write.
int64_t load_end(Machine& m, Fetch& fetch, size_t i, const LoadShape& s, int64_t start) {
    const int64_t beats = s.reads.beats();
    m.out.bus_beats += beats;
    const int64_t first_beat = m.reads.first_beat(s.reads);
    const int64_t waits = m.running[2].compete(first_beat, beats);
    const int64_t alone = m.reads.alone_end(s.reads);
    const int64_t fetched_before = fetch.booked_beats();
    int64_t data_end = book_load_reads(m, fetch, i, s.reads, alone);
    const int64_t fetched = fetch.booked_beats() - fetched_before;
    // A DRAIN's writes booked on the bus before did not hold these reads up beyond a
    // cycle per write beat: the two alternated.
    if (waits > 0) {
        data_end = std::max(alone, std::min(data_end, first_beat + beats + fetched + waits));
    }
    // The walker paces the data when padding or fetch's beats come between them.
    const int64_t paced = first_beat + beats + s.inner_pad + fetched;
    const int64_t end = std::max({data_end, paced, start + 1 + s.all_entries - s.trailing_pad}) +
                        s.trailing_pad;
    m.running[0].open(i, first_beat, data_end, beats, end);
    return end;
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

// The drain reads one beat per cycle (per two in add mode, per beat_bytes in double-scale
// mode: isa::drain_reads_per_beat) into the burst writer, which sends a burst (AW, then
// W) only once it is closed: the first AW follows the first burst's last address, a
// beat's address comes kDrainAddressLead after its read, and a W beat goes once its
// data is out of the pipeline too, `lead` after its read. The DRAIN completes after the
// last B response, a DRAM latency after its last beat.
int64_t drain_end(Machine& m, const isa::Drain& d, size_t i, int64_t start) {
    const int64_t n = m.beats(static_cast<int64_t>(isa::drain_bytes(d, m.hw)));
    const int64_t run = drain_run_beats(m, d);
    const int64_t reads = isa::drain_reads_per_beat(d, m.hw);  // a cycle each
    const int64_t lead = kDrainLead + (d.add ? kAddPipeline : 0) +
                         (d.double_scale ? double_scale_pipeline(m.hw) : 0);
    Bursts w;
    w.n = ceil_div(n, run) * bursts_of(run);
    w.burst_beats = double(n) / double(w.n);
    w.spacing = std::max<int64_t>(1, reads * n / w.n);
    // The first W beat, a cycle after the AW, waits for the first beat's data as well.
    w.first_request = start + std::max(kDrainAddressLead + reads * std::min(run, kMaxBurstBeats),
                                       lead + reads - 2);
    m.out.bus_beats += n;
    const int64_t first = m.writes.first_beat(w);
    const int64_t alone = m.writes.alone_end(w);
    // The reads booked on the bus before alternate with these writes: those of the
    // latest LOAD hold them up by a cycle per beat of theirs the writes met, others by
    // a cycle for each of their beats booked in the writes' own span (a read that comes
    // once the writes are nearly done meets only the writes left: as many as its beats
    // in that span).
    const int64_t waits = m.running[0].compete(first, n);
    const int64_t bus_reads = std::min(n, m.bus.booked_in(first, first + n));
    const int64_t booked = m.writes.stream(m.bus, w, alone);
    const int64_t data_end =
        std::max({alone, waits > 0 ? std::min(booked, first + n + waits) : alone,
                  first + n + bus_reads, start + lead + reads * n});
    const int64_t end = data_end + m.latency() + kDrainTail;
    m.running[2].open(i, first, data_end, n, end);
    m.drain_reads = DrainReads{start + 1, reads * n, data_end - (start + 1 + reads * n)};
    return end;
}

// When instruction i, of unit u, can start: once fetch has dispatched it, its unit is
// free and the tokens it pops have been pushed; -1 while that is not known. With
// `force`, a token not pushed by then does not hold it (not our streams).
int64_t ready_at(const Machine& m, const Fetch& fetch, size_t i, int u, bool force) {
    if (fetch.dispatch_at(i) < 0) return -1;
    const isa::Tokens& t = fetch.tokens(i);
    const int64_t queued = fetch.dispatch_at(i) + kQueueLatency;  // at its queue's head
    int64_t start = std::max(queued, m.unit_free[static_cast<size_t>(u)]);
    const auto wait_for = [&](bool pops, TokenFlag f) {
        const std::optional<TokenQueue> q = queue_of(u, f);
        if (!pops || !q) return true;
        if (m.tokens.has(*q)) start = std::max(start, m.tokens.front(*q));
        return force || m.tokens.has(*q);
    };
    if (!wait_for(t.pop_prev, TokenFlag::PopPrev)) return -1;
    if (!wait_for(t.pop_next, TokenFlag::PopNext)) return -1;
    return start;
}

// Executes instruction i, of unit `u`, from `start` (ready_at); returns its completion.
int64_t execute(Machine& m, Fetch& fetch, size_t i, const isa::Insn& insn, int u,
                int64_t start) {
    const isa::Tokens& t = fetch.tokens(i);
    const auto take = [&](bool flag, TokenFlag f) {
        const std::optional<TokenQueue> q = queue_of(u, f);
        if (flag && q) m.tokens.pop(*q);
    };
    take(t.pop_prev, TokenFlag::PopPrev);
    take(t.pop_next, TokenFlag::PopNext);
    int64_t end = start;
    if (const auto* l = std::get_if<isa::Load>(&insn)) {
        end = load_end(m, fetch, i, load_shape(m, *l, start), start);
        m.out.load_busy += end - start;
        m.running[0].token = t.push_next;
    } else if (const auto* g = std::get_if<isa::Gemm>(&insn)) {
        const auto steps = static_cast<int64_t>(isa::gemm_steps(*g));
        end = start + steps + kGemmPipeline;
        if (!g->init && m.running[2].active) {
            const double share = 1.0 / double(g->n_r * g->n_s * g->n_cb);
            m.running[2].move_data_to(m.drain_reads.acc_busy(start, start + steps, share));
        }
        m.out.gemm_steps += steps;
        m.out.gemm_busy += end - start;
    } else if (const auto* d = std::get_if<isa::Drain>(&insn)) {
        end = drain_end(m, *d, i, start);
        m.out.drain_busy += end - start;
        m.running[2].token = t.push_prev;
    }
    const auto give = [&](bool flag, TokenFlag f) {
        const std::optional<TokenQueue> q = queue_of(u, f);
        if (flag && q) m.tokens.push(*q, end + 1);
    };
    give(t.push_prev, TokenFlag::PushPrev);
    give(t.push_next, TokenFlag::PushNext);
    m.unit_free[static_cast<size_t>(u)] = end + kUnitTurnaround;
    return end;
}

// Reports a running LOAD's or DRAIN's later completion to what depends on it.
void report_moved(Machine& m, int u, Fetch& fetch, std::vector<InsnTime>& times,
                  int64_t& last) {
    Running& r = m.running[static_cast<size_t>(u)];
    m.unit_free[static_cast<size_t>(u)] += r.moved;
    (u == 0 ? m.out.load_busy : m.out.drain_busy) += r.moved;
    // The token a running LOAD pushes towards compute, or a DRAIN back to it.
    const TokenFlag pushed = u == 0 ? TokenFlag::PushNext : TokenFlag::PushPrev;
    if (r.token) m.tokens.delay_latest(*queue_of(u, pushed), r.moved);
    fetch.completed(r.insn, r.end);
    if (!times.empty()) times[r.insn].end = r.end;
    last = std::max(last, r.end);
    r.moved = 0;
}

// Each unit's next instruction to model, and its start once known (-1 before). A
// start, once known, changes only when a running LOAD or DRAIN moves.
struct Cursors {
    explicit Cursors(const Fetch& fetch)
        : queues{&fetch.queue(0), &fetch.queue(1), &fetch.queue(2)} {
        for (size_t u = 0; u < 3; ++u) insn[u] = queues[u]->empty() ? kNoInsn : (*queues[u])[0];
    }
    std::array<const std::vector<size_t>*, 3> queues;
    std::array<size_t, 3> next{};
    std::array<size_t, 3> insn{};  // the instruction at next, or kNoInsn
    std::array<int64_t, 3> start{-1, -1, -1};

    void modelled(int unit) {
        const size_t u = static_cast<size_t>(unit);
        ++next[u];
        insn[u] = next[u] < queues[u]->size() ? (*queues[u])[next[u]] : kNoInsn;
        start[u] = -1;
    }
    void forget() { start.fill(-1); }
};

// The next instruction to model: of the units' next instructions whose start is known,
// the one that starts first (in program order on a tie). Modelling in time order lets
// each transfer take the bus in the order the hardware's do, and keeps a completion
// open to change (Running) until nothing that starts before it is left. Returns
// the instruction and its start; when no start is known yet, the first unmodelled
// instruction in program order, whose producers all came before it.
std::pair<size_t, int64_t> next_to_model(Machine& m, Fetch& fetch, Cursors& c) {
    const std::array<size_t, 3>& insn = c.insn;
    const size_t first = std::min({insn[0], insn[1], insn[2]});
    if (first == kNoInsn) return {kNoInsn, 0};
    while (true) {
        size_t best = kNoInsn;
        int64_t best_start = 0;
        for (size_t u = 0; u < 3; ++u) {
            if (insn[u] == kNoInsn) continue;
            int64_t& start = c.start[u];
            if (start < 0) start = ready_at(m, fetch, insn[u], int(u), false);
            if (start >= 0 && (best == kNoInsn || start < best_start ||
                               (start == best_start && insn[u] < best))) {
                best = insn[u];
                best_start = start;
            }
        }
        if (best == kNoInsn) {
            fetch.advance(first, -1, -1);
            const int u = fetch.unit_of(first);
            if (ready_at(m, fetch, first, u, false) >= 0) continue;
            return {first, ready_at(m, fetch, first, u, true)};
        }
        // Fetch's requests and dispatches up to then come first; one may start earlier.
        const size_t frontier = fetch.frontier();
        fetch.advance(0, best_start, best_start);
        if (fetch.frontier() == frontier) return {best, best_start};
    }
}

}  // namespace

CostPrediction predict_cycles(const std::vector<isa::Insn>& program, const HwParams& hw,
                              std::vector<InsnTime>* timeline) {
    Machine m(hw, program.size());
    Fetch fetch(m, program);
    std::vector<InsnTime> times(timeline != nullptr ? program.size() : 0);
    Cursors cursors(fetch);
    int64_t last = kStartCycles;
    while (true) {
        const auto [i, start] = next_to_model(m, fetch, cursors);
        if (i == kNoInsn) break;
        const int u = fetch.unit_of(i);
        const int64_t end = execute(m, fetch, i, program[i], u, start);
        cursors.modelled(u);
        fetch.completed(i, end);
        if (!times.empty()) times[i] = {u, start, end};
        last = std::max(last, end);
        for (int v : {0, 2}) {
            if (m.running[static_cast<size_t>(v)].moved == 0) continue;
            report_moved(m, v, fetch, times, last);
            cursors.forget();
        }
    }
    if (timeline != nullptr) {
        for (size_t i = 0; i < program.size() && fetch.unit_of(i) >= 0; ++i) {
            timeline->push_back(times[i]);
        }
    }
    m.out.cycles = last + kDoneCycles;
    return m.out;
}

}  // namespace accel
