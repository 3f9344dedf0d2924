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

Json conv2d_report(const Conv2dLayer& layer, const HwParams& hw, const LayerResult& result) {
    const bool cycle_accurate = accel::cycle_accurate(result.backend);
    const int64_t roofline = roofline_cycles(layer, hw.config);
    Json r = {{"schema_version", kJsonSchemaVersion}, {"backend", backend_name(result.backend)},
              {"hw", hw.config.name}, {"layer", layer_json(layer)}, {"macs", layer.macs()},
              {"roofline_cycles", roofline},
              {"compulsory_dram_bytes", compulsory_bytes(layer).total()}};
    if (result.device) {
        const Conv2dPlan& p = result.device->plan;
        const Json plan = plan_json(p);
        const DeviceCounters& c = result.device->counters;
        r["cycles"] = cycle_accurate ? Json(c.cycles) : Json(nullptr);
        r["predicted_cycles"] = p.predicted_cycles;
        r["ideal_cycles"] = p.ideal_cycles;
        r["efficiency"] =
            efficiency_json(roofline, cycle_accurate ? static_cast<int64_t>(c.cycles) : 0);
        r["dram_read_bytes"] = c.load_bytes + c.fetch_bytes;
        r["dram_write_bytes"] = c.drain_bytes;
        r["buffers"] = plan["buffers"];
        r["lowering"] = plan["lowering"];
        r["tile"] = plan["tile"];
        r["gemm_steps"] = c.gemm_steps;
        r["instructions"] = p.instructions;
        if (cycle_accurate) {
            r["unit_busy_cycles"] = {{"load", c.load_busy}, {"compute", c.gemm_busy},
                                     {"drain", c.drain_busy}};
            r["unit_wait_cycles"] = {{"load", c.load_wait}, {"compute", c.gemm_wait},
                                     {"drain", c.drain_wait}};
        }
    } else {
        r["ideal_cycles"] = direct_gemm_cycles(layer, hw.config);
    }
    r["sim_seconds"] = result.seconds;
    if (cycle_accurate && result.device && result.seconds > 0) {
        r["sim_cycles_per_second"] =
            static_cast<double>(result.device->counters.cycles) / result.seconds;
    } else {
        r["sim_cycles_per_second"] = nullptr;
    }
    if (result.check) r["bit_exact"] = result.check->bit_exact();
    return r;
}

Json plan_report(const Conv2dLayer& layer, const HwParams& hw, const Conv2dPlan& plan) {
    Json j = {{"schema_version", kJsonSchemaVersion}};
    j.update(plan_json(plan));
    j["layer"] = layer_json(layer);
    j["hw"] = hw.config.name;
    j["roofline_cycles"] = roofline_cycles(layer, hw.config);
    return j;
}

void OperatorTotals::add(const OperatorRun& r) {
    ++ops;
    macs += r.macs;
    cycles += r.cycles;
    predicted += r.predicted_cycles;
    roofline += r.roofline_cycles;
    read += r.dram_read_bytes;
    write += r.dram_write_bytes;
    host_seconds += r.host_seconds;
}

namespace {

// A device operator's figures in one inference.
nlohmann::json device_run_json(const OperatorRun& r) {
    return {{"cycles", r.cycles},
            {"predicted_cycles", r.predicted_cycles},
            {"roofline_cycles", r.roofline_cycles},
            {"efficiency", efficiency_json(r.roofline_cycles, r.cycles)},
            {"dram_read_bytes", r.dram_read_bytes},
            {"dram_write_bytes", r.dram_write_bytes}};
}

// The device operators' totals in one inference.
nlohmann::json device_totals_json(const OperatorTotals& t) {
    return {{"device_cycles", t.cycles},
            {"device_predicted_cycles", t.predicted},
            {"device_roofline_cycles", t.roofline},
            {"device_efficiency", efficiency_json(t.roofline, t.cycles)},
            {"dram_read_bytes", t.read},
            {"dram_write_bytes", t.write}};
}

// The steady state's totals: the device operators of the last inference.
nlohmann::json steady_json(const NetworkRun& run) {
    if (run.steady.empty()) return nullptr;
    return device_totals_json(device_totals(run.steady));
}

}  // namespace

OperatorTotals device_totals(const std::vector<OperatorRun>& ops) {
    OperatorTotals t;
    for (const OperatorRun& r : ops) {
        if (r.placement == network::Placement::Device) t.add(r);
    }
    return t;
}

// Unordered, as it always was: its keys are written sorted.
nlohmann::json network_report(const std::string& model, Backend backend, const HwParams& hw,
                              const NetworkRun& run, bool checked, double wall_seconds) {
    using json = nlohmann::json;
    json ops = json::array();
    OperatorTotals device, all;
    for (size_t i = 0; i < run.operators.size(); ++i) {
        const OperatorRun& r = run.operators[i];
        json o = {{"index", r.index},
                  {"type", r.type},
                  {"where", network::placement_name(r.placement)},
                  {"input_shapes", r.input_shapes},
                  {"output_shape", r.output_shape},
                  {"macs", r.macs},
                  {"host_seconds", r.host_seconds}};
        if (r.placement == network::Placement::Device) {
            o.update(device_run_json(r));
            o["weights_resident"] = r.weights_resident;
            o["params_resident"] = r.params_resident;
            if (i < run.steady.size()) o["steady"] = device_run_json(run.steady[i]);
            device.add(r);
        }
        all.add(r);
        ops.push_back(o);
    }
    json j = {{"schema_version", kJsonSchemaVersion},
              {"model", model},
              {"backend", backend_name(backend)},
              {"hw", hw.config.name},
              {"operators", ops},
              {"totals", device_totals_json(device)},
              {"arena", {{"peak_bytes", run.arena_bytes}, {"constant_bytes", run.constant_bytes}}},
              {"inferences", run.inferences},
              {"steady_state", steady_json(run)},
              {"resident_constants",
               {{"tensors", run.resident_tensors}, {"bytes", run.resident_bytes}}}};
    j["totals"].update({{"operators", all.ops},
                        {"macs", all.macs},
                        {"host_seconds", all.host_seconds},
                        {"device_seconds", run.device_seconds},
                        {"wall_seconds", wall_seconds}});
    if (checked) {
        j["check"] = {{"tensors_compared", run.tensors_checked},
                      {"elements_compared", run.elements_checked},
                      {"bit_exact", !run.mismatch.has_value()}};
    }
    return j;
}

}  // namespace accel
