// A point's row to and from the JSON of a job's result and of the sweep's output.
#include "explore/point_row.hpp"

namespace accel::explore {

nlohmann::json row_json(const PointRow& r) {
    nlohmann::json j = {{"index", r.index}, {"hash", r.hash}, {"values", r.values},
                        {"valid", r.valid}};
    if (!r.valid) {
        j["reason"] = r.reason;
        return j;
    }
    j.update({{"cycles", r.cycles}, {"sram_bytes", r.sram_bytes},
              {"device_layers", r.device_layers}, {"clock_mhz", r.clock_mhz},
              {"micros", r.micros}});
    if (r.area) {
        j["area"] = {{"luts", r.area->luts}, {"ffs", r.area->ffs}, {"dsps", r.area->dsps},
                     {"brams", r.area->brams}, {"measured", r.area->measured}};
    }
    if (r.cells) {
        j["cells"] = {{"cells", r.cells->cells}, {"flip_flops", r.cells->flip_flops},
                      {"memory_bits", r.cells->memory_bits}, {"measured", r.cells->measured}};
    }
    if (r.fmax_mhz) j["fmax_mhz"] = *r.fmax_mhz;
    if (r.rtl_cycles) j["rtl_cycles"] = *r.rtl_cycles;
    return j;
}

PointRow row_from_json(const nlohmann::json& j) {
    PointRow r;
    r.index = j.at("index").get<int64_t>();
    r.hash = j.at("hash").get<std::string>();
    r.values = j.at("values").get<std::vector<std::string>>();
    r.valid = j.at("valid").get<bool>();
    if (!r.valid) {
        r.reason = j.at("reason").get<std::string>();
        return r;
    }
    r.cycles = j.at("cycles").get<int64_t>();
    r.sram_bytes = j.at("sram_bytes").get<int64_t>();
    r.device_layers = j.at("device_layers").get<int64_t>();
    r.clock_mhz = j.at("clock_mhz").get<int>();
    r.micros = j.at("micros").get<double>();
    if (j.contains("area")) {
        const nlohmann::json& a = j["area"];
        r.area = Area{a.at("luts").get<int64_t>(), a.at("ffs").get<int64_t>(),
                      a.at("dsps").get<int64_t>(), a.at("brams").get<int64_t>(),
                      a.at("measured").get<bool>()};
    }
    if (j.contains("cells")) {
        const nlohmann::json& c = j["cells"];
        r.cells = CellCount{c.at("cells").get<int64_t>(), c.at("flip_flops").get<int64_t>(),
                            c.at("memory_bits").get<int64_t>(), c.at("measured").get<bool>()};
    }
    if (j.contains("fmax_mhz")) r.fmax_mhz = j["fmax_mhz"].get<double>();
    if (j.contains("rtl_cycles")) r.rtl_cycles = j["rtl_cycles"].get<int64_t>();
    return r;
}

}  // namespace accel::explore
