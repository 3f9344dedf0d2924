#include "hw/hw_params.hpp"

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {
namespace {

uint32_t depth_of(const std::string& source, const char* key, int64_t bytes,
                  uint32_t entry_bytes) {
    const int64_t depth = bytes / entry_bytes;
    if (depth < 1 || depth > kMaxSramDepth) {
        throw Error(fmt::format("{}: key '{}': gives {} entries of {} bytes; the ISA addresses "
                                "1 to {}",
                                source, key, depth, entry_bytes, kMaxSramDepth));
    }
    return static_cast<uint32_t>(depth);
}

}  // namespace

HwParams derive_params(const HwConfig& c, const std::string& src) {
    HwParams p{};
    p.config = c;
    p.batch = static_cast<uint32_t>(c.batch);
    p.block_in = static_cast<uint32_t>(c.block_in);
    p.block_out = static_cast<uint32_t>(c.block_out);
    p.beat_bytes = static_cast<uint32_t>(c.axi_data_bits / 8);
    p.inp_entry_bytes = p.batch * p.block_in;
    p.wgt_entry_bytes = p.block_out * p.block_in;
    p.acc_entry_bytes = kAccLaneBytes * p.batch * p.block_out;
    p.prm_entry_bytes = kPrmLaneBytes * p.block_out;
    p.inp_depth = depth_of(src, "buffers.input_kib", c.input_bytes(), p.inp_entry_bytes);
    p.wgt_depth = depth_of(src, "buffers.weight_kib", c.weight_bytes(), p.wgt_entry_bytes);
    p.acc_depth = depth_of(src, "buffers.acc_kib", c.acc_bytes(), p.acc_entry_bytes);
    p.prm_depth = kPrmDepth;
    // Every DMA moves whole beats: the beat must divide each entry a DMA moves, and the
    // BO bytes DRAIN writes per image.
    for (uint32_t bytes : {p.inp_entry_bytes, p.wgt_entry_bytes, p.prm_entry_bytes, p.block_out}) {
        if (bytes % p.beat_bytes != 0) {
            throw Error(fmt::format("{}: key 'axi.data_bits': a {}-byte beat does not divide a "
                                    "{}-byte transfer (batch*block_in, block_in*block_out, "
                                    "block_out must be multiples of the beat)",
                                    src, p.beat_bytes, bytes));
        }
    }
    return p;
}

}  // namespace accel
