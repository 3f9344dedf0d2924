// A fresh directory per test, removed afterwards (tests may run in parallel).
#pragma once
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace accel::testing_support {

class TempDir {
public:
    TempDir() {
        namespace fs = std::filesystem;
        std::string tmpl = (fs::temp_directory_path() / "accel_test.XXXXXX").string();
        if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string file(const std::string& name) const { return (path_ / name).string(); }
    const std::filesystem::path& path() const { return path_; }
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(path_)) {
            names.push_back(e.path().filename());
        }
        return names;
    }

private:
    std::filesystem::path path_;
};

}  // namespace accel::testing_support
