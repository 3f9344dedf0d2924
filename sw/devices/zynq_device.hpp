// The accelerator in the programmable logic of a Zynq (or any Linux SoC): its CSRs
// mapped through UIO (/dev/uioN), its DRAM a physically contiguous buffer from the
// u-dma-buf driver (/dev/udmabufN) that the accelerator's AXI master reaches at the
// buffer's physical address. The pieces are interfaces so that tests run the device
// against a fake register file and memory.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "devices/device.hpp"
#include "devices/register_file.hpp"

namespace accel {

// DMA-able memory: the CPU's mapping, the address the device uses, and cache
// maintenance around device accesses (ranges in bytes from the buffer's start).
class DmaBuffer {
public:
    virtual ~DmaBuffer() = default;
    virtual std::span<uint8_t> bytes() = 0;
    virtual uint64_t phys_addr() const = 0;
    // The CPU is about to read what the device wrote.
    virtual void sync_for_cpu(uint64_t offset, uint64_t size) = 0;
    // The device is about to access what the CPU wrote.
    virtual void sync_for_device(uint64_t offset, uint64_t size) = 0;
};

// /dev/uioN: map 0 (its size from <sysfs_root>/uioN/maps/map0/size) mmapped; 32-bit
// volatile accesses. accel::Error naming the path when it cannot be opened or mapped.
std::unique_ptr<RegisterFile> open_uio(const std::string& path,
                                       const std::string& sysfs_root = "/sys/class/uio");

// /dev/udmabufN of the u-dma-buf driver: size and phys_addr read from
// <sysfs_root>/udmabufN/, the buffer mmapped, cache syncs through its sync_offset,
// sync_size, sync_direction, sync_for_cpu and sync_for_device files. An empty
// sysfs_root tries /sys/class/u-dma-buf, then /sys/class/udmabuf.
std::unique_ptr<DmaBuffer> open_udmabuf(const std::string& path,
                                        const std::string& sysfs_root = "");

struct ZynqOptions {
    CsrRunOptions run{std::chrono::milliseconds(10000), std::chrono::microseconds(50)};
};

class ZynqDevice final : public Device {
public:
    // Checks the CSR identity against `params` (accel::Error when it differs, or when
    // the buffer is smaller than `dram_bytes` or does not lie below 4 GiB).
    ZynqDevice(const HwParams& params, std::unique_ptr<RegisterFile> regs,
               std::unique_ptr<DmaBuffer> buffer, uint64_t dram_bytes,
               const ZynqOptions& options = {});

    std::string name() const override { return "zynq"; }
    const HwParams& params() const override { return params_; }
    uint64_t dram_bytes() const override { return buffer_->bytes().size(); }
    void write_dram(uint64_t addr, std::span<const uint8_t> bytes) override;
    void read_dram(uint64_t addr, std::span<uint8_t> bytes) const override;

    // DRAM addresses of the program are offsets into the buffer; the accelerator needs
    // physical ones. run() relocates the DRAM base of every LOAD and DRAIN by the
    // buffer's physical address for the run (and restores the words afterwards), and
    // refuses (accel::DeviceError) a program whose accesses would leave the buffer --
    // on real memory that is not a bus error but someone else's data.
    DeviceCounters run(uint32_t insn_addr, uint32_t count) override;

private:
    void check_range(uint64_t addr, uint64_t n, const char* what) const;
    std::vector<uint8_t> relocate(uint32_t insn_addr, uint32_t count);

    HwParams params_;
    std::unique_ptr<RegisterFile> regs_;
    std::unique_ptr<DmaBuffer> buffer_;
    ZynqOptions options_;
};

// `spec` is "UIO_PATH,UDMABUF_PATH" (/dev/uio0,/dev/udmabuf0).
std::unique_ptr<Device> make_zynq_device(const std::string& spec, const HwParams& params,
                                         uint64_t dram_bytes);

}  // namespace accel
