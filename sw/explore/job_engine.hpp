// Where a sweep's jobs run (docs/explore.md, "Jobs"): GNU parallel on this machine or
// over ssh, or a Slurm job array. The explorer keeps no pool of its own; each job is a
// command with its inputs and outputs in the shared directory.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace accel::explore {

struct EngineOptions {
    std::string engine = "local";  // local | slurm
    int jobs = 0;                  // local: jobs at once (0: one per core)
    std::vector<std::string> sshlogins;  // local: GNU parallel's --sshlogin hosts
    std::vector<std::string> sbatch_args;  // slurm: extra sbatch options (--partition=...)
};

// Throws accel::Error for an unknown engine, or one whose tool is not installed.
void check_engine(const EngineOptions& options);

// Runs `command` followed by each id of `ids`, in `log_dir` (job logs, scripts). A job
// that fails or is killed runs once more; `done(id)` says whether a job produced its
// result. Returns the ids still not done after the retry.
std::vector<std::string> run_jobs(const EngineOptions& options,
                                  const std::vector<std::string>& command,
                                  const std::vector<std::string>& ids, const std::string& log_dir,
                                  const std::function<bool(const std::string&)>& done);

}  // namespace accel::explore
