// The options that several accel commands take, each named and described once here, so
// that --hw or --stride reads the same in every command's --help. Each adds its options
// to a command's description at the place it is called, keeping the command's order.
#pragma once
#include <string>

#include <boost/program_options.hpp>

namespace accel::cli {

// A command's options, headed by its usage text, starting with --help.
boost::program_options::options_description command_options(const std::string& usage);

// --hw HW.yaml: the hardware config (empty: the built-in default).
void add_hw_option(boost::program_options::options_description& d, std::string& hw);

// --stride, --pad and --dilation of a conv2d layer, as set_geometry reads them.
void add_geometry_options(boost::program_options::options_description& d,
                          std::string& stride, std::string& pad, std::string& dilation);

// --trace FILE.fst and --trace-window FROM:TO (set_trace_window); `cycles_counted` says
// from where the window's cycles count.
void add_trace_options(boost::program_options::options_description& d, std::string& trace,
                       std::string& window, const char* cycles_counted);

// --max-cycles N: the cycle budget of each device run (parse_max_cycles).
void add_max_cycles_option(boost::program_options::options_description& d,
                           std::string& max_cycles);

}  // namespace accel::cli
