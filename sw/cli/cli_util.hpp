// Parsing of the option values the accel CLI shares between its commands. Every
// failure is an accel::Error whose message starts with the option's name.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "ops/conv2d.hpp"
#include "verilator_device.hpp"

namespace accel::cli {

// Parses a subcommand's arguments strictly: no abbreviated options, no stray positional
// words (a lost "--pad 1 1" must not run with pad 1), no empty values (`--hw ''` is not
// "no --hw"). Returns false when --help was given (after printing the help).
bool parse_options(const std::vector<std::string>& args,
                   const boost::program_options::options_description& desc);

// A whole decimal integer in [lo, hi]; "12abc", "" and out-of-range values are errors.
int64_t parse_int(const std::string& option, const std::string& text, int64_t lo, int64_t hi);

// A decimal or 0x-prefixed hexadecimal integer in [lo, hi].
uint64_t parse_uint(const std::string& option, const std::string& text, uint64_t lo,
                    uint64_t hi);

// --max-cycles N: the cycle budget of each device run (devices/run_budget.hpp); 0 when
// not given (the device's default).
uint64_t parse_max_cycles(const std::string& text);

// The rules of --max-cycles: a number, and a backend with a budget (fsim, verilator).
void check_max_cycles(const std::string& text, const std::string& backend);

// A finite decimal floating-point number.
double parse_double(const std::string& option, const std::string& text);

// A comma-separated list of integers whose count is one of `counts` (e.g. S or SH,SW).
std::vector<int64_t> parse_int_list(const std::string& option, const std::string& text,
                                    const std::vector<size_t>& counts, int64_t lo, int64_t hi);

// --stride S|SH,SW, --pad P|PH,PW|PT,PB,PL,PR and --dilation D|DH,DW into `p`.
void set_geometry(const std::string& stride, const std::string& pad,
                  const std::string& dilation, Conv2dParams& p);

// --backend verilator|fsim|ref with --check (a device only) and --trace (verilator only),
// as conv2d and run take them.
void check_backend_choice(const std::string& backend, bool check, bool trace);

// The output files of one command, as (option, path): each must be a new path or a
// regular file in a writable directory, and none may be an input or another output.
// Paths are compared as the files they name (./y.npy is y.npy, even before it exists).
void check_output_paths(const std::vector<std::pair<std::string, std::string>>& outputs,
                        const std::vector<std::string>& inputs);

// --trace-window FROM:TO into `options`: the cycles [FROM, TO) of the device's runs that
// a --trace waveform keeps. Empty `window`: the whole run. A malformed or empty window,
// or one without a --trace, is an error.
void set_trace_window(const std::string& window, const std::string& trace,
                      VerilatorOptions& options);

// True when `text` is an integer literal, as opposed to a path (for M|M.npy options).
bool is_int_literal(const std::string& text);

}  // namespace accel::cli
