// accel exec: run a raw instruction program (docs/isa.md) on a device. For accelerator
// designers who write their own streams: the DRAM image in, the DRAM image and the
// counters out, and a device error (error mask != 0, watchdog, cycle budget) as exit 3
// with the error bits or the units' states named.
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "devices/device.hpp"
#include "hw/dram_bus.hpp"
#include "hw/hw_config.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"
#include "runtime/report.hpp"
#include "device_options.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "shared_options.hpp"

namespace po = boost::program_options;

namespace accel::cli {
namespace {

struct ExecArgs {
    std::string dram, insn_addr, insn_count, dram_size, hw, dump, counters, trace, watchdog;
    std::string trace_window, faults;
    std::string max_cycles;
    std::string backend = "verilator";
};

po::options_description exec_options(ExecArgs& a) {
    po::options_description d = command_options(
        "usage: accel exec --dram IMAGE.bin --insn-addr A --insn-count N [options]\n\n"
        "Runs a raw instruction stream (docs/isa.md) on a device: IMAGE.bin is loaded at DRAM\n"
        "address 0, the device runs N instructions from address A. Exit 3 when the device\n"
        "reports an error (the error bits are named) or stops responding.\n\noptions");
    d.add_options()
        ("dram", po::value(&a.dram), "DRAM image, loaded at address 0 (required)")
        ("insn-addr", po::value(&a.insn_addr), "byte address of the first instruction, "
                                               "decimal or 0x hex (required)")
        ("insn-count", po::value(&a.insn_count), "instructions to run (required)")
        ("dram-size", po::value(&a.dram_size), "DRAM bytes, at least the image's size, below "
                                               "2^32 (default: the image's size)");
    add_hw_option(d, a.hw);
    d.add_options()
        ("backend", po::value(&a.backend), "verilator | fsim (default verilator)")
        ("dump", po::value(&a.dump), "write the whole DRAM after the run to this file")
        ("counters", po::value(&a.counters), "write the device counters as JSON to this file");
    add_trace_options(d, a.trace, a.trace_window, "since the run started");
    d.add_options()
        ("faults", po::value(&a.faults), kFaultsHelp)
        ("watchdog", po::value(&a.watchdog), "cycles without progress before the verilator "
                                             "device is declared hung (default 1000000)");
    add_max_cycles_option(d, a.max_cycles);
    return d;
}

void check_args(const ExecArgs& a) {
    if (a.dram.empty() || a.insn_addr.empty() || a.insn_count.empty()) {
        throw Error("--dram, --insn-addr and --insn-count are required (see 'accel exec "
                    "--help')");
    }
    if (a.backend != "fsim" && a.backend != "verilator") {
        throw Error(fmt::format("--backend {}: unknown; expected verilator or fsim", a.backend));
    }
    if (!a.trace.empty() && a.backend != "verilator") {
        throw Error("--trace: only the verilator backend writes waveforms");
    }
    if (!a.watchdog.empty() && a.backend != "verilator") {
        throw Error("--watchdog: only the verilator backend has a watchdog");
    }
    check_output_paths({{"--dump", a.dump}, {"--counters", a.counters}, {"--trace", a.trace}},
                       {a.dram, a.hw});
}

nlohmann::ordered_json counters_json(const Device& device, const DeviceCounters& c) {
    return {{"schema_version", kJsonSchemaVersion},
            {"device", device.name()},
            {"errors", c.errors},
            {"error_names", isa::error_names(c.errors)},
            {"load_insns", c.load_insns},
            {"gemm_insns", c.gemm_insns},
            {"drain_insns", c.drain_insns},
            {"gemm_steps", c.gemm_steps},
            {"load_bytes", c.load_bytes},
            {"drain_bytes", c.drain_bytes},
            {"cycles", c.cycles},
            {"fetch_bytes", c.fetch_bytes},
            {"load_busy", c.load_busy},
            {"gemm_busy", c.gemm_busy},
            {"drain_busy", c.drain_busy},
            {"load_wait", c.load_wait},
            {"gemm_wait", c.gemm_wait},
            {"drain_wait", c.drain_wait}};
}

std::string summary(const DeviceCounters& c) {
    return fmt::format("completed {} load, {} gemm, {} drain instructions; {} GEMM steps, "
                       "{} bytes loaded, {} bytes drained, {} cycles",
                       c.load_insns, c.gemm_insns, c.drain_insns, c.gemm_steps, c.load_bytes,
                       c.drain_bytes, c.cycles);
}

}  // namespace

int run_exec(const std::vector<std::string>& args) {
    ExecArgs a;
    const po::options_description desc = exec_options(a);
    if (!parse_options(args, desc)) return 0;
    check_args(a);
    const auto insn_addr =
        static_cast<uint32_t>(parse_uint("--insn-addr", a.insn_addr, 0, UINT32_MAX));
    const auto insn_count =
        static_cast<uint32_t>(parse_uint("--insn-count", a.insn_count, 0, UINT32_MAX));
    VerilatorOptions options =
        trace_and_fault_options(a.trace, a.trace_window, a.faults, a.backend);
    if (!a.watchdog.empty()) {
        options.watchdog_cycles = parse_uint("--watchdog", a.watchdog, 1, UINT64_MAX >> 1);
    }
    const HwParams hw = derive_params(a.hw.empty() ? default_hw_config() : load_hw_config(a.hw));
    const std::string image = read_file(a.dram);
    if (image.empty()) throw Error(fmt::format("--dram {}: the image is empty", a.dram));
    if (image.size() > dram_bus::kMaxDramBytes) {
        throw Error(fmt::format("--dram {}: {} bytes; the DRAM holds at most {}", a.dram,
                                image.size(), dram_bus::kMaxDramBytes));
    }
    const uint64_t dram_bytes =
        a.dram_size.empty() ? image.size()
                            : parse_uint("--dram-size", a.dram_size, image.size(), dram_bus::kMaxDramBytes);
    // A hand-written stream may be legal and still practically endless (one GEMM of
    // 65535-sized loops is 10^22 steps): the devices cap their default budget.
    options.max_cycles = parse_max_cycles(a.max_cycles);

    const std::unique_ptr<Device> device = backend_factory(a.backend, options)(hw, dram_bytes);
    device->write_dram(0, {reinterpret_cast<const uint8_t*>(image.data()), image.size()});
    const DeviceCounters c = device->run(insn_addr, insn_count);
    if (c.errors != 0) {
        throw DeviceError(fmt::format(
            "{} reported {} (error mask 0x{:02x}) running {} instructions from 0x{:08x}; {}",
            device->name(), isa::error_names(c.errors), c.errors, insn_count, insn_addr,
            summary(c)));
    }
    // The dump and the counters appear together or not at all.
    std::string dump, counters;
    std::vector<std::pair<std::string, std::string_view>> files;
    if (!a.dump.empty()) {
        dump.assign(device->dram_bytes(), '\0');
        device->read_dram(0, {reinterpret_cast<uint8_t*>(dump.data()), dump.size()});
        files.emplace_back(a.dump, dump);
    }
    if (!a.counters.empty()) {
        counters = counters_json(*device, c).dump(2) + "\n";
        files.emplace_back(a.counters, counters);
    }
    if (!files.empty()) write_files_atomic(files);
    std::cout << fmt::format("{}: OK; {}\n", device->name(), summary(c));
    return 0;
}

}  // namespace accel::cli
