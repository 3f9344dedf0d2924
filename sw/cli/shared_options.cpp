#include "shared_options.hpp"

namespace po = boost::program_options;

namespace accel::cli {

po::options_description command_options(const std::string& usage) {
    po::options_description d(usage);
    d.add_options()("help,h", "show this help");
    return d;
}

void add_hw_option(po::options_description& d, std::string& hw) {
    d.add_options()("hw", po::value(&hw), "hardware config YAML (default: built-in default)");
}

void add_geometry_options(po::options_description& d, std::string& stride, std::string& pad,
                          std::string& dilation) {
    d.add_options()
        ("stride", po::value(&stride), "S or SH,SW (default 1)")
        ("pad", po::value(&pad), "P, PH,PW or PT,PB,PL,PR (default 0); padding holds the "
                                 "input zero point")
        ("dilation", po::value(&dilation), "D or DH,DW (default 1)");
}

void add_trace_options(po::options_description& d, std::string& trace, std::string& window,
                       const char* cycles_counted) {
    d.add_options()
        ("trace", po::value(&trace), "write an FST waveform (verilator backend)")
        ("trace-window", po::value(&window),
         (std::string("FROM:TO: trace only the cycles [FROM, TO) ") + cycles_counted).c_str());
}

void add_max_cycles_option(po::options_description& d, std::string& max_cycles) {
    d.add_options()("max-cycles", po::value(&max_cycles),
                    "stop a device run longer than N cycles (default: twice what the "
                    "program's instructions can take, at most 2^30); fsim charges each "
                    "instruction the most it can take");
}

}  // namespace accel::cli
