#include "devices/zynq_device.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <variant>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>

#include "base/error.hpp"
#include "hw/dram_bus.hpp"
#include "hw/isa.hpp"

namespace accel {
namespace {

namespace fs = std::filesystem;

// A read/write shared mapping of the first `size` bytes of a device file.
class Mapping {
public:
    Mapping(const std::string& path, size_t size, int flags) : size_(size) {
        fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC | flags);
        if (fd_ < 0) throw Error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
        void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
        if (p == MAP_FAILED) {
            const int e = errno;
            ::close(fd_);
            throw Error(fmt::format("{}: cannot map {} bytes: {}", path, size, std::strerror(e)));
        }
        base_ = static_cast<uint8_t*>(p);
    }
    ~Mapping() {
        ::munmap(base_, size_);
        ::close(fd_);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    uint8_t* data() const { return base_; }
    size_t size() const { return size_; }

private:
    int fd_ = -1;
    uint8_t* base_ = nullptr;
    size_t size_;
};

std::string read_sysfs(const fs::path& file) {
    std::ifstream in(file);
    std::string s;
    if (!in || !(in >> s)) throw Error(fmt::format("{}: cannot read", file.string()));
    return s;
}

uint64_t read_sysfs_number(const fs::path& file) {
    const std::string s = read_sysfs(file);
    try {
        size_t used = 0;
        const uint64_t v = std::stoull(s, &used, 0);  // decimal, or 0x... hex
        if (used == s.size()) return v;
    } catch (const std::exception&) {
    }
    throw Error(fmt::format("{}: '{}' is not a number", file.string(), s));
}

void write_sysfs(const fs::path& file, uint64_t value) {
    std::ofstream out(file);
    out << value;
    out.flush();
    if (!out) throw DeviceError(fmt::format("{}: cannot write {}", file.string(), value));
}

class UioRegisters final : public RegisterFile {
public:
    UioRegisters(const std::string& path, size_t size) : map_(path, size, O_SYNC) {}
    uint32_t read32(uint32_t offset) override { return *reg(offset); }
    void write32(uint32_t offset, uint32_t value) override { *reg(offset) = value; }

private:
    volatile uint32_t* reg(uint32_t offset) {
        if (offset % 4 != 0 || offset + 4 > map_.size()) {
            throw DeviceError(fmt::format("uio: CSR offset 0x{:x} outside the {}-byte map", offset,
                                          map_.size()));
        }
        return reinterpret_cast<volatile uint32_t*>(map_.data() + offset);
    }
    Mapping map_;
};

// u-dma-buf's sync_direction values (the kernel's DMA directions).
constexpr uint64_t kToDevice = 1, kFromDevice = 2;

class Udmabuf final : public DmaBuffer {
public:
    Udmabuf(const std::string& path, fs::path sysfs, size_t size, uint64_t phys)
        : sysfs_(std::move(sysfs)), phys_(phys), map_(path, size, 0) {}
    std::span<uint8_t> bytes() override { return {map_.data(), map_.size()}; }
    uint64_t phys_addr() const override { return phys_; }
    void sync_for_cpu(uint64_t offset, uint64_t size) override {
        sync(offset, size, kFromDevice, "sync_for_cpu");
    }
    void sync_for_device(uint64_t offset, uint64_t size) override {
        sync(offset, size, kToDevice, "sync_for_device");
    }

private:
    void sync(uint64_t offset, uint64_t size, uint64_t direction, const char* what) {
        write_sysfs(sysfs_ / "sync_offset", offset);
        write_sysfs(sysfs_ / "sync_size", size);
        write_sysfs(sysfs_ / "sync_direction", direction);
        write_sysfs(sysfs_ / what, 1);
    }
    fs::path sysfs_;
    uint64_t phys_;
    Mapping map_;
};

// Largest DRAM byte (exclusive) an instruction touches; 0 when it touches none.
uint64_t dram_end(const isa::Insn& insn, const HwParams& hw) {
    if (const auto* l = std::get_if<isa::Load>(&insn)) {
        const uint32_t entry = l->buffer == isa::Buffer::Inp   ? hw.inp_entry_bytes
                               : l->buffer == isa::Buffer::Wgt ? hw.wgt_entry_bytes
                                                               : hw.prm_entry_bytes;
        return uint64_t{l->dram_base} + uint64_t{l->z_size - 1} * l->dram_z_stride +
               uint64_t{l->y_size - 1} * l->dram_y_stride + uint64_t{l->x_size} * entry;
    }
    if (const auto* d = std::get_if<isa::Drain>(&insn)) {
        return uint64_t{d->dram_base} + uint64_t{d->n_kb - 1} * d->dram_kb +
               uint64_t{d->n_y - 1} * d->dram_y + uint64_t{d->n_x - 1} * d->dram_x +
               uint64_t{hw.batch - 1} * d->dram_b + hw.block_out;
    }
    return 0;
}

void check_exists(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        throw Error(fmt::format("{}: cannot open: No such file or directory", path));
    }
}

}  // namespace

std::unique_ptr<RegisterFile> open_uio(const std::string& path, const std::string& sysfs_root) {
    check_exists(path);
    const fs::path size_file = fs::path(sysfs_root) / fs::path(path).filename() / "maps/map0/size";
    const uint64_t size = read_sysfs_number(size_file);
    if (size < 0x200) {
        throw Error(fmt::format("{}: map 0 has {} bytes, the CSRs need 0x200", path, size));
    }
    return std::make_unique<UioRegisters>(path, static_cast<size_t>(size));
}

std::unique_ptr<DmaBuffer> open_udmabuf(const std::string& path, const std::string& sysfs_root) {
    check_exists(path);
    const std::string name = fs::path(path).filename().string();
    fs::path dir;
    for (const std::string& root : {sysfs_root, std::string("/sys/class/u-dma-buf"),
                                   std::string("/sys/class/udmabuf")}) {
        if (!root.empty() && fs::exists(fs::path(root) / name / "phys_addr")) {
            dir = fs::path(root) / name;
            break;
        }
        if (!sysfs_root.empty()) break;  // a given root is the only one tried
    }
    if (dir.empty()) {
        throw Error(fmt::format("{}: no u-dma-buf sysfs entry for '{}' (is the u-dma-buf module "
                                "loaded?)", path, name));
    }
    const uint64_t size = read_sysfs_number(dir / "size");
    const uint64_t phys = read_sysfs_number(dir / "phys_addr");
    return std::make_unique<Udmabuf>(path, dir, static_cast<size_t>(size), phys);
}

ZynqDevice::ZynqDevice(const HwParams& params, std::unique_ptr<RegisterFile> regs,
                       std::unique_ptr<DmaBuffer> buffer, uint64_t dram_bytes,
                       const ZynqOptions& options)
    : params_(params), regs_(std::move(regs)), buffer_(std::move(buffer)), options_(options) {
    const uint64_t size = buffer_->bytes().size();
    if (dram_bytes > size) {
        throw Error(fmt::format("zynq: the layer needs {} bytes of device memory, the DMA buffer "
                                "has {}", dram_bytes, size));
    }
    if (buffer_->phys_addr() + size > dram_bus::kAddressSpaceBytes) {
        throw Error(fmt::format("zynq: the DMA buffer at 0x{:x} reaches above 4 GiB; the "
                                "accelerator's addresses are 32 bits", buffer_->phys_addr()));
    }
    check_csr_identity(*regs_, params_, name());
}

void ZynqDevice::check_range(uint64_t addr, uint64_t n, const char* what) const {
    const uint64_t size = buffer_->bytes().size();
    if (addr > size || n > size - addr) {
        throw Error(fmt::format("zynq: {} of {} bytes at 0x{:x} is outside the {}-byte DMA buffer",
                                what, n, addr, size));
    }
}

void ZynqDevice::write_dram(uint64_t addr, std::span<const uint8_t> bytes) {
    check_range(addr, bytes.size(), "write");
    std::memcpy(buffer_->bytes().data() + addr, bytes.data(), bytes.size());
}

// run() leaves the CPU's view current (sync_for_cpu after every run), so reads copy.
void ZynqDevice::read_dram(uint64_t addr, std::span<uint8_t> bytes) const {
    check_range(addr, bytes.size(), "read");
    std::memcpy(bytes.data(), buffer_->bytes().data() + addr, bytes.size());
}

std::vector<uint8_t> ZynqDevice::relocate(uint32_t insn_addr, uint32_t count) {
    const uint64_t size = buffer_->bytes().size();
    const uint32_t phys = static_cast<uint32_t>(buffer_->phys_addr());
    const uint64_t first = insn_addr & ~uint64_t{isa::kInsnBytes - 1};  // as fetch reads it
    if (first + uint64_t{count} * isa::kInsnBytes > size) {
        throw DeviceError(fmt::format("zynq: refusing to run: {} instructions at 0x{:x} reach "
                                      "past the {}-byte DMA buffer", count, first, size));
    }
    uint8_t* words = buffer_->bytes().data() + first;
    std::vector<uint8_t> original(words, words + uint64_t{count} * isa::kInsnBytes);
    for (uint32_t i = 0; i < count; ++i) {
        uint8_t* w = words + uint64_t{i} * isa::kInsnBytes;
        isa::Decoded d = isa::decode(std::span<const uint8_t, isa::kInsnBytes>(w, isa::kInsnBytes),
                                     params_);
        // Fetch stops at the first illegal instruction or FINISH; nothing after runs.
        if (d.error != isa::ErrorCode::Ok || std::holds_alternative<isa::Finish>(d.insn)) break;
        const uint64_t end = dram_end(d.insn, params_);
        if (end > size) {
            throw DeviceError(fmt::format("zynq: refusing to run: instruction {} ({}) reaches "
                                          "byte 0x{:x}, past the {}-byte DMA buffer",
                                          i, isa::to_string(d.insn), end, size));
        }
        if (auto* l = std::get_if<isa::Load>(&d.insn)) l->dram_base += phys;
        else if (auto* dr = std::get_if<isa::Drain>(&d.insn)) dr->dram_base += phys;
        else continue;
        const isa::InsnWord enc = isa::encode(d.insn);
        std::memcpy(w, enc.data(), enc.size());
    }
    return original;
}

DeviceCounters ZynqDevice::run(uint32_t insn_addr, uint32_t count) {
    const uint64_t size = buffer_->bytes().size();
    const std::vector<uint8_t> original = relocate(insn_addr, count);
    // Afterwards the CPU sees what the device wrote, and the program as it was written.
    auto finish = [&] {
        buffer_->sync_for_cpu(0, size);
        std::memcpy(buffer_->bytes().data() + (insn_addr & ~uint64_t{isa::kInsnBytes - 1}),
                    original.data(), original.size());
    };
    buffer_->sync_for_device(0, size);
    const uint32_t phys = static_cast<uint32_t>(buffer_->phys_addr());
    DeviceCounters c;
    try {
        c = run_via_csrs(*regs_, phys + insn_addr, count, name(), options_.run);
    } catch (...) {
        finish();
        throw;
    }
    finish();
    return c;
}

std::unique_ptr<Device> make_zynq_device(const std::string& spec, const HwParams& params,
                                         uint64_t dram_bytes) {
    const size_t comma = spec.find(',');
    if (comma == std::string::npos || comma == 0 || comma + 1 == spec.size()) {
        throw Error(fmt::format("zynq:{}: expected UIO,UDMABUF (zynq:/dev/uio0,/dev/udmabuf0)",
                                spec));
    }
    std::unique_ptr<RegisterFile> regs = open_uio(spec.substr(0, comma));
    std::unique_ptr<DmaBuffer> buffer = open_udmabuf(spec.substr(comma + 1));
    return std::make_unique<ZynqDevice>(params, std::move(regs), std::move(buffer), dram_bytes);
}

}  // namespace accel
