#include "devices/run_budget.hpp"

#include <algorithm>
#include <functional>
#include <span>
#include <variant>
#include <vector>

#include "base/int_math.hpp"
#include "hw/dram_bus.hpp"

namespace accel {
namespace {

constexpr uint64_t kFixed = 32;       // an instruction's start, pipeline and tokens
constexpr uint64_t kBurstFixed = 8;   // a burst's address handshake and response

uint64_t load_cycles(const isa::Load& l, const HwParams& hw) {
    const uint64_t beat = hw.beat_bytes, latency = hw.config.dram_latency_cycles;
    // A row is one run of DRAM bytes, or one per entry when they lie apart.
    const uint64_t runs = isa::load_row_contiguous(l, hw) ? 1 : l.x_size;
    const uint64_t run_bytes = uint64_t{l.x_size} / runs * isa::entry_bytes(l.buffer, hw);
    const uint64_t run_beats = ceil_div_u64(run_bytes, beat);
    const uint64_t bursts = ceil_div_u64(run_beats, dram_bus::kMaxBurstBeats) +
                            run_bytes / dram_bus::kPageBytes + 1;
    const uint64_t per_row = runs * (run_beats + bursts * (latency + kBurstFixed));
    const uint64_t rows = uint64_t{l.z_size} * l.y_size;
    const uint64_t entries =  // written one a cycle, padding included
        saturating_product<uint64_t>({l.z_size, isa::load_padded_rows(l),
                                      isa::load_padded_width(l)});
    const uint64_t moved = saturating_mul<uint64_t>(rows, per_row);
    return saturating_add<uint64_t>(saturating_add<uint64_t>(moved, entries), kFixed);
}

uint64_t gemm_cycles(const isa::Gemm& g) {
    const uint64_t outputs = saturating_product<uint64_t>({g.n_kb, g.n_oy, g.n_ox});
    // A step a cycle, a bubble per ACC entry.
    return saturating_add<uint64_t>(saturating_add<uint64_t>(isa::gemm_steps(g), outputs), kFixed);
}

uint64_t drain_cycles(const isa::Drain& d, const HwParams& hw) {
    // Each image's entry is its own burst in the worst case, each beat its reads.
    const uint64_t beats =
        ceil_div_u64(hw.block_out, hw.beat_bytes) * isa::drain_reads_per_beat(d, hw);
    const uint64_t per_image = beats + hw.config.dram_latency_cycles + kBurstFixed;
    const uint64_t images = saturating_mul<uint64_t>(isa::drain_entries(d), hw.batch);
    return saturating_add<uint64_t>(saturating_mul<uint64_t>(images, per_image), kFixed);
}

uint64_t fetch_cycles(const HwParams& hw) {
    return ceil_div_u64(isa::kInsnBytes, hw.beat_bytes) + hw.config.dram_latency_cycles +
           kBurstFixed + kCheckLatency + kQueueLatency;
}

}  // namespace

uint64_t max_cycles_of(const isa::Insn& insn, const HwParams& hw) {
    if (const auto* l = std::get_if<isa::Load>(&insn)) return load_cycles(*l, hw);
    if (const auto* g = std::get_if<isa::Gemm>(&insn)) return gemm_cycles(*g);
    if (const auto* d = std::get_if<isa::Drain>(&insn)) return drain_cycles(*d, hw);
    return kFixed;
}

namespace {

// Reads DRAM bytes [addr, addr + out.size()), all inside the DRAM.
using DramReader = std::function<void(uint64_t addr, std::span<uint8_t> out)>;

uint64_t sum_over_program(const DramReader& read, uint64_t dram_bytes, uint32_t insn_addr,
                          uint32_t count, const HwParams& hw) {
    // Read as fetch does: from the 64-byte aligned address, up to the end of the DRAM.
    const uint64_t first = insn_addr & ~uint32_t{isa::kInsnBytes - 1};
    const uint64_t fits = first < dram_bytes ? (dram_bytes - first) / isa::kInsnBytes : 0;
    const uint64_t n = std::min<uint64_t>(count, fits);
    constexpr uint64_t kChunk = 1024;  // instructions read at once
    std::vector<uint8_t> words;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; ++i) {
        if (i % kChunk == 0) {
            words.resize(std::min(kChunk, n - i) * isa::kInsnBytes);
            read(first + i * isa::kInsnBytes, words);
        }
        const std::span<const uint8_t, isa::kInsnBytes> word(
            &words[(i % kChunk) * isa::kInsnBytes], isa::kInsnBytes);
        const isa::Decoded d = isa::decode(word, hw);
        if (d.error != isa::ErrorCode::Ok || std::holds_alternative<isa::Finish>(d.insn)) break;
        const uint64_t insn_cycles =
            saturating_add<uint64_t>(max_cycles_of(d.insn, hw), fetch_cycles(hw));
        sum = saturating_add<uint64_t>(sum, insn_cycles);
    }
    return sum;
}

}  // namespace

uint64_t program_max_cycles(const Device& device, uint32_t insn_addr, uint32_t count) {
    return sum_over_program(
        [&device](uint64_t addr, std::span<uint8_t> out) { device.read_dram(addr, out); },
        device.dram_bytes(), insn_addr, count, device.params());
}

uint64_t program_max_cycles(std::span<const uint8_t> image, uint32_t insn_addr,
                            uint32_t count, const HwParams& hw) {
    // Past the image the DRAM holds zeros, which fetch rejects: the image is enough.
    return sum_over_program(
        [image](uint64_t addr, std::span<uint8_t> out) {
            std::copy_n(image.begin() + static_cast<ptrdiff_t>(addr), out.size(), out.begin());
        },
        image.size(), insn_addr, count, hw);
}

uint64_t min_cycles_of(const isa::Insn& insn, const HwParams& hw) {
    if (const auto* g = std::get_if<isa::Gemm>(&insn)) return isa::gemm_steps(*g);
    uint64_t bytes = 0;
    if (const auto* l = std::get_if<isa::Load>(&insn)) {
        bytes = saturating_product<uint64_t>(
            {l->z_size, l->y_size, l->x_size, isa::entry_bytes(l->buffer, hw)});
    } else if (const auto* d = std::get_if<isa::Drain>(&insn)) {
        bytes = isa::drain_bytes(*d, hw);
    }
    return ceil_div_u64(bytes, hw.beat_bytes);
}

StartedWork::StartedWork(const Device& device, uint32_t insn_addr, uint32_t count)
    : device_(device), first_(insn_addr & ~uint32_t{isa::kInsnBytes - 1}) {
    // Fetch reads up to the end of the DRAM, and no further than `count` instructions.
    const uint64_t fits =
        first_ < device.dram_bytes() ? (device.dram_bytes() - first_) / isa::kInsnBytes : 0;
    count_ = std::min<uint64_t>(count, fits);
    for (size_t u = 0; u < isa::kUnits; ++u) advance(u, units_[u]);
}

// Finds the unit's next instruction from c.next on, up to the first word fetch stops at.
void StartedWork::advance(size_t unit, Cursor& c) {
    c.has_next = false;
    std::array<uint8_t, isa::kInsnBytes> word{};
    for (; c.next < count_; ++c.next) {
        device_.read_dram(first_ + c.next * isa::kInsnBytes, word);
        const isa::Decoded d = isa::decode(word, device_.params());
        if (d.error != isa::ErrorCode::Ok || std::holds_alternative<isa::Finish>(d.insn)) {
            c.next = count_;
            return;
        }
        if (static_cast<size_t>(*isa::unit_of(d.insn)) == unit) {
            c.next_cycles = min_cycles_of(d.insn, device_.params());
            c.has_next = true;
            ++c.next;
            return;
        }
    }
}

uint64_t StartedWork::least_cycles(const std::array<uint64_t, isa::kUnits>& completed,
                                   const std::array<bool, isa::kUnits>& busy) {
    uint64_t most = 0;
    for (size_t u = 0; u < isa::kUnits; ++u) {
        Cursor& c = units_[u];
        while (c.done < completed[u] && c.has_next) {
            c.sum = saturating_add<uint64_t>(c.sum, c.next_cycles);
            ++c.done;
            advance(u, c);
        }
        const uint64_t busy_cycles = busy[u] && c.has_next ? c.next_cycles : 0;
        most = std::max(most, saturating_add<uint64_t>(c.sum, busy_cycles));
    }
    return most;
}

}  // namespace accel
