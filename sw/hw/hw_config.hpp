// The hardware configuration: one YAML file (configs/hw/*.yaml, docs/hw-config.md) is the
// single source of truth for the RTL parameters, the C++ constants and the FPGA flow.
#pragma once
#include <cstdint>
#include <string>

namespace accel {

struct HwConfig {
    std::string name;
    // core: the GEMM is (batch x block_in) . (block_in x block_out) per cycle
    int batch = 0;
    int block_in = 0;
    int block_out = 0;
    // buffers, in KiB
    int input_kib = 0;
    int weight_kib = 0;
    int acc_kib = 0;
    // axi
    int axi_data_bits = 0;
    // dram: reads and writes share axi_data_bits/8 bytes per cycle
    int dram_latency_cycles = 0;
    int dram_max_outstanding = 0;
    int clock_mhz = 0;

    int64_t pes() const { return int64_t{batch} * block_in * block_out; }
    int64_t bus_bytes_per_cycle() const { return axi_data_bits / 8; }
    int64_t input_bytes() const { return int64_t{input_kib} * 1024; }
    int64_t weight_bytes() const { return int64_t{weight_kib} * 1024; }
    int64_t acc_bytes() const { return int64_t{acc_kib} * 1024; }

    bool operator==(const HwConfig&) const = default;
};

// Parses YAML text; `source` names the file in error messages. Unknown keys, missing
// keys, wrong types, out-of-range values and non-powers of two where the hardware
// needs them throw accel::Error naming the key and the source.
HwConfig parse_hw_config(const std::string& yaml_text, const std::string& source);
HwConfig load_hw_config(const std::string& path);

// configs/hw/default.yaml, embedded at build time.
HwConfig default_hw_config();

}  // namespace accel
