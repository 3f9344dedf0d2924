// The functional simulator (docs/isa.md). The machine is a Kahn network: fetch, three
// unit queues and four token counters. Because each unit's result depends only on the
// order of its own inputs, executing every ready instruction whole, in any order of
// the units, reproduces exactly what the concurrent hardware computes for race-free
// programs, and stops at the same point when the program deadlocks.
#include "devices/fsim.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <optional>
#include <random>
#include <string>

#include <fmt/format.h>

#include "base/error.hpp"
#include "devices/run_budget.hpp"
#include "hw/dram_bus.hpp"
#include "hw/csr.hpp"
#include "ops/double_rounding.hpp"
#include "ops/quant.hpp"
#include "ops/tflite_int32.hpp"

namespace accel {
namespace {

static_assert(std::endian::native == std::endian::little,
              "DRAM and SRAM entries are little-endian byte images");

using isa::ErrorCode;

using isa::TokenFlag;
using isa::Unit;
constexpr size_t kUnits = isa::kUnits;
constexpr size_t kFetch = kUnits;  // fetch's turn in a pass, after the units'

// A unit's instruction queue: kUnitQueueDepth slots, the head being the instruction the
// unit executes (it stays in its slot until it completes).
class InsnQueue {
public:
    bool empty() const { return size_ == 0; }
    bool full() const { return size_ == kUnitQueueDepth; }
    const isa::Insn& front() const { return slots_[head_]; }
    void push(const isa::Insn& insn) { slots_[(head_ + size_++) % kUnitQueueDepth] = insn; }
    void pop() {
        head_ = (head_ + 1) % kUnitQueueDepth;
        --size_;
    }

private:
    std::array<isa::Insn, kUnitQueueDepth> slots_{};
    uint32_t head_ = 0, size_ = 0;
};

}  // namespace

// ---------------------------------------------------------------------------------------
// The machine: fetch, queues and tokens of one run.

struct FunctionalSim::Machine {
    FunctionalSim& sim;
    DeviceCounters c{};
    uint64_t budget = 0, charged = 0;  // cycles (run_budget.hpp)
    std::array<InsnQueue, kUnits> queues{};
    std::array<bool, kUnits> halted{};  // after a bus error
    std::array<uint32_t, isa::kTokenQueues> tokens{};
    uint32_t insn_addr, count, fetched = 0;
    bool fetch_stopped = false, finished = false;
    std::optional<isa::Insn> pending;  // checked, waiting for room in its queue

    // Instructions are read from 64-byte aligned addresses: the low 6 bits of the start
    // address are ignored, as by the RTL's fetch unit (docs/isa.md leaves it open).
    Machine(FunctionalSim& s, uint32_t addr, uint32_t n)
        : sim(s), insn_addr(addr & ~static_cast<uint32_t>(isa::kInsnBytes - 1)), count(n) {}

    void raise(ErrorCode e) { c.errors |= isa::error_bit(e); }

    // The token counter a flag of unit `u` addresses; fetch rejects the flags that have none.
    uint32_t& counter(size_t u, TokenFlag f) {
        return tokens[static_cast<size_t>(*isa::token_queue(static_cast<Unit>(u), f))];
    }
    bool has_token(size_t u, TokenFlag f) const {
        const auto q = isa::token_queue(static_cast<Unit>(u), f);
        return q && tokens[static_cast<size_t>(*q)] > 0;
    }

    void push_token(size_t u, TokenFlag f) {
        uint32_t& n = counter(u, f);
        if (n == kTokenMax) {
            raise(ErrorCode::TokenOverflow);  // the token is dropped
        } else {
            ++n;
        }
    }

    // Reads and checks the next instruction; nullopt when fetch stopped instead.
    std::optional<isa::Insn> fetch_next() {
        if (fetched == count) {
            raise(ErrorCode::NoFinish);
            return std::nullopt;
        }
        const uint32_t addr = insn_addr + fetched * static_cast<uint32_t>(isa::kInsnBytes);
        if (!sim.in_dram(addr, isa::kInsnBytes)) {
            raise(ErrorCode::BusError);
            return std::nullopt;
        }
        const std::span<const uint8_t, isa::kInsnBytes> word(&sim.dram_[addr], isa::kInsnBytes);
        isa::Decoded d = isa::decode(word, sim.hw_);
        if (d.error != ErrorCode::Ok) {
            raise(d.error);
            return std::nullopt;
        }
        if (std::holds_alternative<isa::Finish>(d.insn)) {
            finished = true;
            return std::nullopt;
        }
        return std::move(d.insn);
    }

    // Dispatches in program order, at most `budget` instructions, until fetch stops or
    // the next queue is full.
    bool fetch(uint32_t budget) {
        bool progress = false;
        for (; budget > 0 && !fetch_stopped; --budget) {
            if (!pending) {
                pending = fetch_next();
                if (!pending) {
                    fetch_stopped = true;
                    return true;
                }
            }
            InsnQueue& q = queues[static_cast<size_t>(*isa::unit_of(*pending))];
            if (q.full()) break;
            q.push(*pending);
            pending.reset();
            ++fetched;
            progress = true;
        }
        return progress;
    }

    bool execute(const isa::Insn& insn) {
        if (const auto* l = std::get_if<isa::Load>(&insn)) return sim.exec_load(*l, c);
        if (const auto* g = std::get_if<isa::Gemm>(&insn)) {
            sim.exec_gemm(*g, c);
            return true;
        }
        return sim.exec_drain(std::get<isa::Drain>(insn), c);
    }

    // Runs unit `u` for at most `budget` instructions, until its queue is empty, it waits
    // for a token, or it halts.
    bool step_unit(size_t u, uint32_t budget) {
        bool progress = false;
        InsnQueue& q = queues[u];
        for (; budget > 0 && !halted[u] && !q.empty(); --budget) {
            const isa::Tokens t = isa::tokens_of(q.front());
            // A unit starts only when every token it pops is there, and takes them together.
            if (waits_for_token(u, t)) break;
            charge(u, q.front());
            if (t.pop_prev) --counter(u, TokenFlag::PopPrev);
            if (t.pop_next) --counter(u, TokenFlag::PopNext);
            progress = true;
            if (!execute(q.front())) {
                raise(ErrorCode::BusError);
                halted[u] = true;  // the failed instruction keeps its slot
                break;
            }
            if (t.push_prev) push_token(u, TokenFlag::PushPrev);
            if (t.push_next) push_token(u, TokenFlag::PushNext);
            q.pop();
        }
        return progress;
    }

    // Charges unit `u`'s next instruction the most cycles it can take, before it runs: a
    // GEMM of 10^22 steps must be refused, not started.
    bool waits_for_token(size_t u, const isa::Tokens& t) const {
        return (t.pop_prev && !has_token(u, TokenFlag::PopPrev)) ||
               (t.pop_next && !has_token(u, TokenFlag::PopNext));
    }

    void charge(size_t u, const isa::Insn& insn) {
        const uint64_t cost = max_cycles_of(insn, sim.hw_);
        if (cost <= budget - charged) {
            charged += cost;
            return;
        }
        const std::string most = cost == UINT64_MAX ? "more than 2^64" : std::to_string(cost);
        throw DeviceError(fmt::format(
            "fsim: cycle budget of {} exhausted: the next {} can take {} cycles, the "
            "instructions before it {}; {}; completed {} load, {} gemm, {} drain instructions",
            budget, isa::unit_name(static_cast<Unit>(u)), most, charged, unit_states(u), c.load_insns, c.gemm_insns,
            c.drain_insns));
    }

    // The units' states in the words of describe_unit_states (register_file.hpp).
    std::string unit_states(size_t running) const {
        using csr::UnitState;
        auto state = [&](Unit unit) {
            const auto u = static_cast<size_t>(unit);
            if (halted[u]) return UnitState::Halted;
            if (u == running || queues[u].empty()) {
                return u == running ? UnitState::Busy : UnitState::Idle;
            }
            return waits_for_token(u, isa::tokens_of(queues[u].front())) ? UnitState::Waiting
                                                                          : UnitState::Busy;
        };
        return fmt::format("fetch {}, load {}, compute {}, drain {}",
                           csr::unit_state_words(fetch_stopped ? UnitState::Idle : UnitState::Busy),
                           csr::unit_state_words(state(Unit::Load)),
                           csr::unit_state_words(state(Unit::Gemm)),
                           csr::unit_state_words(state(Unit::Drain)));
    }

    // One pass over fetch and the units. With a schedule, the order is random and each
    // gets a budget of 1 to 3 instructions, so passes interleave the units differently.
    bool pass(std::mt19937* schedule) {
        std::array<size_t, kUnits + 1> order = {kFetch, 0, 1, 2};
        uint32_t budget = UINT32_MAX;
        if (schedule) std::shuffle(order.begin(), order.end(), *schedule);
        bool progress = false;
        for (size_t who : order) {
            if (schedule) budget = 1 + (*schedule)() % 3;
            progress = (who == kFetch ? fetch(budget) : step_unit(who, budget)) || progress;
        }
        return progress;
    }

    void run(uint32_t schedule_seed) {
        std::mt19937 rng(schedule_seed);
        while (pass(schedule_seed ? &rng : nullptr)) {}
        const bool idle =
            std::all_of(queues.begin(), queues.end(), [](const InsnQueue& q) { return q.empty(); });
        if (c.errors == 0 && !(finished && idle)) raise(ErrorCode::Deadlock);
    }
};

// ---------------------------------------------------------------------------------------
// The device.

FunctionalSim::FunctionalSim(const HwParams& params, uint64_t dram_bytes) : hw_(params) {
    if (dram_bytes > dram_bus::kMaxDramBytes) {
        throw Error(
            fmt::format("fsim: DRAM of {} bytes: the ISA addresses below 4 GiB", dram_bytes));
    }
    dram_.assign(dram_bytes, 0);
    inp_.assign(size_t{hw_.inp_depth} * hw_.inp_entry_bytes, 0);
    wgt_.assign(size_t{hw_.wgt_depth} * hw_.wgt_entry_bytes, 0);
    acc_.assign(size_t{hw_.acc_depth} * hw_.batch * hw_.block_out, 0);
    prm_.assign(size_t{hw_.prm_depth} * 3 * hw_.block_out, 0);
    scratch_.assign(size_t{hw_.block_out} * hw_.block_in, 0);
}

void FunctionalSim::write_dram(uint64_t addr, std::span<const uint8_t> bytes) {
    if (addr > dram_.size() || bytes.size() > dram_.size() - addr) {
        throw Error(fmt::format("fsim: host write of {} bytes at {:#x}: outside the {}-byte DRAM",
                                bytes.size(), addr, dram_.size()));
    }
    std::copy(bytes.begin(), bytes.end(), dram_.begin() + static_cast<ptrdiff_t>(addr));
}

void FunctionalSim::read_dram(uint64_t addr, std::span<uint8_t> bytes) const {
    if (addr > dram_.size() || bytes.size() > dram_.size() - addr) {
        throw Error(fmt::format("fsim: host read of {} bytes at {:#x}: outside the {}-byte DRAM",
                                bytes.size(), addr, dram_.size()));
    }
    std::copy_n(dram_.begin() + static_cast<ptrdiff_t>(addr), bytes.size(), bytes.begin());
}

DeviceCounters FunctionalSim::run(uint32_t insn_addr, uint32_t count) {
    Machine m(*this, insn_addr, count);
    m.budget = run_cycle_budget(max_cycles_, program_max_cycles(*this, insn_addr, count));
    m.run(schedule_seed_);
    return m.c;
}

uint8_t* FunctionalSim::sram_bytes(isa::Buffer b) {
    switch (b) {
        case isa::Buffer::Inp: return reinterpret_cast<uint8_t*>(inp_.data());
        case isa::Buffer::Wgt: return reinterpret_cast<uint8_t*>(wgt_.data());
        case isa::Buffer::Prm: return reinterpret_cast<uint8_t*>(prm_.data());
    }
    return nullptr;
}

// ---------------------------------------------------------------------------------------
// LOAD: rows of x_size entries, framed by padding; a row is one run of DRAM bytes, or
// with a DRAM x stride other than one entry, one run per entry.

// Channel packing (docs/isa.md, LOAD): entry x of the written row holds, per image, the
// first pack_bytes bytes of stream entries x .. x+pack_taps-1 side by side, then zeros.
void FunctionalSim::pack_row(const isa::Load& l, const uint8_t* stream, uint8_t* dst) const {
    const size_t block = hw_.block_in, eb = size_t{hw_.batch} * block;
    const size_t entries = static_cast<size_t>(isa::load_row_entries(l));
    std::memset(dst, 0, entries * eb);
    for (size_t x = 0; x < entries; ++x)
        for (size_t b = 0; b < hw_.batch; ++b)
            for (size_t k = 0; k < l.pack_taps; ++k)
                std::memcpy(dst + x * eb + b * block + k * l.pack_bytes,
                            stream + (x + k) * eb + b * block, l.pack_bytes);
}

bool FunctionalSim::exec_load(const isa::Load& l, DeviceCounters& c) {
    const uint32_t eb = isa::entry_bytes(l.buffer, hw_);
    const uint32_t x_stride = isa::load_x_stride(l, hw_);
    // Runs of DRAM bytes per row and their length.
    const uint32_t runs = isa::load_row_contiguous(l, hw_) ? 1 : l.x_size;
    const uint64_t run_bytes = uint64_t{l.x_size / runs} * eb;
    auto run_addr = [&l, x_stride](uint32_t z, uint32_t y, uint32_t x) {  // modulo 2^32, as the hardware's adders
        return l.dram_base + z * l.dram_z_stride + y * l.dram_y_stride + x * x_stride;
    };
    // Any byte outside the DRAM fails the whole instruction before it writes anything.
    for (uint32_t z = 0; z < l.z_size; ++z) {
        for (uint32_t y = 0; y < l.y_size; ++y) {
            for (uint32_t x = 0; x < runs; ++x) {
                if (!in_dram(run_addr(z, y, x), run_bytes)) return false;
            }
        }
    }
    const auto w = static_cast<uint32_t>(isa::load_padded_width(l));  // 8- and 16-bit fields
    const auto h = static_cast<uint32_t>(isa::load_padded_rows(l));
    const uint64_t row_bytes = uint64_t{l.x_size} * eb;
    const auto pad = static_cast<uint8_t>(l.pad_value);
    const size_t written_row = static_cast<size_t>(isa::load_row_entries(l)) * eb;
    // A packing LOAD builds each padded row here first, then packs it into the buffer.
    std::vector<uint8_t> stream(l.pack_taps != 0 ? size_t{w} * eb : 0);
    uint8_t* dst = sram_bytes(l.buffer) + size_t{l.sram_base} * eb;
    for (uint32_t z = 0; z < l.z_size; ++z) {
        for (uint32_t y = 0; y < h; ++y, dst += written_row) {
            uint8_t* row = l.pack_taps != 0 ? stream.data() : dst;
            if (y < l.pad_top || y >= l.pad_top + l.y_size) {
                std::memset(row, pad, size_t{w} * eb);
            } else {
                std::memset(row, pad, size_t{l.pad_left} * eb);
                uint8_t* data = row + size_t{l.pad_left} * eb;
                for (uint32_t x = 0; x < runs; ++x) {
                    std::memcpy(data + x * run_bytes, &dram_[run_addr(z, y - l.pad_top, x)],
                                run_bytes);
                }
                std::memset(data + row_bytes, pad, size_t{l.pad_right} * eb);
            }
            if (l.pack_taps != 0) pack_row(l, stream.data(), dst);
        }
    }
    ++c.load_insns;
    c.load_bytes += uint64_t{l.z_size} * l.y_size * row_bytes;
    return true;
}

// ---------------------------------------------------------------------------------------
// GEMM. The reduction of one output entry keeps one partial sum per (o, j) lane, so each
// step is an element-wise multiply-add over contiguous int8 lanes, which the compiler
// vectorizes; the lanes are summed once per output entry. uint32 sums give int32
// wraparound, and wraparound makes the order of the additions irrelevant.

namespace {

// gemm_dispatch is compiled once per vector ISA of the host (chosen when the library
// loads); the loop nest is forced inline so that each variant vectorizes all of it.
#if defined(__GNUC__) && defined(__x86_64__)
#define ACCEL_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define ACCEL_VECTOR_CLONES
#endif
#define ACCEL_INLINE [[gnu::always_inline]] inline

struct GemmView {
    const int8_t* inp;
    const int8_t* wgt;
    uint32_t* acc;
    const int32_t* prm;
    uint32_t* scratch;  // BO*BI lanes, for block sizes not known at compile time
    uint32_t batch, bi, bo;
};

// Folds each output channel's kBI lanes in halves, all channels at once (contiguous
// adds that vectorize), leaving each channel's sum in its lane 0.
template <uint32_t kBI, uint32_t kBO, uint32_t kHalf>
ACCEL_INLINE void fold_lanes(uint32_t* __restrict part) {
    if constexpr (kHalf > 0) {
        for (uint32_t o = 0; o < kBO; ++o) {
            for (uint32_t j = 0; j < kHalf; ++j) part[o * kBI + j] += part[o * kBI + kHalf + j];
        }
        fold_lanes<kBI, kBO, kHalf / 2>(part);
    }
}

// Σ over the (r, s, cb) reduction of INP[i][b] . WGT[w]^T for one image b, into
// sums[BO]. kBI, kBO: the block sizes when known at compile time (0: runtime), which
// lets the lane loop unroll fully and the partial sums live in registers.
template <uint32_t kBI, uint32_t kBO>
ACCEL_INLINE void gemm_reduce(const GemmView& v, const isa::Gemm& g, const int8_t* x0,
                              const int8_t* w0, uint32_t* sums) {
    constexpr bool kFixed = kBI != 0 && kBO != 0;
    const uint32_t bi = kFixed ? kBI : v.bi, bo = kFixed ? kBO : v.bo;
    alignas(32) uint32_t local[kFixed ? kBI * kBO : 1];
    uint32_t* __restrict part = kFixed ? local : v.scratch;
    std::memset(part, 0, sizeof(uint32_t) * bo * bi);
    const size_t x_bytes = size_t{v.batch} * bi, w_bytes = size_t{bo} * bi;
    for (uint32_t r = 0; r < g.n_r; ++r) {
        for (uint32_t s = 0; s < g.n_s; ++s) {
            const int8_t* x = x0 + (r * g.inp_r + s * g.inp_s) * x_bytes;
            const int8_t* w = w0 + (r * g.wgt_r + s * g.wgt_s) * w_bytes;
            for (uint32_t cb = 0; cb < g.n_cb;
                 ++cb, x += g.inp_cb * x_bytes, w += g.wgt_cb * w_bytes) {
                // A local copy of the input entry: one vector load the compiler can keep in
                // a register across the o loop (it otherwise assembles x byte by byte).
                int8_t x_copy[kFixed ? kBI : 1];
                const int8_t* xs = x;
                if constexpr (kFixed) {
                    std::memcpy(x_copy, x, kBI);
                    xs = x_copy;
                }
                for (uint32_t o = 0; o < bo; ++o) {
                    const int8_t* wo = w + o * bi;
                    uint32_t* po = part + o * bi;
                    for (uint32_t j = 0; j < bi; ++j) {
                        po[j] += static_cast<uint32_t>(static_cast<int32_t>(xs[j]) * wo[j]);
                    }
                }
            }
        }
    }
    if constexpr (kFixed) {
        fold_lanes<kBI, kBO, kBI / 2>(part);
        for (uint32_t o = 0; o < bo; ++o) sums[o] += part[o * bi];
    } else {
        for (uint32_t o = 0; o < bo; ++o) {
            for (uint32_t j = 0; j < bi; ++j) sums[o] += part[o * bi + j];
        }
    }
}

template <uint32_t kBI, uint32_t kBO>
ACCEL_INLINE void gemm_nest(const GemmView& v, const isa::Gemm& g) {
    const size_t x_bytes = size_t{v.batch} * v.bi, w_bytes = size_t{v.bo} * v.bi;
    for (uint32_t kb = 0; kb < g.n_kb; ++kb) {
        const int32_t* bias = v.prm + size_t{g.prm_base + kb} * 3 * v.bo;
        const int8_t* w0 = v.wgt + (g.wgt_base + kb * g.wgt_kb) * w_bytes;
        for (uint32_t oy = 0; oy < g.n_oy; ++oy) {
            for (uint32_t ox = 0; ox < g.n_ox; ++ox) {
                const uint32_t a = g.acc_base + kb * g.acc_kb + oy * g.acc_oy + ox * g.acc_ox;
                const int8_t* x0 = v.inp + (g.inp_base + oy * g.inp_oy + ox * g.inp_ox) * x_bytes;
                uint32_t* acc = v.acc + size_t{a} * v.batch * v.bo;
                for (uint32_t b = 0; b < v.batch; ++b, acc += v.bo) {
                    if (g.init) {
                        std::transform(bias, bias + v.bo, acc,
                                       [](int32_t x) { return static_cast<uint32_t>(x); });
                    }
                    gemm_reduce<kBI, kBO>(v, g, x0 + b * v.bi, w0, acc);
                }
            }
        }
    }
}

// Block sizes are powers of two; square blocks up to 32 get the fully unrolled kernel.
ACCEL_VECTOR_CLONES void gemm_dispatch(const GemmView& v, const isa::Gemm& g) {
    const uint32_t square = v.bi == v.bo ? v.bi : 0;
    switch (square) {
        case 4: gemm_nest<4, 4>(v, g); break;
        case 8: gemm_nest<8, 8>(v, g); break;
        case 16: gemm_nest<16, 16>(v, g); break;
        case 32: gemm_nest<32, 32>(v, g); break;
        default: gemm_nest<0, 0>(v, g); break;
    }
}

}  // namespace

void FunctionalSim::exec_gemm(const isa::Gemm& g, DeviceCounters& c) {
    const GemmView v{inp_.data(),     wgt_.data(), acc_.data(),  prm_.data(),
                     scratch_.data(), hw_.batch,   hw_.block_in, hw_.block_out};
    gemm_dispatch(v, g);
    ++c.gemm_insns;
    c.gemm_steps += isa::gemm_steps(g);
}

// ---------------------------------------------------------------------------------------
// DRAIN: requantize (docs/semantics.md) and write BO bytes per entry and image.

bool FunctionalSim::exec_drain(const isa::Drain& d, DeviceCounters& c) {
    const uint32_t bo = hw_.block_out, batch = hw_.batch;
    auto addr_of = [&d](uint32_t kb, uint32_t y, uint32_t x, uint32_t b) {  // modulo 2^32
        return d.dram_base + kb * d.dram_kb + y * d.dram_y + x * d.dram_x + b * d.dram_b;
    };
    for (uint32_t kb = 0; kb < d.n_kb; ++kb) {  // a bus error writes nothing
        for (uint32_t y = 0; y < d.n_y; ++y) {
            for (uint32_t x = 0; x < d.n_x; ++x) {
                for (uint32_t b = 0; b < batch; ++b) {
                    if (!in_dram(addr_of(kb, y, x, b), bo)) return false;
                }
            }
        }
    }
    std::vector<int8_t> out(bo);
    std::vector<int> shift(bo);
    std::vector<DoubleScale> scale(bo);
    for (uint32_t kb = 0; kb < d.n_kb; ++kb) {
        const int32_t* p = prm_.data() + size_t{d.prm_base + kb} * 3 * bo;
        const int32_t* multiplier = p + bo;
        // Out-of-range shifts clamp, as the drain reads them (docs/isa.md, DRAIN); in
        // double-scale mode the two words are a double's bits, the multiplier the low.
        for (uint32_t o = 0; o < bo; ++o) {
            shift[o] = isa::prm_shift(p[2 * bo + o]);
            scale[o] = decode_scale_word(uint64_t{static_cast<uint32_t>(p[2 * bo + o])} << 32 |
                                         static_cast<uint32_t>(multiplier[o]));
        }
        // The int32 a lane sends to the zero point and clamp: its own requantization, or
        // in add mode the sum of both operands rescaled by lanes 0 and 1, rescaled by
        // lane 2 (every shift by `add_shift` wraps in int32, as TFLite's does); round_up
        // rounds every final shift's ties upward.
        auto requantized = [&](const uint32_t* acc1, const uint32_t* acc2, uint32_t o) {
            if (!d.add) {
                return mbqm(static_cast<int32_t>(acc1[o]), multiplier[o], shift[o], d.round_up);
            }
            const int32_t sum = rescaled_sum(
                static_cast<int32_t>(acc1[o]), static_cast<int32_t>(acc2[o]),
                static_cast<int>(d.add_shift), {multiplier[0], shift[0]}, {multiplier[1], shift[1]},
                d.round_up);
            return mbqm(sum, multiplier[2], shift[2], d.round_up);
        };
        for (uint32_t y = 0; y < d.n_y; ++y) {
            for (uint32_t x = 0; x < d.n_x; ++x) {
                const uint32_t a = d.acc_base + kb * d.acc_kb + y * d.acc_y + x * d.acc_x;
                for (uint32_t b = 0; b < batch; ++b) {
                    const uint32_t* acc1 = acc_.data() + (size_t{a} * batch + b) * bo;
                    const uint32_t* acc2 = d.add ? acc1 + size_t{d.acc_add} * batch * bo : acc1;
                    for (uint32_t o = 0; o < bo; ++o) {
                        // Double-scale mode adds zy in int32, wrapping, as TFLite's
                        // reference FULLY_CONNECTED does; the others in 33 bits.
                        const int64_t v =
                            d.double_scale
                                ? wrapping_add(round_product_like_double(
                                                   static_cast<int32_t>(acc1[o]), scale[o]),
                                               d.zy)
                                : int64_t{d.zy} + requantized(acc1, acc2, o);
                        out[o] = static_cast<int8_t>(std::clamp<int64_t>(v, d.act_min, d.act_max));
                    }
                    std::memcpy(&dram_[addr_of(kb, y, x, b)], out.data(), bo);
                }
            }
        }
    }
    ++c.drain_insns;
    c.drain_bytes += isa::drain_bytes(d, hw_);
    return true;
}

}  // namespace accel
