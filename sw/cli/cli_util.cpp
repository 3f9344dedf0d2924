#include "cli_util.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"

namespace accel::cli {

namespace po = boost::program_options;

bool parse_options(const std::vector<std::string>& args, const po::options_description& desc) {
    // Stray words are collected into a hidden option so the error can name them.
    std::vector<std::string> stray;
    po::options_description all;
    all.add(desc).add_options()("stray-argument", po::value(&stray));
    po::positional_options_description positionals;
    positionals.add("stray-argument", -1);
    const int style = po::command_line_style::default_style &
                      ~po::command_line_style::allow_guessing;
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).style(style).positional(positionals)
                  .run(), vm);
    if (vm.count("help")) {
        std::cout << desc << '\n';
        return false;
    }
    // Commands read an empty string as "not given": `--hw ''` would silently mean the
    // default config. Every option that takes a value needs a non-empty one.
    for (const auto& [name, value] : vm) {
        if (name == "stray-argument" || value.defaulted()) continue;
        const auto* text = boost::any_cast<std::string>(&value.value());
        const auto* texts = boost::any_cast<std::vector<std::string>>(&value.value());
        const bool empty = (text != nullptr && text->empty()) ||
                           (texts != nullptr &&
                            std::any_of(texts->begin(), texts->end(),
                                        [](const std::string& t) { return t.empty(); }));
        if (empty) throw Error(fmt::format("--{}: empty value", name));
    }
    po::notify(vm);
    if (!stray.empty()) {
        throw Error(fmt::format("unexpected argument '{}' (every value belongs to an --option)",
                                stray.front()));
    }
    return true;
}

int64_t parse_int(const std::string& option, const std::string& text, int64_t lo, int64_t hi) {
    int64_t v = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
        throw Error(fmt::format("{} '{}': not an integer", option, text));
    }
    if (ec == std::errc::result_out_of_range || v < lo || v > hi) {
        throw Error(fmt::format("{} {}: must be in [{}, {}]", option, text, lo, hi));
    }
    return v;
}

double parse_double(const std::string& option, const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) {
        throw Error(fmt::format("{} '{}': not a finite number", option, text));
    }
    return v;
}

std::vector<int64_t> parse_int_list(const std::string& option, const std::string& text,
                                    const std::vector<size_t>& counts, int64_t lo, int64_t hi) {
    std::vector<int64_t> values;
    size_t start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        values.push_back(parse_int(option, text.substr(start, comma - start), lo, hi));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    for (size_t c : counts) {
        if (values.size() == c) return values;
    }
    throw Error(fmt::format("{} '{}': expected {} comma-separated values", option, text,
                            fmt::join(counts, " or ")));
}

void set_geometry(const std::string& stride_text, const std::string& pad_text,
                  const std::string& dilation_text, Conv2dParams& p) {
    constexpr int64_t kMax = 1 << 16;
    const auto stride = parse_int_list("--stride", stride_text, {1, 2}, 1, kMax);
    const auto dilation = parse_int_list("--dilation", dilation_text, {1, 2}, 1, kMax);
    const auto pad = parse_int_list("--pad", pad_text, {1, 2, 4}, 0, kMax);
    p.stride_h = static_cast<int>(stride.front());
    p.stride_w = static_cast<int>(stride.back());
    p.dilation_h = static_cast<int>(dilation.front());
    p.dilation_w = static_cast<int>(dilation.back());
    if (pad.size() == 4) {
        p.pad_top = static_cast<int>(pad[0]);
        p.pad_bottom = static_cast<int>(pad[1]);
        p.pad_left = static_cast<int>(pad[2]);
        p.pad_right = static_cast<int>(pad[3]);
    } else {  // P or PH,PW
        p.pad_top = p.pad_bottom = static_cast<int>(pad.front());
        p.pad_left = p.pad_right = static_cast<int>(pad.back());
    }
}

void set_trace_window(const std::string& window, const std::string& trace,
                      VerilatorOptions& options) {
    if (window.empty()) return;
    if (trace.empty()) throw Error("--trace-window: limits a --trace waveform; give --trace too");
    const size_t colon = window.find(':');
    if (colon == std::string::npos) {
        throw Error(fmt::format("--trace-window '{}': expected FROM:TO in cycles", window));
    }
    const int64_t from = parse_int("--trace-window", window.substr(0, colon), 0, INT64_MAX);
    const int64_t to = parse_int("--trace-window", window.substr(colon + 1), 0, INT64_MAX);
    if (from >= to) {
        throw Error(fmt::format("--trace-window {}: empty; FROM must be below TO", window));
    }
    options.trace_from = static_cast<uint64_t>(from);
    options.trace_to = static_cast<uint64_t>(to);
}

uint64_t parse_uint(const std::string& option, const std::string& text, uint64_t lo,
                    uint64_t hi) {
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char* begin = text.data() + (hex ? 2 : 0);
    const char* end = text.data() + text.size();
    uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(begin, end, v, hex ? 16 : 10);
    if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
        throw Error(fmt::format("{} '{}': not an integer (decimal or 0x hex)", option, text));
    }
    if (ec == std::errc::result_out_of_range || v < lo || v > hi) {
        throw Error(fmt::format("{} {}: must be in [{}, {}]", option, text, lo, hi));
    }
    return v;
}

uint64_t parse_max_cycles(const std::string& text) {
    return text.empty() ? 0 : parse_uint("--max-cycles", text, 1, UINT64_MAX);
}

void check_max_cycles(const std::string& text, const std::string& backend) {
    if (text.empty()) return;
    if (backend != "fsim" && backend != "verilator") {
        throw Error("--max-cycles: only the fsim and verilator backends have a cycle budget");
    }
    parse_max_cycles(text);
}

bool is_int_literal(const std::string& text) {
    int64_t v = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    return !text.empty() && ptr == end && ec != std::errc::invalid_argument;
}

namespace {

// The file a path names, resolved as far as it exists: two spellings of one file agree.
std::string resolved(const std::string& path) {
    std::error_code ec;
    const auto p = std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec);
    return ec ? path : p.string();
}

}  // namespace

void check_backend_choice(const std::string& backend, bool check, bool trace) {
    if (backend != "ref" && backend != "fsim" && backend != "verilator") {
        throw Error(fmt::format("--backend {}: unknown; expected verilator, fsim or ref",
                                backend));
    }
    if (backend == "ref" && check) {
        throw Error("--check: compares a device with the golden reference; with --backend ref "
                    "there is nothing to compare");
    }
    if (trace && backend != "verilator") {
        throw Error("--trace: only the verilator backend writes waveforms");
    }
}

void check_output_paths(const std::vector<std::pair<std::string, std::string>>& outputs,
                        const std::vector<std::string>& inputs) {
    namespace fs = std::filesystem;
    std::vector<std::pair<std::string, std::string>> seen;  // (resolved, option)
    for (const auto& [option, path] : outputs) {
        if (path.empty()) continue;
        fs::path dir = fs::path(path).parent_path();
        if (dir.empty()) dir = ".";
        if (!fs::is_directory(dir) || ::access(dir.c_str(), W_OK) != 0) {
            throw Error(fmt::format("{} {}: directory {} does not exist or is not writable",
                                    option, path, dir.string()));
        }
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
            throw Error(fmt::format("{} {}: exists and is not a regular file", option, path));
        }
        const std::string file = resolved(path);
        for (const std::string& in : inputs) {
            if (!in.empty() && resolved(in) == file) {
                throw Error(fmt::format("{} {}: is also an input; refusing to overwrite it",
                                        option, path));
            }
        }
        for (const auto& [other, other_option] : seen) {
            if (other == file) {
                throw Error(fmt::format("{} {}: is the same file as {}", option, path,
                                        other_option));
            }
        }
        seen.emplace_back(file, option);
    }
}

}  // namespace accel::cli
