// accel explore: a design-space sweep of hardware configs for one model or suite
// (docs/explore.md). The command checks its inputs, writes the sweep's shared directory,
// hands the chunks of points to an engine (GNU parallel or Slurm) as `accel explore-job`
// runs, and merges their results into the front. accel explore-job is one such job.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "explore/budget.hpp"
#include "explore/job_engine.hpp"
#include "explore/sweep_dir.hpp"
#include "explore/sweep_report.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "shared_options.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace accel::cli {
namespace {

using namespace accel::explore;

struct ExploreArgs {
    std::string space, model, suite, out, chunk, jobs;
    std::vector<std::string> budgets;
    EngineOptions engine;
};

po::options_description explore_options(ExploreArgs& a) {
    po::options_description d = command_options(
        "usage: accel explore --space SPACE.yaml (--model M.tflite | --suite NAME) --out DIR "
        "[options]\n\n"
        "Predicts every hardware config of SPACE.yaml on the model with the kit's cost model,\n"
        "as jobs on GNU parallel or Slurm, and prints the Pareto front of time per inference\n"
        "against SRAM (docs/explore.md). Run again with the same --out to resume.\n\noptions");
    d.add_options()
        ("space", po::value(&a.space), "the design space (docs/explore.md)")
        ("model", po::value(&a.model), "an int8 TFLite model, planned as accel run plans it")
        ("suite", po::value(&a.suite), "a workload suite's conv2d layers (resnet18)")
        ("out", po::value(&a.out), "directory of the results (points.csv, points.json) and "
                                   "of the jobs' files (jobs/); created if missing")
        ("budget", po::value(&a.budgets)->composing(),
         "ulx3s-85f and/or sram=SIZE (512KiB), repeated or comma-separated")
        ("engine", po::value(&a.engine.engine), "local (GNU parallel, default) | slurm "
                                                "(an sbatch --array)")
        ("jobs", po::value(&a.jobs), "local: jobs at once (default: one per core)")
        ("sshlogin", po::value(&a.engine.sshlogins)->composing(),
         "local: run jobs on this host too (GNU parallel's --sshlogin; the directories "
         "must be shared)")
        ("sbatch-arg", po::value(&a.engine.sbatch_args)->composing(),
         "slurm: one more sbatch option, e.g. --sbatch-arg=--partition=big")
        ("chunk", po::value(&a.chunk), "points per job (default: the points / 64, at least 1)");
    return d;
}

SweepInputs sweep_inputs(const ExploreArgs& a) {
    if (a.space.empty()) throw Error("no --space given");
    if (a.model.empty() == a.suite.empty()) throw Error("give one of --model and --suite");
    if (a.out.empty()) throw Error("no --out directory given");
    if (fs::exists(a.out) && !fs::is_directory(a.out)) {
        throw Error(fmt::format("--out {}: exists and is not a directory", a.out));
    }
    const int64_t points = load_design_space(a.space).size();
    const int64_t chunk = a.chunk.empty() ? std::max<int64_t>(1, (points + 63) / 64)
                                          : parse_int("--chunk", a.chunk, 1, kMaxPoints);
    return SweepInputs{a.space, a.model, a.suite, chunk};
}

std::string self_executable() { return fs::read_symlink("/proc/self/exe").string(); }

}  // namespace

int run_explore(const std::vector<std::string>& args) {
    ExploreArgs a;
    if (!parse_options(args, explore_options(a))) return 0;
    if (!a.jobs.empty()) a.engine.jobs = static_cast<int>(parse_int("--jobs", a.jobs, 1, 4096));
    const SweepInputs inputs = sweep_inputs(a);
    const Budget budget = parse_budget(a.budgets);
    check_engine(a.engine);
    // Read once here, so that a bad model is one error rather than a failure per job.
    const ExploreTarget target = a.model.empty() ? suite_target(a.suite) : model_target(a.model);
    fs::create_directories(a.out);
    const SweepDir sweep = SweepDir::create(a.out, inputs);
    const std::vector<std::string> pending = sweep.pending_chunks();
    std::cerr << fmt::format("explore: {} points in {} jobs of {}; {} done before, running {} "
                             "on {}\n", sweep.points(), sweep.chunks(), inputs.chunk_points,
                             sweep.chunks() - static_cast<int64_t>(pending.size()),
                             pending.size(), a.engine.engine);
    const std::vector<std::string> failed = run_jobs(
        a.engine, {self_executable(), "explore-job", fs::absolute(a.out).string()}, pending,
        sweep.jobs_dir() + "/logs",
        [&sweep](const std::string& id) { return fs::exists(sweep.chunk_result(std::stoll(id))); });
    if (!failed.empty()) {
        std::cerr << fmt::format("explore: {} jobs failed twice; their points are reported "
                                 "invalid (logs in {}/logs)\n", failed.size(), sweep.jobs_dir());
    }
    const SweepReport report = summarize(target.label, sweep.space(), sweep.rows(), budget);
    const std::string csv = sweep_csv(report);
    const std::string json = sweep_json(report).dump(1) + "\n";
    write_files_atomic({{a.out + "/points.csv", csv}, {a.out + "/points.json", json}});
    print_summary(report, std::cout);
    return 0;
}

int run_explore_job(const std::vector<std::string>& args) {
    if (args.size() != 2) throw Error("usage: accel explore-job DIR CHUNK (one job of accel explore)");
    const SweepDir sweep = SweepDir::open(args[0]);
    sweep.run_chunk(parse_int("CHUNK", args[1], 0, kMaxPoints));
    return 0;
}

}  // namespace accel::cli
