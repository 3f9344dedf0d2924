#include "runtime/report.hpp"

#include "compiler/metrics.hpp"

namespace accel {

using Json = nlohmann::ordered_json;

Json layer_json(const Conv2dLayer& l) {
    const Conv2dShape& s = l.shape;
    const Conv2dParams& p = l.params;
    return {{"n", s.n}, {"h", s.h}, {"w", s.w}, {"c", s.c}, {"k", s.k}, {"r", s.r}, {"s", s.s},
            {"out_h", l.out_h()}, {"out_w", l.out_w()},
            {"stride", {p.stride_h, p.stride_w}},
            {"pad", {p.pad_top, p.pad_bottom, p.pad_left, p.pad_right}},
            {"dilation", {p.dilation_h, p.dilation_w}},
            {"input_zero_point", p.input_zero_point}, {"output_zero_point", p.output_zero_point},
            {"act_min", p.act_min}, {"act_max", p.act_max}};
}

namespace {

Json buffer_json(const BufferUse& b) {
    return {{"used_bytes", b.used_bytes()}, {"capacity_bytes", b.capacity_bytes()},
            {"entries", b.entries}, {"buffers", b.buffers}};
}

}  // namespace

Json plan_json(const Conv2dPlan& p) {
    return {{"lowering", lowering_name(p.lowering)},
            {"tile", {{"out_rows", p.tile.oh}, {"out_cols", p.tile.ow},
                      {"out_channel_blocks", p.tile.kb}, {"in_channel_blocks", p.tile.cb},
                      {"kernel_rows", p.tile.r}, {"kernel_cols", p.tile.s},
                      {"loop_order", loop_order_name(p.order)}}},
            {"buffers", {{"input", buffer_json(p.inp)}, {"weight", buffer_json(p.wgt)},
                         {"acc", buffer_json(p.acc)}, {"params", buffer_json(p.prm)}}},
            {"predicted_cycles", p.predicted_cycles},
            {"ideal_cycles", p.ideal_cycles},
            {"predicted_dram_read_bytes", p.dram_read_bytes},
            {"predicted_dram_write_bytes", p.dram_write_bytes},
            {"instructions", p.instructions}};
}

Json efficiency_json(int64_t roofline_cycles, int64_t cycles) {
    if (cycles <= 0) return nullptr;
    return static_cast<double>(roofline_cycles) / static_cast<double>(cycles);
}

Json conv2d_report(const Conv2dLayer& layer, const HwParams& hw, const RunFacts& f) {
    const int64_t roofline = roofline_cycles(layer, hw.config);
    Json r = {{"schema_version", kJsonSchemaVersion}, {"backend", f.backend},
              {"hw", hw.config.name}, {"layer", layer_json(layer)}, {"macs", layer.macs()},
              {"roofline_cycles", roofline},
              {"compulsory_dram_bytes", compulsory_bytes(layer).total()}};
    if (f.plan != nullptr) {
        const Json plan = plan_json(*f.plan);
        const DeviceCounters& c = *f.counters;
        r["cycles"] = f.cycle_accurate ? Json(c.cycles) : Json(nullptr);
        r["predicted_cycles"] = f.plan->predicted_cycles;
        r["ideal_cycles"] = f.plan->ideal_cycles;
        r["efficiency"] =
            efficiency_json(roofline, f.cycle_accurate ? static_cast<int64_t>(c.cycles) : 0);
        r["dram_read_bytes"] = c.load_bytes + c.fetch_bytes;
        r["dram_write_bytes"] = c.drain_bytes;
        r["buffers"] = plan["buffers"];
        r["lowering"] = plan["lowering"];
        r["tile"] = plan["tile"];
        r["gemm_steps"] = c.gemm_steps;
        r["instructions"] = f.plan->instructions;
        if (f.cycle_accurate) {
            r["unit_busy_cycles"] = {{"load", c.load_busy}, {"compute", c.gemm_busy},
                                     {"drain", c.drain_busy}};
            r["unit_wait_cycles"] = {{"load", c.load_wait}, {"compute", c.gemm_wait},
                                     {"drain", c.drain_wait}};
        }
    } else {
        r["ideal_cycles"] = direct_gemm_cycles(layer, hw.config);
    }
    r["sim_seconds"] = f.sim_seconds;
    if (f.cycle_accurate && f.counters != nullptr && f.sim_seconds > 0) {
        r["sim_cycles_per_second"] = static_cast<double>(f.counters->cycles) / f.sim_seconds;
    } else {
        r["sim_cycles_per_second"] = nullptr;
    }
    if (f.bit_exact.has_value()) r["bit_exact"] = *f.bit_exact;
    return r;
}

}  // namespace accel
