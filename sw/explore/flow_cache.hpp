// Where the explorer keeps what is slow to make (docs/explore.md, "The stages"): the
// FPGA flow's reports and the RTL builds, one directory per config hash, each holding
// the config its jobs read (CACHE/<hash>/config.yaml).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "explore/design_space.hpp"

namespace accel::explore {

struct FlowSetup {
    std::string source_dir;  // the kit's checkout: scripts/fpga/run, scripts/explore/
    std::string build_dir;   // a configured build: its gen_hw_params
    std::string cache_dir;   // CACHE/<hash>/{config.yaml, synth/, route/, rtl/}
};

// The hashes of the valid `points`, each once, for which `done(hash)` is false: the
// jobs to run. Each gets its config written to the cache first.
std::vector<std::string> pending_in_cache(const FlowSetup& setup,
                                          const std::vector<DesignPoint>& points,
                                          const std::function<bool(const std::string&)>& done);

}  // namespace accel::explore
