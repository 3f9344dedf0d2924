// --budget (budget.hpp). The FPGAs are named by the part a user knows; the numbers come
// from the flow's synthesis report, which holds the device's capacity.
#include "explore/budget.hpp"

#include <charconv>
#include <map>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/text.hpp"

namespace accel::explore {
namespace {

// The FPGA budgets, by part, and the board flow that targets each.
const std::map<std::string, std::string>& fpga_boards() {
    static const std::map<std::string, std::string> boards = {{"ulx3s-85f", "ulx3s"}};
    return boards;
}

// "512KiB", "1MiB", "4096": bytes.
int64_t parse_size(const std::string& spec, const std::string& text) {
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    const std::string unit(end, text.data() + text.size());
    const std::map<std::string, int64_t> units = {{"", 1}, {"B", 1}, {"KiB", 1024},
                                                  {"MiB", 1024 * 1024}};
    if (ec != std::errc{} || n <= 0 || !units.count(unit) || n > (int64_t{1} << 40)) {
        throw Error(fmt::format("--budget '{}': expected sram=SIZE with SIZE a positive number "
                                "of bytes, KiB or MiB (512KiB)", printable(spec)));
    }
    return n * units.at(unit);
}

void add_budget(const std::string& spec, Budget& b) {
    if (spec.rfind("sram=", 0) == 0) {
        if (b.sram_bytes) throw Error("--budget: sram given twice");
        b.sram_bytes = parse_size(spec, spec.substr(5));
        return;
    }
    const auto it = fpga_boards().find(spec);
    if (it == fpga_boards().end()) {
        throw Error(fmt::format("--budget '{}': expected ulx3s-85f or sram=SIZE", printable(spec)));
    }
    if (b.fpga_board) throw Error("--budget: more than one FPGA");
    b.fpga_board = it->second;
}

}  // namespace

Budget parse_budget(const std::vector<std::string>& specs) {
    Budget b;
    for (const std::string& given : specs) {
        size_t start = 0;
        while (true) {
            const size_t comma = given.find(',', start);
            add_budget(given.substr(start, comma - start), b);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        b.text += (b.text.empty() ? "" : ",") + given;
    }
    return b;
}

std::string over_budget(const PointRow& row, const Budget& b) {
    if (!row.valid) return "invalid";
    if (b.sram_bytes && row.sram_bytes > *b.sram_bytes) {
        return fmt::format("{} bytes of SRAM > {}", row.sram_bytes, *b.sram_bytes);
    }
    if (!b.fpga_board) return "";
    if (!row.area || !b.capacity) return "no area: synthesize points first (--synth N)";
    const Area& a = *row.area;
    const FpgaCapacity& c = *b.capacity;
    if (a.luts > c.luts) return fmt::format("{} LUT4 > {}", a.luts, c.luts);
    if (a.dsps > c.dsps) return fmt::format("{} MULT18X18D > {}", a.dsps, c.dsps);
    if (a.brams > c.brams) return fmt::format("{} DP16KD > {}", a.brams, c.brams);
    return "";
}

}  // namespace accel::explore
