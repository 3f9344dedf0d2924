// The accel subcommands. Each takes its arguments (without the command name) and
// returns the process exit code; accel::Error and accel::DeviceError propagate to main.
#pragma once
#include <string>
#include <vector>

namespace accel::cli {

int run_conv2d(const std::vector<std::string>& args);
int run_random(const std::vector<std::string>& args);
int run_plan(const std::vector<std::string>& args);
int run_bench(const std::vector<std::string>& args);
int run_exec(const std::vector<std::string>& args);
int run_run(const std::vector<std::string>& args);
int run_explore(const std::vector<std::string>& args);
int run_explore_job(const std::vector<std::string>& args);

}  // namespace accel::cli
