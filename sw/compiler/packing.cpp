// Packing the user's tensors into the blocked DRAM layouts the hardware reads.
#include "compiler/packing.hpp"

#include <bit>
#include <cstring>

#include "compiler/lowering.hpp"

namespace accel {
namespace {

void put_i32(std::span<uint8_t> mem, size_t at, int32_t v) {
    const auto u = static_cast<uint32_t>(v);
    for (size_t i = 0; i < 4; ++i) mem[at + i] = static_cast<uint8_t>(u >> (8 * i));
}

// [NB][CB][Hp][Wp] entries of [b][i] of the input x [N,H,W,C], the original input
// (the LOADs subsample or pack it as they read it); the host-side extra padding holds zx.
void pack_input(const LoweredLayer& lowered, const HwParams& hw, const DramLayout& layout,
                const TensorI8& x, std::vector<uint8_t>& mem) {
    const InputGeometry& d = lowered.input;
    struct {
        int64_t n, h, w, c;
    } const s{x.shape[0], x.shape[1], x.shape[2], x.shape[3]};
    const int64_t cb_n = (s.c + hw.block_in - 1) / hw.block_in;
    const int64_t nb_n = (s.n + hw.batch - 1) / hw.batch;
    const auto zx = static_cast<uint8_t>(lowered.layer.params.input_zero_point);
    size_t at = layout.input.base;
    for (int64_t nb = 0; nb < nb_n; ++nb)
        for (int64_t cb = 0; cb < cb_n; ++cb)
            for (int64_t y = 0; y < d.padded_h; ++y)
                for (int64_t xx = 0; xx < d.padded_w; ++xx) {
                    const int64_t h = y - d.extra_pad_top, w = xx - d.extra_pad_left;
                    const bool inside = h >= 0 && h < s.h && w >= 0 && w < s.w;
                    for (int64_t b = 0; b < hw.batch; ++b) {
                        const int64_t n = nb * hw.batch + b;
                        for (int64_t i = 0; i < hw.block_in; ++i, ++at) {
                            const int64_t c = cb * hw.block_in + i;
                            if (!inside) {
                                mem[at] = zx;
                            } else if (n < s.n && c < s.c) {
                                mem[at] = static_cast<uint8_t>(
                                    x.data[static_cast<size_t>(((n * s.h + h) * s.w + w) * s.c + c)]);
                            }
                        }
                    }
                }
}

// [KB][R][S][CB] entries of [o][i].
void pack_weights(const Conv2dLayer& l, const HwParams& hw, const DramLayout& d,
                  const TensorI8& w, std::span<uint8_t> mem, uint64_t origin) {
    const Conv2dShape& s = l.shape;
    const int64_t cb_n = (s.c + hw.block_in - 1) / hw.block_in;
    const int64_t kb_n = (s.k + hw.block_out - 1) / hw.block_out;
    size_t at = d.weights.base - origin;
    for (int64_t kb = 0; kb < kb_n; ++kb)
        for (int64_t r = 0; r < s.r; ++r)
            for (int64_t t = 0; t < s.s; ++t)
                for (int64_t cb = 0; cb < cb_n; ++cb)
                    for (int64_t o = 0; o < hw.block_out; ++o)
                        for (int64_t i = 0; i < hw.block_in; ++i, ++at) {
                            const int64_t k = kb * hw.block_out + o, c = cb * hw.block_in + i;
                            if (k < s.k && c < s.c) {
                                mem[at] = static_cast<uint8_t>(
                                    w.data[static_cast<size_t>(((r * s.s + t) * s.c + c) * s.k + k)]);
                            }
                        }
}

// Every shift a valid layer holds reaches the hardware as it is, without its clamp.
static_assert(isa::kPrmShiftMin == kMinShift && isa::kPrmShiftMax == kMaxShift);

// [KB] entries: bias[BO], multiplier[BO], shift[BO], all int32 (docs/isa.md, PRM). A
// double scale's IEEE-754 bits take the multiplier (low) and shift (high) words.
void pack_params(const Conv2dLayer& l, const HwParams& hw, const DramLayout& d,
                 const std::vector<int32_t>& folded_bias, std::span<uint8_t> mem,
                 uint64_t origin) {
    const int64_t kb_n = (l.shape.k + hw.block_out - 1) / hw.block_out;
    for (int64_t kb = 0; kb < kb_n; ++kb) {
        const size_t entry =
            d.params.base - origin + static_cast<size_t>(kb) * hw.prm_entry_bytes;
        for (int64_t o = 0; o < hw.block_out; ++o) {
            const int64_t k = kb * hw.block_out + o;
            if (k >= l.shape.k) continue;  // padded channels: zeros
            const auto kk = static_cast<size_t>(k), oo = static_cast<size_t>(o);
            put_i32(mem, entry + 4 * oo, folded_bias[kk]);
            const bool double_scale = !l.params.double_scale.empty();
            const uint64_t bits =
                double_scale ? std::bit_cast<uint64_t>(l.params.double_scale[kk]) : 0;
            put_i32(mem, entry + 4 * (hw.block_out + oo),
                    double_scale ? static_cast<int32_t>(static_cast<uint32_t>(bits))
                                 : l.params.multiplier[kk]);
            put_i32(mem, entry + 4 * (2 * hw.block_out + oo),
                    double_scale ? static_cast<int32_t>(static_cast<uint32_t>(bits >> 32))
                                 : l.params.shift[kk]);
        }
    }
}

}  // namespace

std::vector<int32_t> fold_input_zero_point(const Conv2dLayer& layer, const TensorI8& w,
                                           const std::vector<int32_t>& bias) {
    const Conv2dShape& s = layer.shape;
    std::vector<uint32_t> sum(static_cast<size_t>(s.k), 0);
    for (int64_t rsc = 0; rsc < s.r * s.s * s.c; ++rsc)
        for (int64_t k = 0; k < s.k; ++k)
            sum[static_cast<size_t>(k)] += static_cast<uint32_t>(w.data[static_cast<size_t>(rsc * s.k + k)]);
    std::vector<int32_t> out(bias.size());
    const auto zx = static_cast<uint32_t>(layer.params.input_zero_point);
    for (size_t k = 0; k < out.size(); ++k) {
        out[k] = static_cast<int32_t>(static_cast<uint32_t>(bias[k]) - zx * sum[k]);
    }
    return out;
}

void pack_constants(const Conv2dProgram& program, const HwParams& hw, const TensorI8& w,
                    const std::vector<int32_t>& bias, std::span<uint8_t> mem, uint64_t origin) {
    const DramLayout& d = program.layout;
    const Conv2dLayer& original = program.lowered.original;
    const Conv2dLayer& layer = program.lowered.layer;
    const TensorI8 lowered_w = lower_weights(original, program.lowered.lowering, w);
    pack_weights(layer, hw, d, lowered_w, mem, origin);
    // The lowered weights only add zero taps: the original's sums are the same.
    pack_params(layer, hw, d, fold_input_zero_point(original, w, bias), mem, origin);
    std::memset(&mem[d.zx_row.base - origin],
                static_cast<uint8_t>(layer.params.input_zero_point), d.zx_row.bytes);
}

std::vector<uint8_t> build_dram_image(const Conv2dProgram& program, const HwParams& hw,
                                      const TensorI8& x, const TensorI8& w,
                                      const std::vector<int32_t>& bias) {
    const DramLayout& d = program.layout;
    std::vector<uint8_t> mem(d.dram_bytes, 0);
    isa::encode_program(program.insns, &mem[d.program.base]);
    pack_input(program.lowered, hw, d, x, mem);
    pack_constants(program, hw, w, bias, mem);
    return mem;
}

int64_t activation_entries(const std::vector<int64_t>& nhwc, const HwParams& hw) {
    const int64_t nb = (nhwc[0] + hw.batch - 1) / hw.batch;
    const int64_t cb = (nhwc[3] + hw.block_in - 1) / hw.block_in;
    return nb * cb * nhwc[1] * nhwc[2];
}

int64_t activation_bytes(const std::vector<int64_t>& nhwc, const HwParams& hw) {
    return activation_entries(nhwc, hw) * hw.inp_entry_bytes;
}

// [NB][CB][H][W][b][i], the index of element (n, h, w, c).
static int64_t activation_offset(const std::vector<int64_t>& s, const HwParams& hw, int64_t n,
                                 int64_t h, int64_t w, int64_t c) {
    const int64_t cb_n = (s[3] + hw.block_in - 1) / hw.block_in;
    const int64_t nb = n / hw.batch, b = n % hw.batch, cb = c / hw.block_in, i = c % hw.block_in;
    return ((((nb * cb_n + cb) * s[1] + h) * s[2] + w) * hw.batch + b) * hw.block_in + i;
}

std::vector<uint8_t> pack_activation(const TensorI8& x, const HwParams& hw) {
    const std::vector<int64_t>& s = x.shape;
    std::vector<uint8_t> out(static_cast<size_t>(activation_bytes(s, hw)), 0);
    size_t at = 0;
    for (int64_t n = 0; n < s[0]; ++n)
        for (int64_t h = 0; h < s[1]; ++h)
            for (int64_t w = 0; w < s[2]; ++w)
                for (int64_t c = 0; c < s[3]; ++c, ++at) {
                    out[static_cast<size_t>(activation_offset(s, hw, n, h, w, c))] =
                        static_cast<uint8_t>(x.data[at]);
                }
    return out;
}

TensorI8 unpack_activation(std::span<const uint8_t> bytes, const std::vector<int64_t>& nhwc,
                           const HwParams& hw) {
    TensorI8 x(nhwc);
    size_t at = 0;
    for (int64_t n = 0; n < nhwc[0]; ++n)
        for (int64_t h = 0; h < nhwc[1]; ++h)
            for (int64_t w = 0; w < nhwc[2]; ++w)
                for (int64_t c = 0; c < nhwc[3]; ++c, ++at) {
                    x.data[at] = static_cast<int8_t>(
                        bytes[static_cast<size_t>(activation_offset(nhwc, hw, n, h, w, c))]);
                }
    return x;
}

TensorI8 unpack_output(const Conv2dLayer& layer, const HwParams& hw, const uint8_t* out) {
    const Conv2dShape& s = layer.shape;
    const int64_t oh_n = layer.out_h(), ow_n = layer.out_w();
    const int64_t kb_n = (s.k + hw.block_out - 1) / hw.block_out;
    TensorI8 y({s.n, oh_n, ow_n, s.k});
    // [NB][KB][OH][OW][b][o]
    for (int64_t n = 0; n < s.n; ++n)
        for (int64_t oh = 0; oh < oh_n; ++oh)
            for (int64_t ow = 0; ow < ow_n; ++ow)
                for (int64_t k = 0; k < s.k; ++k) {
                    const int64_t nb = n / hw.batch, b = n % hw.batch;
                    const int64_t kb = k / hw.block_out, o = k % hw.block_out;
                    const int64_t at = ((((nb * kb_n + kb) * oh_n + oh) * ow_n + ow) * hw.batch + b) *
                                           hw.block_out + o;
                    y.data[static_cast<size_t>(((n * oh_n + oh) * ow_n + ow) * s.k + k)] =
                        static_cast<int8_t>(out[at]);
                }
    return y;
}

}  // namespace accel
