// Whole-file reads, and writes that appear whole or not at all: a temporary file next
// to the destination is renamed over it, which is atomic on POSIX.
#include "base/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why) {
    throw Error(fmt::format("{}: cannot write: {}", path, why));
}

// mkstemp creates files with mode 0600; give the output the mode a plain
// open(O_CREAT, 0666) would have. Read once: umask() can only be read by setting it.
mode_t default_file_mode() {
    static const mode_t mode = [] {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        return static_cast<mode_t>(0666 & ~mask);
    }();
    return mode;
}

// Writes all of `bytes` to `fd`; returns 0 or the errno of the failure.
int write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        bytes.remove_prefix(static_cast<size_t>(n));
    }
    return 0;
}

// Fills the temporary file; returns 0 or an errno. Always closes `fd`.
int fill_temp(int fd, std::string_view bytes) {
    int err = ::fchmod(fd, default_file_mode()) == 0 ? 0 : errno;
    if (err == 0) err = write_all(fd, bytes);
    if (::close(fd) != 0 && err == 0) err = errno;  // close can report delayed write errors
    return err;
}

}  // namespace

void write_file_atomic(const std::string& path, std::string_view bytes) {
    write_files_atomic({{path, bytes}});
}

void write_files_atomic(const std::vector<std::pair<std::string, std::string_view>>& files) {
    // Every file goes to a temporary in its own directory first (so no rename crosses
    // a file system); only when all are whole are they renamed into place.
    std::vector<std::string> temps;
    auto discard = [&temps] {
        for (const std::string& t : temps) ::unlink(t.c_str());
    };
    for (const auto& [path, bytes] : files) {
        std::string temp = path + ".tmp.XXXXXX";
        const int fd = ::mkstemp(temp.data());
        if (fd < 0) {
            const int err = errno;
            discard();
            fail(path, std::strerror(err));
        }
        temps.push_back(temp);
        if (const int err = fill_temp(fd, bytes); err != 0) {
            discard();
            fail(path, std::strerror(err));
        }
    }
    for (size_t i = 0; i < files.size(); ++i) {
        std::error_code ec;
        std::filesystem::rename(temps[i], files[i].first, ec);
        if (ec) {
            for (size_t j = i; j < temps.size(); ++j) ::unlink(temps[j].c_str());
            fail(files[i].first, ec.message());
        }
    }
}

bool write_file_if_changed(const std::string& path, std::string_view bytes) {
    std::error_code ec;
    if (std::filesystem::file_size(path, ec) == bytes.size() && !ec) {
        try {
            if (read_file(path) == bytes) return false;
        } catch (const Error&) {  // unreadable: write it anew
        }
    }
    write_file_atomic(path, bytes);
    return true;
}

bool same_file(const std::string& a, const std::string& b) {
    std::error_code ec;
    const bool same = std::filesystem::equivalent(a, b, ec);
    return !ec && same;
}

std::string read_file(const std::string& path, uintmax_t max_bytes) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);  // also rejects directories
    if (ec) throw Error(fmt::format("{}: cannot open: {}", path, ec.message()));
    if (size > max_bytes) {
        throw Error(fmt::format("{}: {} bytes, more than the {} such a file may have", path,
                                size, max_bytes));
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    std::string bytes(size, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(size));
    if (static_cast<uintmax_t>(in.gcount()) != size) {
        throw Error(fmt::format("{}: cannot read: the file changed size while being read", path));
    }
    return bytes;
}

}  // namespace accel
