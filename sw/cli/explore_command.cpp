// accel explore: a design-space sweep of hardware configs for one model or suite
// (docs/explore.md), a thin layer over explore/explore.hpp; and accel explore-job, one
// chunk of the sweep's points, which the engines run.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include "base/error.hpp"
#include "explore/explore.hpp"
#include "explore/sweep_dir.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "shared_options.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace accel::cli {
namespace {

using namespace accel::explore;

struct ExploreArgs {
    ExploreOptions o;
    std::string chunk, jobs, synth, route, confirm, synth_cells, area;
};

po::options_description explore_options(ExploreArgs& a) {
    po::options_description d = command_options(
        "usage: accel explore --space SPACE.yaml (--model M.tflite | --suite NAME) --out DIR "
        "[options]\n\n"
        "Predicts every hardware config of SPACE.yaml on the model with the kit's cost model,\n"
        "as jobs on GNU parallel or Slurm, optionally synthesizes points of the front, and\n"
        "prints the Pareto front of time per inference against SRAM (and area)\n"
        "(docs/explore.md). Run again with the same --out to resume.\n\noptions");
    d.add_options()
        ("space", po::value(&a.o.space), "the design space (docs/explore.md)")
        ("model", po::value(&a.o.model), "an int8 TFLite model, planned as accel run plans it")
        ("suite", po::value(&a.o.suite), "a workload suite's conv2d layers (resnet18)")
        ("out", po::value(&a.o.out), "directory of the results (points.csv, points.json) and "
                                     "of the jobs' files (jobs/); created if missing")
        ("budget", po::value(&a.o.budgets)->composing(),
         "ulx3s-85f and/or sram=SIZE (512KiB), repeated or comma-separated")
        ("engine", po::value(&a.o.engine.engine), "local (GNU parallel, default) | slurm "
                                                  "(an sbatch --array)")
        ("jobs", po::value(&a.jobs), "local: jobs at once (default: one per core)")
        ("sshlogin", po::value(&a.o.engine.sshlogins)->composing(),
         "local: run jobs on this host too (GNU parallel's --sshlogin; the directories "
         "must be shared)")
        ("sbatch-arg", po::value(&a.o.engine.sbatch_args)->composing(),
         "slurm: one more sbatch option, e.g. --sbatch-arg=--partition=big")
        ("chunk", po::value(&a.chunk), "points per cost-model job (default: the points / 64, "
                                       "at least 1)")
        ("synth", po::value(&a.synth), "synthesize N points for the ULX3S (Yosys synth_ecp5, "
                                       "minutes each; spread over the space's MACs and SRAM) "
                                       "and fit the area model to them")
        ("synth-cells", po::value(&a.synth_cells),
         "synthesize N points with Yosys' generic synth (accel_top alone, memories counted "
         "in bits, minutes each): cell counts for ASIC-style comparisons")
        ("area", po::value(&a.area), "the front's area axis: fpga (the largest fraction of "
                                     "the FPGA's LUT4, DSP, BRAM; default) | cells (the "
                                     "generic synthesis' cells)")
        ("route", po::value(&a.route), "place and route the N fastest points of the front "
                                       "(nextpnr, tens of minutes each): their routed Fmax")
        ("confirm", po::value(&a.confirm), "run the model on the RTL of N points (the best "
                                           "within the budget, the front's fastest), each "
                                           "config's Verilated model built once and cached")
        ("cache", po::value(&a.o.flow.cache_dir), "the FPGA flow's and RTL builds' cache, by "
                                                  "config hash "
                                                  "(default: BUILD/explore-cache)")
        ("kit", po::value(&a.o.flow.source_dir), "the kit's source tree, for its FPGA flow "
                                                 "(default: the one accel was built from)")
        ("build", po::value(&a.o.flow.build_dir), "a configured build of the kit (default: "
                                                  "the one accel was built in)");
    return d;
}

}  // namespace

int run_explore(const std::vector<std::string>& args) {
    ExploreArgs a;
    a.o.flow = {ACCEL_SOURCE_DIR, ACCEL_BINARY_DIR, std::string(ACCEL_BINARY_DIR) + "/explore-cache"};
    if (!parse_options(args, explore_options(a))) return 0;
    if (!a.jobs.empty()) a.o.engine.jobs = static_cast<int>(parse_int("--jobs", a.jobs, 1, 4096));
    if (!a.chunk.empty()) a.o.chunk_points = parse_int("--chunk", a.chunk, 1, kMaxPoints);
    if (!a.synth.empty()) a.o.synth = static_cast<int>(parse_int("--synth", a.synth, 0, 10000));
    if (!a.synth_cells.empty()) {
        a.o.synth_cells = static_cast<int>(parse_int("--synth-cells", a.synth_cells, 0, 10000));
    }
    if (!a.area.empty()) a.o.area = parse_area_axis(a.area);
    if (!a.route.empty()) a.o.route = static_cast<int>(parse_int("--route", a.route, 0, 10000));
    if (!a.confirm.empty()) a.o.confirm = static_cast<int>(parse_int("--confirm", a.confirm, 0, 1000));
    a.o.flow.cache_dir = fs::absolute(a.o.flow.cache_dir).string();
    a.o.accel_executable = fs::read_symlink("/proc/self/exe").string();
    print_summary(explore::explore(a.o, std::cerr), std::cout);
    return 0;
}

int run_explore_job(const std::vector<std::string>& args) {
    if (args.size() != 2) throw Error("usage: accel explore-job DIR CHUNK (one job of accel explore)");
    SweepDir::open(args[0]).run_chunk(parse_int("CHUNK", args[1], 0, kMaxPoints));
    return 0;
}

}  // namespace accel::cli
