// The static checks fetch applies to every instruction before dispatching it.
#include <cstdint>

#include "hw/isa.hpp"

namespace accel::isa {
namespace {

// Largest address an affine loop nest touches: base + Σ (extent-1) * stride.
struct Nest {
    uint64_t max = 0;
    Nest(uint64_t base) : max(base) {}
    Nest& loop(uint64_t extent, uint64_t stride) {
        max += (extent - 1) * stride;
        return *this;
    }
    bool fits(uint32_t depth) const { return max < depth; }
};

bool aligned(uint32_t v, uint32_t beat) { return v % beat == 0; }

ErrorCode check_load(const Load& l, const HwParams& hw) {
    const bool padded = l.pad_top || l.pad_bottom || l.pad_left || l.pad_right;
    if (l.tokens.pop_prev || l.tokens.push_prev || static_cast<unsigned>(l.buffer) > 2 ||
        l.z_size == 0 || l.y_size == 0 || l.x_size == 0 || (padded && l.buffer != Buffer::Inp) ||
        (l.pad_value != 0 && l.buffer != Buffer::Inp) || !aligned(l.dram_base, hw.beat_bytes) ||
        !aligned(l.dram_z_stride, hw.beat_bytes) || !aligned(l.dram_y_stride, hw.beat_bytes) ||
        !aligned(l.dram_x_stride, hw.beat_bytes)) {
        return ErrorCode::IllegalInstruction;
    }
    // Packing: INP only, P taps of C bytes within one image's block, a row of P at least.
    const uint64_t padded_w = load_padded_width(l);
    const bool packs = l.pack_taps != 0;
    if ((!packs && l.pack_bytes != 0) ||
        (packs && (l.buffer != Buffer::Inp || l.pack_bytes == 0 ||
                   uint64_t{l.pack_taps} * l.pack_bytes > uint64_t(hw.block_in) ||
                   padded_w < l.pack_taps))) {
        return ErrorCode::IllegalInstruction;
    }
    const uint64_t rows = load_padded_rows(l);
    const Nest dst = Nest(l.sram_base).loop(uint64_t{l.z_size} * rows * load_row_entries(l), 1);
    return dst.fits(depth_of(l.buffer, hw)) ? ErrorCode::Ok : ErrorCode::SramRange;
}

ErrorCode check_gemm(const Gemm& g, const HwParams& hw) {
    if (g.n_kb == 0 || g.n_oy == 0 || g.n_ox == 0 || g.n_r == 0 || g.n_s == 0 || g.n_cb == 0) {
        return ErrorCode::IllegalInstruction;
    }
    const Nest acc = Nest(g.acc_base).loop(g.n_kb, g.acc_kb).loop(g.n_oy, g.acc_oy)
                         .loop(g.n_ox, g.acc_ox);
    const Nest inp = Nest(g.inp_base).loop(g.n_oy, g.inp_oy).loop(g.n_ox, g.inp_ox)
                         .loop(g.n_r, g.inp_r).loop(g.n_s, g.inp_s).loop(g.n_cb, g.inp_cb);
    const Nest wgt = Nest(g.wgt_base).loop(g.n_kb, g.wgt_kb).loop(g.n_r, g.wgt_r)
                         .loop(g.n_s, g.wgt_s).loop(g.n_cb, g.wgt_cb);
    const Nest prm = Nest(g.prm_base).loop(g.n_kb, 1);
    const bool ok = acc.fits(hw.acc_depth) && inp.fits(hw.inp_depth) &&
                    wgt.fits(hw.wgt_depth) && prm.fits(hw.prm_depth);
    return ok ? ErrorCode::Ok : ErrorCode::SramRange;
}

ErrorCode check_drain(const Drain& d, const HwParams& hw) {
    const uint32_t beat = hw.beat_bytes;
    if (d.tokens.pop_next || d.tokens.push_next || d.n_kb == 0 || d.n_y == 0 || d.n_x == 0 ||
        d.act_min > d.act_max || !aligned(d.dram_base, beat) || !aligned(d.dram_kb, beat) ||
        !aligned(d.dram_y, beat) || !aligned(d.dram_x, beat) || !aligned(d.dram_b, beat) ||
        (d.add && d.double_scale) || (d.round_up && d.double_scale)) {
        return ErrorCode::IllegalInstruction;
    }
    // In add mode the second operands lie acc_add entries past the first.
    const Nest acc = Nest(uint64_t{d.acc_base} + (d.add ? d.acc_add : 0))
                         .loop(d.n_kb, d.acc_kb).loop(d.n_y, d.acc_y).loop(d.n_x, d.acc_x);
    const Nest prm = Nest(d.prm_base).loop(d.n_kb, 1);
    return acc.fits(hw.acc_depth) && prm.fits(hw.prm_depth) ? ErrorCode::Ok
                                                             : ErrorCode::SramRange;
}

}  // namespace

ErrorCode check(const Insn& insn, const HwParams& hw) {
    if (const auto* l = std::get_if<Load>(&insn)) return check_load(*l, hw);
    if (const auto* g = std::get_if<Gemm>(&insn)) return check_gemm(*g, hw);
    if (const auto* d = std::get_if<Drain>(&insn)) return check_drain(*d, hw);
    return ErrorCode::Ok;
}

}  // namespace accel::isa
