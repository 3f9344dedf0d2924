// accel: the host runtime CLI. A thin layer over the library (docs/cli.md).
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options/errors.hpp>

#include "backends/build_info.hpp"
#include "base/error.hpp"
#include "commands.hpp"

namespace {

constexpr const char* kUsage =
    "usage: accel <command> [options]\n"
    "\n"
    "commands:\n"
    "  bench    run a workload suite (resnet18) on a device: cycles and efficiency per layer\n"
    "  conv2d   run one int8 conv2d on a backend and write its output (.npy)\n"
    "  exec     run a raw instruction program (a DRAM image) on a device\n"
    "  explore  sweep hardware configs for a model: cost model, Pareto front, budgets\n"
    "  plan     show how a conv2d layer is tiled on a hardware config\n"
    "  random   write a reproducible random int8/int32 tensor (.npy)\n"
    "  run      run a whole int8 TFLite model: cycles per operator, output, check\n"
    "\n"
    "Run 'accel <command> --help' for the options of a command.\n"
    "'accel --version' names this build.\n"
    "Exit codes: 0 success, 1 --check found a mismatch, 2 bad usage or input,\n"
    "3 device failure, 4 internal error (a bug: please report it).\n";

int dispatch(const std::vector<std::string>& argv) {
    if (argv.empty()) {
        throw accel::Error("no command given (run 'accel --help')");
    }
    const std::string& command = argv[0];
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage;
        return 0;
    }
    if (command == "--version") {
        std::cout << "accel " << accel::kVersion << " (git " << accel::kGitRevision
                  << ")\nVerilator models of the hardware configs:";
        for (size_t i = 0; i < accel::kBuiltConfigCount; ++i) {
            const accel::BuiltConfig& c = accel::kBuiltConfigs[i];
            std::cout << ' ' << c.name << " (sha256 " << c.yaml_sha256 << ')';
        }
        std::cout << '\n';
        return 0;
    }
    if (command == "conv2d") return accel::cli::run_conv2d(rest);
    if (command == "random") return accel::cli::run_random(rest);
    if (command == "plan") return accel::cli::run_plan(rest);
    if (command == "bench") return accel::cli::run_bench(rest);
    if (command == "exec") return accel::cli::run_exec(rest);
    if (command == "run") return accel::cli::run_run(rest);
    if (command == "explore") return accel::cli::run_explore(rest);
    if (command == "explore-job") return accel::cli::run_explore_job(rest);
    throw accel::Error("unknown command '" + command + "' (run 'accel --help')");
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return dispatch(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const accel::Error& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 2;
    } catch (const boost::program_options::error& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 2;
    } catch (const accel::DeviceError& e) {
        std::cerr << "error: device failure: " << e.what() << '\n';
        return 3;
    } catch (const std::bad_alloc&) {
        std::cerr << "error: " << accel::kOutOfMemory << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "error: internal: " << e.what() << '\n';
        return 4;
    }
}
