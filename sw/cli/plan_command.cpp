// accel plan: the tiling plan of one layer on one hardware config, without running it.
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "compiler/layout.hpp"
#include "compiler/metrics.hpp"
#include "compiler/plan.hpp"
#include "compiler/planner.hpp"
#include "formats/npy.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "ops/conv2d.hpp"
#include "runtime/report.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "shared_options.hpp"

namespace po = boost::program_options;

namespace accel::cli {
namespace {

struct PlanArgs {
    std::string input, weights, shape, kernel, out_channels, hw, json;
    std::string stride = "1", pad = "0", dilation = "1";
};

// The layer's shape from --input/--weights files or from --shape/--kernel/--out-channels.
Conv2dShape layer_shape(const PlanArgs& a) {
    if (!a.input.empty() || !a.weights.empty()) {
        if (a.input.empty() || a.weights.empty()) {
            throw Error("--input/--weights: give both, or use --shape/--kernel/--out-channels");
        }
        const TensorI8 x = read_npy_i8(a.input), w = read_npy_i8(a.weights);
        if (x.rank() != 4) throw Error(fmt::format("{}: input must be [N,H,W,C]", a.input));
        if (w.rank() != 4) throw Error(fmt::format("{}: weights must be [R,S,C,K]", a.weights));
        if (w.dim(2) != x.dim(3)) {
            throw Error(fmt::format("{}: weights have C = {} but the input has C = {}",
                                    a.weights, w.dim(2), x.dim(3)));
        }
        return {x.dim(0), x.dim(1), x.dim(2), x.dim(3), w.dim(3), w.dim(0), w.dim(1)};
    }
    if (a.shape.empty() || a.kernel.empty() || a.out_channels.empty()) {
        throw Error("--shape, --kernel and --out-channels are required (or --input and "
                    "--weights)");
    }
    constexpr int64_t kMax = int64_t{1} << 24;
    const auto nhwc = parse_int_list("--shape", a.shape, {4}, 1, kMax);
    const auto rs = parse_int_list("--kernel", a.kernel, {1, 2}, 1, kMax);
    const int64_t k = parse_int("--out-channels", a.out_channels, 1, kMax);
    return {nhwc[0], nhwc[1], nhwc[2], nhwc[3], k, rs.front(), rs.back()};
}

// "12 KiB", or "1.5 KiB" when not whole: a buffer size with its unit.
std::string kib_with_unit(int64_t bytes) {
    return bytes % 1024 == 0 ? fmt::format("{} KiB", bytes / 1024)
                             : fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024.0);
}

void print_plan(const Conv2dLayer& l, const HwParams& hw, const Conv2dPlan& p) {
    const Conv2dShape& s = l.shape;
    const Conv2dParams& g = l.params;
    const int64_t compulsory = compulsory_bytes(l).total();
    fmt::print("layer    {}x{}x{}x{} -> {}, kernel {}x{}, stride {},{}, pad {},{},{},{}, "
               "dilation {},{} -> output {}x{}x{}x{}\n",
               s.n, s.h, s.w, s.c, s.k, s.r, s.s, g.stride_h, g.stride_w, g.pad_top,
               g.pad_bottom, g.pad_left, g.pad_right, g.dilation_h, g.dilation_w, s.n,
               l.out_h(), l.out_w(), s.k);
    fmt::print("hw       {}: {}x{} core, batch {}, {}-bit AXI, DRAM latency {}\n",
               hw.config.name, hw.block_in, hw.block_out, hw.batch, hw.beat_bytes * 8,
               hw.config.dram_latency_cycles);
    if (p.lowering.kind != LoweringKind::None) {
        // Blocks, tiles and footprints below are those of the layer the device runs.
        const Conv2dLayer d = lower(l, p.lowering).layer;
        fmt::print("lowering {}: the device runs {}x{}x{}x{} -> {}, kernel {}x{}, stride {},{}, "
                   "dilation {},{}\n",
                   lowering_name(p.lowering), d.shape.n, d.shape.h, d.shape.w, d.shape.c,
                   d.shape.k, d.shape.r, d.shape.s, d.params.stride_h, d.params.stride_w,
                   d.params.dilation_h, d.params.dilation_w);
    }
    fmt::print("blocks   {} batch x {} input-channel x {} output-channel blocks\n", p.nb,
               p.cb, p.kb);
    fmt::print("tile     {} output rows x {} output cols x {} output-channel blocks; "
               "reduction chunk {} input-channel blocks x {}x{} kernel taps\n",
               p.tile.oh, p.tile.ow, p.tile.kb, p.tile.cb, p.tile.r, p.tile.s);
    fmt::print("order    {}\n", loop_order_name(p.order));
    fmt::print("buffers  {:<8} {:>12} {:>12} {:>6}  {}\n", "", "used", "capacity", "use",
               "buffering");
    const std::pair<const char*, const BufferUse*> buffers[] = {
        {"input", &p.inp}, {"weight", &p.wgt}, {"acc", &p.acc}, {"params", &p.prm}};
    for (const auto& [name, b] : buffers) {
        fmt::print("         {:<8} {:>12} {:>12} {:>5.0f}%  {}\n", name,
                   kib_with_unit(b->used_bytes()), kib_with_unit(b->capacity_bytes()),
                   100.0 * static_cast<double>(b->used_bytes()) /
                       static_cast<double>(b->capacity_bytes()),
                   b->resident        ? fmt::format("resident: {} tiles, each loaded once", b->buffers)
                   : b->buffers == 2 ? std::string("double")
                   : b->buffers == 1 ? std::string("single")
                                     : fmt::format("ring of {}", b->buffers));
    }
    fmt::print("dram     read {} B, write {} B: {:.2f}x the compulsory {} B\n",
               p.dram_read_bytes, p.dram_write_bytes,
               static_cast<double>(p.dram_read_bytes + p.dram_write_bytes) /
                   static_cast<double>(compulsory),
               compulsory);
    fmt::print("cycles   predicted {}, ideal (GEMM issue) {}, roofline {}; {} instructions\n",
               p.predicted_cycles, p.ideal_cycles, roofline_cycles(l, hw.config),
               p.instructions);
}

// The layer to plan: its shape from --input/--weights or --shape/--kernel/--out-channels,
// its geometry from the options; validated.
Conv2dLayer plan_layer(const PlanArgs& a) {
    Conv2dLayer layer;
    layer.shape = layer_shape(a);
    set_geometry(a.stride, a.pad, a.dilation, layer.params);
    // The requantization does not change the plan; any valid one will do.
    layer.params.multiplier.assign(static_cast<size_t>(layer.shape.k), 1 << 30);
    layer.params.shift.assign(static_cast<size_t>(layer.shape.k), 0);
    validate(layer);
    return layer;
}

}  // namespace

int run_plan(const std::vector<std::string>& args) {
    PlanArgs a;
    po::options_description d = command_options(
        "usage: accel plan (--input X.npy --weights W.npy | --shape N,H,W,C --kernel R,S "
        "--out-channels K)\n"
        "                  [--stride ...] [--pad ...] [--dilation ...] [--hw HW.yaml] "
        "[--json FILE]\n\n"
        "Shows how a conv2d layer is tiled on a hardware config, without running it.\n\n"
        "options");
    d.add_options()
        ("input", po::value(&a.input), "input .npy (only its shape is used)")
        ("weights", po::value(&a.weights), "weights .npy (only its shape is used)")
        ("shape", po::value(&a.shape), "input shape N,H,W,C")
        ("kernel", po::value(&a.kernel), "kernel R or R,S")
        ("out-channels", po::value(&a.out_channels), "output channels K");
    add_geometry_options(d, a.stride, a.pad, a.dilation);
    add_hw_option(d, a.hw);
    d.add_options()
        ("json", po::value(&a.json), "also write the plan as JSON to this file");
    if (!parse_options(args, d)) return 0;
    check_output_paths({{"--json", a.json}}, {a.input, a.weights, a.hw});
    const HwParams hw = derive_params(a.hw.empty() ? default_hw_config() : load_hw_config(a.hw));
    const Conv2dLayer layer = plan_layer(a);
    const Conv2dPlan plan = plan_conv2d(layer, hw);
    print_plan(layer, hw, plan);
    if (!a.json.empty()) write_file_atomic(a.json, plan_report(layer, hw, plan).dump(2) + "\n");
    return 0;
}

}  // namespace accel::cli
