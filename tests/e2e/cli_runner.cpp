#include "cli_runner.hpp"

#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace accel::e2e {
namespace {

// An anonymous temp file (unlinked at once) to capture one output stream.
int capture_fd() {
    std::string name = (std::filesystem::temp_directory_path() / "accel-e2e-io-XXXXXX").string();
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) throw std::runtime_error("mkostemp: " + std::string(std::strerror(errno)));
    ::unlink(name.c_str());
    return fd;
}

std::string read_all(int fd) {
    std::string out;
    if (::lseek(fd, 0, SEEK_SET) < 0) return out;
    char buf[65536];
    while (true) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    return out;
}

void check(int rc, const char* what) {
    if (rc != 0) throw std::runtime_error(std::string(what) + ": " + std::strerror(rc));
}

}  // namespace

RunResult run_program(const std::string& program, const std::vector<std::string>& args,
                      double timeout_seconds) {
    const int out_fd = capture_fd();
    const int err_fd = capture_fd();

    posix_spawn_file_actions_t actions;
    check(::posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init");
    check(::posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0),
          "posix_spawn_file_actions_addopen");
    check(::posix_spawn_file_actions_adddup2(&actions, out_fd, 1), "adddup2 stdout");
    check(::posix_spawn_file_actions_adddup2(&actions, err_fd, 2), "adddup2 stderr");

    std::vector<std::string> storage;
    storage.reserve(args.size() + 1);
    storage.push_back(program);
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& s : storage) argv.push_back(s.data());
    argv.push_back(nullptr);

    pid_t pid = 0;
    const int spawn_rc = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(),
                                       environ);
    ::posix_spawn_file_actions_destroy(&actions);
    if (spawn_rc != 0) {
        ::close(out_fd);
        ::close(err_fd);
        throw std::runtime_error("posix_spawn " + program + ": " + std::strerror(spawn_rc));
    }

    RunResult result;
    bool timed_out = false;
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration<double>(timeout_seconds);
    while (true) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) {
            status = -1;
            break;
        }
        if (!timed_out && std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            timed_out = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }

    if (timed_out) {
        result.exit_code = -1;
    } else if (status != -1 && WIFEXITED(status)) {
        result.exit_code = WEXITSTATUS(status);
    } else if (status != -1 && WIFSIGNALED(status)) {
        result.exit_code = 128 + WTERMSIG(status);
    }
    result.out = read_all(out_fd);
    result.err = read_all(err_fd);
    ::close(out_fd);
    ::close(err_fd);
    if (timed_out) result.err += "\n[cli_runner: killed after timeout]\n";
    return result;
}

RunResult run_accel(const std::vector<std::string>& args) { return run_program(ACCEL_BIN, args); }

RunResult run_accel_on_terminal(const std::vector<std::string>& args, double timeout_seconds) {
    const int out_fd = capture_fd();
    std::vector<std::string> storage{ACCEL_BIN};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& s : storage) argv.push_back(s.data());
    argv.push_back(nullptr);
    int terminal = -1;
    const pid_t pid = ::forkpty(&terminal, nullptr, nullptr, nullptr);
    if (pid < 0) throw std::runtime_error("forkpty: " + std::string(std::strerror(errno)));
    if (pid == 0) {  // the child: stdin and stderr on the terminal, stdout captured
        ::dup2(out_fd, 1);
        ::execv(ACCEL_BIN, argv.data());
        ::_exit(127);
    }
    RunResult result;
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration<double>(timeout_seconds);
    ::fcntl(terminal, F_SETFL, ::fcntl(terminal, F_GETFL) | O_NONBLOCK);
    bool timed_out = false;
    char buf[4096];
    while (true) {  // read until the child closes the terminal (EIO on Linux)
        const ssize_t n = ::read(terminal, buf, sizeof buf);
        if (n > 0) {
            result.err.append(buf, static_cast<size_t>(n));
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EINTR) break;
        if (n == 0) break;
        if (!timed_out && std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            timed_out = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(terminal);
    result.exit_code = timed_out ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = read_all(out_fd);
    ::close(out_fd);
    return result;
}

TempDir::TempDir(const std::string& tag) {
    static std::atomic<unsigned> counter{0};
    std::random_device rd;
    const std::filesystem::path base = std::filesystem::temp_directory_path();
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::ostringstream name;
        name << "accel e2e " << tag << ' ' << ::getpid() << '-' << counter++ << '-' << std::hex
             << rd();
        std::filesystem::path p = base / name.str();
        if (std::filesystem::create_directory(p)) {
            path_ = std::move(p);
            return;
        }
    }
    throw std::runtime_error("TempDir: could not create a unique directory in " + base.string());
}

TempDir::~TempDir() {
    std::error_code ec;  // never throw from a destructor
    std::filesystem::remove_all(path_, ec);
}

SmallTmpfs::SmallTmpfs(size_t bytes) {
    if (::geteuid() != 0) {
        why_ = "mounting a tmpfs needs root";
        return;
    }
    const std::string options = "size=" + std::to_string(bytes);
    if (::mount("tmpfs", dir_.path().c_str(), "tmpfs", 0, options.c_str()) != 0) {
        why_ = std::string("mount tmpfs: ") + std::strerror(errno);
        return;
    }
    mounted_ = true;
}

SmallTmpfs::~SmallTmpfs() {
    if (mounted_) ::umount2(dir_.path().c_str(), MNT_DETACH);
}

std::string read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::map<std::string, std::string> snapshot(const std::filesystem::path& dir) {
    std::map<std::string, std::string> entries;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        const std::string rel = std::filesystem::relative(e.path(), dir).string();
        entries[rel] = e.is_directory() ? std::string("<dir>") : read_bytes(e.path());
    }
    return entries;
}

std::string describe(const RunResult& r) {
    return "exit " + std::to_string(r.exit_code) + "\n--- stdout ---\n" + r.out +
           "--- stderr ---\n" + r.err;
}

}  // namespace accel::e2e
