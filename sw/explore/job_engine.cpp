// The two engines of job_engine.hpp. Each gets the job ids in a file of the log
// directory and its retry: GNU parallel's own --retries, and for Slurm a second array of
// the jobs the first left without a result.
#include "explore/job_engine.hpp"

#include <filesystem>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "explore/subprocess.hpp"

namespace accel::explore {
namespace {

// Slurm's default MaxArraySize is 1001: array indices 0 to 1000.
constexpr size_t kMaxArrayJobs = 1000;

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::vector<std::string> not_done(const std::vector<std::string>& ids,
                                  const std::function<bool(const std::string&)>& done) {
    std::vector<std::string> left;
    for (const std::string& id : ids) {
        if (!done(id)) left.push_back(id);
    }
    return left;
}

std::string write_ids(const std::string& log_dir, const std::string& name,
                      const std::vector<std::string>& ids) {
    const std::string path = log_dir + "/" + name;
    write_file_atomic(path, fmt::format("{}\n", fmt::join(ids, "\n")));
    return path;
}

// parallel -q keeps each word of the command one argument, whatever it holds; a job
// that fails is run again once (--retries 2: two runs in all).
void run_parallel(const EngineOptions& o, const std::vector<std::string>& command,
                  const std::vector<std::string>& ids, const std::string& log_dir) {
    const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
    std::vector<std::string> argv = {"parallel", "--will-cite", "-q", "--retries", "2",
                                     "--halt", "never", "-j",
                                     std::to_string(o.jobs > 0 ? o.jobs : static_cast<int>(cores)),
                                     "--joblog", log_dir + "/parallel.joblog"};
    for (const std::string& host : o.sshlogins) {
        argv.insert(argv.end(), {"--sshlogin", host});
    }
    argv.insert(argv.end(), command.begin(), command.end());
    argv.insert(argv.end(), {"{}", "::::", write_ids(log_dir, "ids.txt", ids)});
    // Its status counts the failed jobs up to 101; above, it was stopped or broke, and
    // the jobs it did not run must not be reported as failed.
    const int rc = run_process(argv, log_dir + "/parallel.log");
    if (rc > 101) {
        throw Error(fmt::format("GNU parallel stopped (status {}; {}/parallel.log): run the "
                                "same command again to resume from the jobs done", rc, log_dir));
    }
}

// One array of `ids` with sbatch --wait. A job's failure shows as a missing result; a
// submission refused (no controller, a bad option) is an error.
void run_slurm_array(const EngineOptions& o, const std::vector<std::string>& command,
                     const std::vector<std::string>& ids, const std::string& log_dir,
                     int attempt) {
    const std::string ids_file = write_ids(log_dir, fmt::format("ids-{}.txt", attempt), ids);
    std::string cmd;
    for (const std::string& word : command) cmd += shell_quote(word) + " ";
    const std::string script = fmt::format(
        "#!/bin/sh\n"
        "# accel explore: attempt {} of {} jobs (docs/explore.md)\n"
        "id=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" {})\n"
        "exec {}\"$id\"\n",
        attempt, ids.size(), shell_quote(ids_file), cmd);
    const std::string script_path = fmt::format("{}/array-{}.sh", log_dir, attempt);
    write_file_atomic(script_path, script);
    std::vector<std::string> argv = {
        "sbatch", "--wait", "--parsable", "--job-name=accel-explore",
        fmt::format("--array=0-{}", ids.size() - 1),
        fmt::format("--output={}/slurm-{}-%a.out", log_dir, attempt)};
    argv.insert(argv.end(), o.sbatch_args.begin(), o.sbatch_args.end());
    argv.push_back(script_path);
    const std::string log = fmt::format("{}/sbatch-{}.log", log_dir, attempt);
    const int rc = run_process(argv, log);
    const std::string text = read_file(log);
    if (rc != 0 && text.find("sbatch: error") != std::string::npos) {
        const size_t at = text.find("sbatch: error");
        throw Error(fmt::format("--engine slurm: {}", text.substr(at, text.find('\n', at) - at)));
    }
}

}  // namespace

void check_engine(const EngineOptions& o) {
    if (o.engine == "local") {
        if (!on_path("parallel")) {
            throw Error("--engine local needs GNU parallel (Debian's parallel; scripts/setup-deps)");
        }
        return;
    }
    if (o.engine == "slurm") {
        if (!on_path("sbatch")) throw Error("--engine slurm: sbatch is not on PATH");
        if (!o.sshlogins.empty()) throw Error("--sshlogin is for --engine local");
        return;
    }
    throw Error(fmt::format("--engine '{}': expected local or slurm", o.engine));
}

std::vector<std::string> run_jobs(const EngineOptions& o, const std::vector<std::string>& command,
                                  const std::vector<std::string>& ids, const std::string& log_dir,
                                  const std::function<bool(const std::string&)>& done) {
    if (ids.empty()) return {};
    std::filesystem::create_directories(log_dir);
    if (o.engine == "local") {
        run_parallel(o, command, ids, log_dir);
        return not_done(ids, done);
    }
    if (ids.size() > kMaxArrayJobs) {
        throw Error(fmt::format("--engine slurm: {} jobs, more than an array of {} (give a "
                                "larger --chunk)", ids.size(), kMaxArrayJobs));
    }
    run_slurm_array(o, command, ids, log_dir, 1);
    const std::vector<std::string> retry = not_done(ids, done);
    if (retry.empty()) return {};
    run_slurm_array(o, command, retry, log_dir, 2);
    return not_done(retry, done);
}

}  // namespace accel::explore
