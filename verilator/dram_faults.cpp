#include "dram_faults.hpp"

#include <charconv>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/text.hpp"

namespace accel::sim {
namespace {

// Below 1: a ready that always drops would stop the bus for good.
constexpr double kMaxBackpressure = 0.9;
// Longer stalls than this test nothing more and only slow a run down.
constexpr uint32_t kMaxStallCycles = 100000;

struct ChannelName {
    const char* name;
    DramChannel channel;
};
constexpr ChannelName kChannelNames[] = {
    {"ar", kChanAr}, {"r", kChanR}, {"aw", kChanAw}, {"w", kChanW}, {"b", kChanB}};

[[noreturn]] void bad(const std::string& spec, std::string_view item, const std::string& why) {
    throw Error(fmt::format("fault plan '{}': {} {}", printable(spec), printable(item), why));
}

template <typename T>
bool parse_number(std::string_view text, T& out) {
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
}

double probability(const std::string& spec, std::string_view item, std::string_view value,
                   double max) {
    double p = 0;
    if (!parse_number(value, p) || !(p >= 0 && p <= max)) {
        bad(spec, item, fmt::format("needs a probability in [0, {}]", max));
    }
    return p;
}

void parse_stall_cycles(const std::string& spec, std::string_view item, std::string_view value,
                        DramFaultPlan& plan) {
    const size_t dash = value.find('-');
    const std::string_view lo = value.substr(0, dash);
    const std::string_view hi = dash == std::string_view::npos ? lo : value.substr(dash + 1);
    if (!parse_number(lo, plan.stall_min) || !parse_number(hi, plan.stall_max) ||
        plan.stall_min < 1 || plan.stall_min > plan.stall_max || plan.stall_max > kMaxStallCycles) {
        bad(spec, item, fmt::format("needs cycles LO-HI with 1 <= LO <= HI <= {}", kMaxStallCycles));
    }
}

unsigned parse_channels(const std::string& spec, std::string_view item, std::string_view value) {
    unsigned mask = 0;
    while (true) {
        const size_t plus = value.find('+');
        const std::string_view name = value.substr(0, plus);
        bool known = false;
        for (const ChannelName& c : kChannelNames) {
            if (name == c.name) mask |= c.channel, known = true;
        }
        if (!known) bad(spec, item, "needs channels among ar, r, aw, w, b joined by '+'");
        if (plus == std::string_view::npos) return mask;
        value.remove_prefix(plus + 1);
    }
}

DramErrorFault parse_error(const std::string& spec, std::string_view item, std::string_view value,
                           uint8_t resp) {
    DramErrorFault e;
    e.resp = resp;
    const size_t colon = value.find(':');
    const std::string_view dir = value.substr(0, colon);
    e.write = dir == "write";
    if ((dir != "read" && dir != "write") || colon == std::string_view::npos ||
        !parse_number(value.substr(colon + 1), e.burst) || e.burst < 1) {
        bad(spec, item, "needs read:N or write:N, N >= 1 (the N-th burst)");
    }
    return e;
}

void parse_item(const std::string& spec, std::string_view item, DramFaultPlan& plan) {
    if (item.empty()) throw Error(fmt::format("fault plan '{}': has an empty item", printable(spec)));
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) bad(spec, item, "is not KEY=VALUE");
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "seed") {
        if (!parse_number(value, plan.seed)) bad(spec, item, "needs an unsigned 64-bit integer");
    } else if (key == "backpressure") {
        plan.backpressure = probability(spec, item, value, kMaxBackpressure);
    } else if (key == "stall") {
        plan.stall = probability(spec, item, value, 1.0);
    } else if (key == "stall-cycles") {
        parse_stall_cycles(spec, item, value, plan);
    } else if (key == "stall-on") {
        plan.stall_on = parse_channels(spec, item, value);
    } else if (key == "reorder") {
        plan.reorder = probability(spec, item, value, 1.0);
    } else if (key == "slverr" || key == "decerr") {
        plan.errors.push_back(parse_error(spec, item, value, key == "slverr" ? 2 : 3));
    } else {
        bad(spec, item, "is unknown; expected seed, backpressure, stall, stall-cycles, stall-on, "
                        "reorder, slverr or decerr");
    }
}

}  // namespace

DramFaultPlan parse_dram_fault_plan(const std::string& spec) {
    if (spec.empty()) throw Error("fault plan '': names no fault");
    DramFaultPlan plan;
    std::string_view rest = spec;
    while (true) {
        const size_t comma = rest.find(',');
        parse_item(spec, rest.substr(0, comma), plan);
        if (comma == std::string_view::npos) return plan;
        rest.remove_prefix(comma + 1);
    }
}

std::string DramFaultPlan::to_string() const {
    std::string channels;
    for (const ChannelName& c : kChannelNames) {
        if ((stall_on & c.channel) == 0) continue;
        if (!channels.empty()) channels += '+';
        channels += c.name;
    }
    std::string s = fmt::format("seed={},backpressure={},stall={},stall-cycles={}-{},stall-on={},"
                                "reorder={}",
                                seed, backpressure, stall, stall_min, stall_max, channels, reorder);
    for (const DramErrorFault& e : errors) {
        s += fmt::format(",{}={}:{}", e.resp == 3 ? "decerr" : "slverr", e.write ? "write" : "read",
                         e.burst);
    }
    return s;
}

const char* axi_resp_name(uint8_t resp) {
    static const char* const kNames[] = {"OKAY", "EXOKAY", "SLVERR", "DECERR"};
    return kNames[resp & 3];
}

unsigned DramFaultInjector::index(DramChannel c) {
    switch (c) {
        case kChanAr: return 0;
        case kChanR: return 1;
        case kChanAw: return 2;
        case kChanW: return 3;
        default: return 4;
    }
}

DramFaultInjector::DramFaultInjector(DramFaultPlan plan) : plan_(std::move(plan)), rng_(plan_.seed) {
    for (const ChannelName& c : kChannelNames) arm(c.channel);  // the first transfers too
}

bool DramFaultInjector::holds(DramChannel channel, uint64_t now) {
    Stall& s = stalls_[index(channel)];
    if (now < s.until) return true;
    const bool response = channel == kChanR || channel == kChanB;
    if (s.armed != 0) {
        if (response) start(s, now);  // asked only when the transfer is owed
        return true;
    }
    return !response && plan_.backpressure > 0 && draw(plan_.backpressure);
}

void DramFaultInjector::offered(DramChannel channel, uint64_t now) {
    Stall& s = stalls_[index(channel)];
    if (s.armed != 0) start(s, now + 1);  // held already in this cycle
}

void DramFaultInjector::arm(DramChannel c) {
    if (plan_.stall == 0 || (plan_.stall_on & c) == 0 || !draw(plan_.stall)) return;
    stalls_[index(c)].armed = static_cast<uint64_t>(rng_.uniform(plan_.stall_min, plan_.stall_max));
}

void DramFaultInjector::start(Stall& s, uint64_t now) {
    s.until = now + s.armed;
    s.armed = 0;
}

uint8_t DramFaultInjector::next_burst_resp(bool write) {
    const uint64_t n = ++(write ? write_bursts_ : read_bursts_);
    for (const DramErrorFault& e : plan_.errors) {
        if (e.write == write && e.burst == n) return e.resp;
    }
    return 0;
}

void DramFaultInjector::clear_stalls() {
    for (Stall& s : stalls_) s.until = 0;
}

}  // namespace accel::sim
