// Whole-file I/O. Output files appear whole or not at all: a failed run never leaves a
// partial file.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace accel {

// The whole file; throws accel::Error "<path>: cannot open: ..." when it cannot be read,
// and "<path>: N bytes, ..." when it is larger than `max_bytes` (then nothing is read).
std::string read_file(const std::string& path, uintmax_t max_bytes = UINTMAX_MAX);

// Writes `bytes` to a temporary file next to `path`, then renames it over `path`.
// Throws accel::Error naming `path` when the directory is not writable.
void write_file_atomic(const std::string& path, std::string_view bytes);

// The outputs of one run: all are written to temporary files first and renamed into
// place only when every one is whole, so a full disk leaves none of them behind.
void write_files_atomic(const std::vector<std::pair<std::string, std::string_view>>& files);

// Writes `bytes` as write_file_atomic does, unless `path` already holds exactly them:
// a generated file keeps its timestamp, so the build does not redo what reads it.
// Returns whether it wrote.
bool write_file_if_changed(const std::string& path, std::string_view bytes);

// True when `a` and `b` name the same existing file (through links, "./", etc.).
bool same_file(const std::string& a, const std::string& b);

}  // namespace accel
