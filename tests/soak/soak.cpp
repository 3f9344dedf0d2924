// The soak (docs/reliability.md, "Soak"): N random layers through fsim and M through
// the RTL, under a random DRAM fault plan each, on every config asked for, each against
// the golden reference. Prints each failure with the seed that replays it, and
// "N passed, M failed". Exit 0 when nothing failed, 1 when something did, 2 on bad usage.
//
//   soak [--fsim N] [--rtl M] [--configs default,tiny] [--first-seed S]
//   soak --replay fsim|rtl:CONFIG:SEED
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/error.hpp"
#include "compiler/planner.hpp"
#include "devices/fsim.hpp"
#include "fault_run.hpp"
#include "hw/hw_config.hpp"
#include "ops/reference.hpp"
#include "random_layer.hpp"
#include "runtime/runtime.hpp"
#include "shipped_hw.hpp"

namespace {

using namespace accel;

// One in four RTL layers gets an error response besides the stalls, backpressure and
// reordering its plan may draw.
constexpr double kErrorShare = 0.25;

struct Result {
    bool ok = false;
    bool device_error = false;  // an expected, named device error
    std::string what;
};

// Layers of up to 3x20x20x40 -> 40 channels, kernels up to 7, strides up to 3,
// dilations up to 2 (testing::LayerLimits), on fsim and on the RTL alike.
testing::LayerCase layer_of(uint64_t seed) {
    std::mt19937 rng(static_cast<uint32_t>(seed));
    return testing::random_layer(rng, testing::LayerLimits{});
}

Result run_fsim(const HwParams& hw, uint64_t seed) {
    const testing::LayerCase c = layer_of(seed);
    const DeviceFactory fsim = [](const HwParams& p, uint64_t bytes) -> std::unique_ptr<Device> {
        return std::make_unique<FunctionalSim>(p, bytes);
    };
    const Conv2dRun run = run_conv2d(fsim, hw, c.layer, plan_conv2d(c.layer, hw), c.x, c.w, c.bias);
    const bool exact = run.y.data == conv2d_reference(c.layer, c.x, c.w, c.bias).data;
    return {exact, false, exact ? "bit-exact" : "differs from the golden reference"};
}

Result run_rtl(const HwParams& hw, uint64_t seed) {
    const sim::DramFaultPlan plan = testing::random_fault_plan(seed, kErrorShare);
    const testing::FaultRunOutcome o = testing::run_with_faults(hw, layer_of(seed), plan);
    return {o.ok, o.device_error, fmt::format("faults {}: {}", plan.to_string(), o.what)};
}

Result run_one(bool rtl, const HwParams& hw, uint64_t seed) {
    try {
        return rtl ? run_rtl(hw, seed) : run_fsim(hw, seed);
    } catch (const std::exception& e) {  // any exception the rules do not allow
        return {false, false, std::string("exception: ") + e.what()};
    }
}

struct Totals {
    uint64_t passed = 0, failed = 0;
};

void soak(bool rtl, const std::string& config, uint64_t count, uint64_t first_seed, Totals& t) {
    const HwParams& hw = test::shipped_hw(config);
    const char* mode = rtl ? "rtl" : "fsim";
    const auto start = std::chrono::steady_clock::now();
    uint64_t passed = 0, failed = 0, device_errors = 0;
    for (uint64_t seed = first_seed; seed < first_seed + count; ++seed) {
        const Result r = run_one(rtl, hw, seed);
        if (r.ok) {
            ++passed;
            device_errors += r.device_error ? 1 : 0;
        } else {
            ++failed;
            std::printf("FAILED %s:%s:%llu: %s\n", mode, config.c_str(),
                        static_cast<unsigned long long>(seed), r.what.c_str());
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s %s: %llu passed, %llu failed in %.0f s", mode, config.c_str(),
                static_cast<unsigned long long>(passed), static_cast<unsigned long long>(failed),
                seconds);
    if (rtl) {
        std::printf(" (%llu of the passed ended in a named device error, the rest bit-exact)",
                    static_cast<unsigned long long>(device_errors));
    }
    std::printf("\n");
    std::fflush(stdout);
    t.passed += passed;
    t.failed += failed;
}

uint64_t parse_count(const std::string& option, const std::string& text) {
    try {
        size_t used = 0;
        const unsigned long long v = std::stoull(text, &used);
        if (used == text.size() && text[0] != '-') return v;
    } catch (const std::exception&) {
    }
    throw Error(fmt::format("{} '{}': not a non-negative integer", option, text));
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    size_t begin = 0;
    while (true) {
        const size_t end = s.find(sep, begin);
        parts.push_back(s.substr(begin, end - begin));
        if (end == std::string::npos) return parts;
        begin = end + 1;
    }
}

// --replay MODE:CONFIG:SEED, as a failure line prints it.
int replay(const std::string& what) {
    const std::vector<std::string> p = split(what, ':');
    if (p.size() != 3 || (p[0] != "fsim" && p[0] != "rtl")) {
        throw Error(fmt::format("--replay '{}': expected fsim|rtl:CONFIG:SEED", what));
    }
    const Result r = run_one(p[0] == "rtl", test::shipped_hw(p[1]), parse_count("--replay", p[2]));
    std::printf("%s: %s\n", r.ok ? "passed" : "FAILED", r.what.c_str());
    return r.ok ? 0 : 1;
}

int run(const std::vector<std::string>& args) {
    uint64_t fsim = 10000, rtl = 500, first_seed = 1;
    std::string configs = "default,tiny";
    for (size_t i = 0; i < args.size(); i += 2) {
        if (i + 1 >= args.size()) throw Error(fmt::format("{}: needs a value", args[i]));
        const std::string& v = args[i + 1];
        if (args[i] == "--fsim") fsim = parse_count("--fsim", v);
        else if (args[i] == "--rtl") rtl = parse_count("--rtl", v);
        else if (args[i] == "--first-seed") first_seed = parse_count("--first-seed", v);
        else if (args[i] == "--configs") configs = v;
        else if (args[i] == "--replay") return replay(v);
        else throw Error(fmt::format("{}: unknown option", args[i]));
    }
    Totals t;
    for (const std::string& config : split(configs, ',')) {
        soak(false, config, fsim, first_seed, t);
        soak(true, config, rtl, first_seed, t);
    }
    std::printf("%llu passed, %llu failed\n", static_cast<unsigned long long>(t.passed),
                static_cast<unsigned long long>(t.failed));
    return t.failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const accel::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
}
