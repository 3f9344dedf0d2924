// Helpers for the end-to-end tests: run the accel binary as a user would (no shell,
// so arguments with spaces pass through untouched) and give each test a fresh
// temporary directory.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace accel::e2e {

struct RunResult {
    int exit_code = -1;  // the exit status; 128 + signal number if a signal killed it
    std::string out;     // everything written to stdout
    std::string err;     // everything written to stderr
};

// Runs `program` with `args` (argv[1..]) via posix_spawn, stdin from /dev/null, and
// waits for it. A run longer than `timeout_seconds` is killed and reported as
// exit_code -1 with a note in `err`.
RunResult run_program(const std::string& program, const std::vector<std::string>& args,
                      double timeout_seconds = 60.0);

// Runs the accel binary under test (the ACCEL_BIN path CMake defines).
RunResult run_accel(const std::vector<std::string>& args);

// Runs the accel binary with its stderr on a pseudo-terminal, as a user at a terminal
// sees it (stdout still captured apart): `err` is what the terminal received.
RunResult run_accel_on_terminal(const std::vector<std::string>& args,
                                double timeout_seconds = 60.0);

// The exit code, stdout and stderr of a run, for a failed assertion's message (found
// by argument-dependent lookup: describe(result)).
std::string describe(const RunResult& r);

// A uniquely named, freshly created directory under the system temp directory,
// removed with everything in it on destruction. The name contains a space on
// purpose: every path the tests hand to accel then exercises quoting-free argv.
class TempDir {
public:
    explicit TempDir(const std::string& tag = "test");
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    // path() / name, as a string ready to pass on a command line.
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

// A tmpfs of `bytes` mounted on a fresh directory, to fill a disk on purpose; unmounted
// and removed on destruction. Mounting needs root: when it fails, mounted() is false
// and why() says why (tests skip then).
class SmallTmpfs {
public:
    explicit SmallTmpfs(size_t bytes);
    ~SmallTmpfs();
    SmallTmpfs(const SmallTmpfs&) = delete;
    SmallTmpfs& operator=(const SmallTmpfs&) = delete;

    bool mounted() const { return mounted_; }
    const std::string& why() const { return why_; }
    std::string file(const std::string& name) const { return dir_.file(name); }
    const std::filesystem::path& path() const { return dir_.path(); }

private:
    TempDir dir_{"tmpfs"};
    bool mounted_ = false;
    std::string why_;
};

// Whole-file helpers (binary). read_bytes throws std::runtime_error if unreadable.
std::string read_bytes(const std::filesystem::path& path);
void write_bytes(const std::filesystem::path& path, const std::string& bytes);

// Every entry below `dir` (relative path -> file contents; directories map to "<dir>"),
// to prove that a failed run changed nothing.
std::map<std::string, std::string> snapshot(const std::filesystem::path& dir);

}  // namespace accel::e2e
