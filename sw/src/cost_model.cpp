// An instruction-level timing model of the RTL: each unit executes its queue in order;
// an instruction starts when fetch has dispatched it, its unit is free and its tokens
// have been pushed; LOAD and DRAIN data move over one shared bus.
#include "accel/cost_model.hpp"

#include <algorithm>
#include <array>
#include <deque>

namespace accel {
namespace {

// Fixed costs of the RTL, in cycles (measured against the Verilator model).
constexpr int64_t kStartCycles = 4;      // CSR start to the first instruction request
constexpr int64_t kDoneCycles = 3;       // last completion to done
constexpr int64_t kGemmPipeline = 5;     // first issue to last ACC write
constexpr int64_t kDrainPipeline = 5;    // ACC read to the first W beat
constexpr int64_t kUnitTurnaround = 1;   // completion to the next start

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

struct Machine {
    explicit Machine(const HwParams& params) : hw(params) {}
    const HwParams& hw;
    Tokens tokens;
    std::array<int64_t, 3> unit_free{};        // load, compute, drain
    std::array<std::deque<int64_t>, 3> slots;  // completion times of queued instructions
    int64_t bus_free = 0;
    int64_t fetch_time = 0;
    CostPrediction out;

    int64_t beats(int64_t bytes) const { return (bytes + hw.beat_bytes - 1) / hw.beat_bytes; }
    int64_t latency() const { return hw.config.dram_latency_cycles; }

    // Moves `n` beats over the bus no earlier than `t`; returns when the last one moved.
    int64_t transfer(int64_t t, int64_t n) {
        const int64_t begin = std::max(t, bus_free);
        bus_free = begin + n;
        out.bus_beats += n;
        return bus_free;
    }
};

int64_t load_duration(Machine& m, const isa::Load& l, int64_t start) {
    const uint32_t entry = l.buffer == isa::Buffer::Inp ? m.hw.inp_entry_bytes
                         : l.buffer == isa::Buffer::Wgt ? m.hw.wgt_entry_bytes
                                                        : m.hw.prm_entry_bytes;
    const int64_t data_entries = int64_t{l.z_size} * l.y_size * l.x_size;
    const int64_t all_entries = int64_t{l.z_size} * (l.pad_top + l.y_size + l.pad_bottom) *
                                (l.pad_left + l.x_size + l.pad_right);
    const int64_t data_end = m.transfer(start + m.latency() + 2, m.beats(data_entries * entry));
    return std::max(data_end, start + all_entries) + 1;
}

int64_t drain_end(Machine& m, const isa::Drain& d, int64_t start) {
    const int64_t entries = int64_t{d.n_kb} * d.n_y * d.n_x;
    const int64_t n = m.beats(entries * m.hw.batch * m.hw.block_out);
    const int64_t data_end = m.transfer(start + kDrainPipeline, n);
    return data_end + m.latency() + 2;  // the last B response
}

// Executes one instruction of unit `u`; returns its completion time.
int64_t execute(Machine& m, const isa::Insn& insn, int u, int64_t dispatch) {
    const isa::Tokens t = isa::tokens_of(insn);
    int64_t start = std::max(dispatch, m.unit_free[static_cast<size_t>(u)]);
    const Queue prev_pop = u == 1 ? kLd2Cp : kCp2Dr, next_pop = u == 0 ? kCp2Ld : kDr2Cp;
    if (t.pop_prev) start = std::max(start, m.tokens.pop(prev_pop));
    if (t.pop_next) start = std::max(start, m.tokens.pop(next_pop));
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

}  // namespace

CostPrediction predict_cycles(const std::vector<isa::Insn>& program, const HwParams& hw) {
    Machine m(hw);
    const int64_t insn_beats = m.beats(isa::kInsnBytes);
    int64_t last = kStartCycles;
    m.fetch_time = kStartCycles + m.latency();
    for (const isa::Insn& insn : program) {
        // Fetch streams instructions in order; it waits while the target queue is full.
        m.fetch_time += insn_beats;
        m.out.bus_beats += insn_beats;
        const int u = std::holds_alternative<isa::Load>(insn)   ? 0
                    : std::holds_alternative<isa::Gemm>(insn)   ? 1
                    : std::holds_alternative<isa::Drain>(insn)  ? 2
                                                                : -1;
        if (u < 0) break;  // FINISH
        auto& slots = m.slots[static_cast<size_t>(u)];
        if (slots.size() == kUnitQueueDepth) {
            m.fetch_time = std::max(m.fetch_time, slots.front() + 1);
            slots.pop_front();
        }
        const int64_t end = execute(m, insn, u, m.fetch_time + 1);
        slots.push_back(end);
        last = std::max(last, end);
    }
    m.out.cycles = last + kDoneCycles;
    return m.out;
}

}  // namespace accel
