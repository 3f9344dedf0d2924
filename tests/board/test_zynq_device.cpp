// The zynq device on fakes: a register file that runs the functional simulator over
// the fake DMA memory when CTRL is written, and a DMA buffer with separate CPU and
// device views that only the sync calls copy between -- so a missing cache sync or a
// missing address relocation shows up as wrong data. Plus the real UIO and u-dma-buf
// code paths against a fake sysfs and plain files.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "base/error.hpp"
#include "compiler/packing.hpp"
#include "compiler/planner.hpp"
#include "devices/fsim.hpp"
#include "devices/zynq_device.hpp"
#include "hw/csr.hpp"
#include "hw/hw_config.hpp"
#include "hw/isa.hpp"
#include "ops/reference.hpp"
#include "runtime/runtime.hpp"
#include "random_layer.hpp"
#include "shipped_hw.hpp"

namespace accel {
namespace {

namespace fs = std::filesystem;

// CPU view and device view of the same memory, as a cached CPU sees DMA memory.
class FakeDma final : public DmaBuffer {
public:
    FakeDma(size_t size, uint64_t phys) : cpu_(size), dev_(size), phys_(phys) {}
    std::span<uint8_t> bytes() override { return cpu_; }
    uint64_t phys_addr() const override { return phys_; }
    void sync_for_cpu(uint64_t off, uint64_t n) override {
        ASSERT_LE(off + n, cpu_.size());
        std::memcpy(cpu_.data() + off, dev_.data() + off, n);
        ++to_cpu;
    }
    void sync_for_device(uint64_t off, uint64_t n) override {
        ASSERT_LE(off + n, cpu_.size());
        std::memcpy(dev_.data() + off, cpu_.data() + off, n);
        ++to_device;
    }
    std::vector<uint8_t> cpu_, dev_;
    uint64_t phys_;
    int to_cpu = 0, to_device = 0;
};

// The configuration CSRs every fake accel_top reports: the identity the driver checks.
std::optional<uint32_t> config_csr(const HwParams& hw, uint32_t off) {
    switch (off) {
        case csr::kCfgBatch: return hw.batch;
        case csr::kCfgBlockIn: return hw.block_in;
        case csr::kCfgBlockOut: return hw.block_out;
        case csr::kCfgAxiDataBits: return hw.beat_bytes * 8;
        case csr::kCfgInpDepth: return hw.inp_depth;
        case csr::kCfgWgtDepth: return hw.wgt_depth;
        case csr::kCfgAccDepth: return hw.acc_depth;
        default: return std::nullopt;
    }
}

// The CSRs of accel_top; a start runs fsim on the device view, at physical addresses.
class FakeRegs final : public RegisterFile {
public:
    FakeRegs(const HwParams& hw, FakeDma& dma) : hw_(hw), dma_(dma) {}
    uint32_t read32(uint32_t off) override {
        if (const auto v = config_csr(hw_, off)) return *v;
        switch (off) {
            case csr::kStatus: return started_ ? 2u : 0u;  // done
            case csr::kError: return c_.errors;
            default: break;
        }
        const std::pair<uint32_t, uint64_t> counters[] = {
            {csr::kGemmSteps, c_.gemm_steps}, {csr::kLoadBytes, c_.load_bytes},
            {csr::kDrainBytes, c_.drain_bytes}, {csr::kLoadInsns, c_.load_insns},
            {csr::kGemmInsns, c_.gemm_insns}, {csr::kDrainInsns, c_.drain_insns}};
        for (const auto& [reg, v] : counters) {
            if (off == reg) return static_cast<uint32_t>(v);
            if (off == reg + 4) return static_cast<uint32_t>(v >> 32);
        }
        return 0;
    }
    void write32(uint32_t off, uint32_t v) override {
        if (off == csr::kInsnAddr) insn_addr_ = v;
        if (off == csr::kInsnCount) insn_count_ = v;
        if (off != csr::kCtrl || !(v & 1)) return;
        // DRAM below the buffer holds nothing the program may touch.
        FunctionalSim sim(hw_, dma_.phys_ + dma_.dev_.size());
        sim.write_dram(dma_.phys_, dma_.dev_);
        c_ = sim.run(insn_addr_, insn_count_);
        sim.read_dram(dma_.phys_, dma_.dev_);
        started_ = true;
        ++runs;
    }
    int runs = 0;

private:
    HwParams hw_;
    FakeDma& dma_;
    uint32_t insn_addr_ = 0, insn_count_ = 0;
    bool started_ = false;
    DeviceCounters c_;
};

constexpr uint64_t kPhys = 0x30000;  // non-zero, so a missing relocation reads the wrong bytes

TEST(ZynqDevice, Conv2dOnFakesIsBitExact) {
    std::mt19937 rng(606);
    for (const char* cfg : {"tiny", "default"}) {
        const HwParams hw = test::shipped_hw(cfg);
        Conv2dParams geometry;
        geometry.pad_top = geometry.pad_left = 1;
        geometry.stride_h = 2;
        const testing::LayerCase c =
            testing::make_case(rng, Conv2dShape{2, 9, 7, 20, 24, 3, 3}, geometry);
        const Conv2dPlan plan = plan_conv2d(c.layer, hw);
        const DeviceFactory zynq = [&](const HwParams& p, uint64_t bytes) {
            auto buf = std::make_unique<FakeDma>(bytes + 4096, kPhys);
            auto r = std::make_unique<FakeRegs>(p, *buf);
            return std::make_unique<ZynqDevice>(p, std::move(r), std::move(buf), bytes);
        };
        const Conv2dRun run = run_conv2d(zynq, hw, c.layer, plan, c.x, c.w, c.bias);
        const TensorI8 want = conv2d_reference(c.layer, c.x, c.w, c.bias);
        EXPECT_EQ(run.y.data, want.data) << cfg;
        EXPECT_GT(testing::distinct_values(want), 20u);
        EXPECT_EQ(static_cast<int64_t>(run.counters.gemm_steps), run.plan.ideal_cycles) << cfg;
        EXPECT_GT(run.counters.load_insns, 0u);
    }
}

TEST(ZynqDevice, SyncsRelocatesAndRestoresTheProgram) {
    const HwParams hw = test::shipped_hw("tiny");
    std::mt19937 rng(7);
    const testing::LayerCase c = testing::make_case(rng, Conv2dShape{1, 4, 4, 4, 4, 1, 1}, {});
    const Conv2dPlan plan = plan_conv2d(c.layer, hw);
    const Conv2dProgram program = schedule_conv2d(c.layer, hw, plan);
    const std::vector<uint8_t> image = build_dram_image(program, hw, c.x, c.w, c.bias);

    auto buf = std::make_unique<FakeDma>(image.size(), kPhys);
    FakeDma& dma = *buf;
    auto r = std::make_unique<FakeRegs>(hw, dma);
    FakeRegs& regs = *r;
    ZynqDevice dev(hw, std::move(r), std::move(buf), image.size());
    dev.write_dram(0, image);
    EXPECT_EQ(dma.to_device, 0);
    const DeviceCounters counters =
        dev.run(program.layout.program.base, static_cast<uint32_t>(program.insns.size()));
    EXPECT_EQ(counters.errors, 0u) << isa::error_names(counters.errors);
    EXPECT_EQ(regs.runs, 1);
    EXPECT_EQ(dma.to_device, 1);
    EXPECT_GE(dma.to_cpu, 1);
    // The device saw physical addresses; the host sees its program unchanged.
    std::vector<uint8_t> back(image.size());
    dev.read_dram(0, back);
    const uint64_t prog = program.layout.program.base;
    const uint64_t prog_end = prog + program.insns.size() * isa::kInsnBytes;
    EXPECT_TRUE(std::equal(image.begin() + static_cast<ptrdiff_t>(prog),
                           image.begin() + static_cast<ptrdiff_t>(prog_end),
                           back.begin() + static_cast<ptrdiff_t>(prog)));
    EXPECT_FALSE(std::equal(image.begin() + static_cast<ptrdiff_t>(prog),
                            image.begin() + static_cast<ptrdiff_t>(prog_end),
                            dma.dev_.begin() + static_cast<ptrdiff_t>(prog)))
        << "the device view holds the relocated program";
    const TensorI8 y = unpack_output(c.layer, hw,
                                     back.data() + program.layout.output.base);
    EXPECT_EQ(y.data, conv2d_reference(c.layer, c.x, c.w, c.bias).data);
}

TEST(ZynqDevice, RefusesWhatWouldLeaveTheBuffer) {
    const HwParams hw = test::shipped_hw("tiny");
    auto make = [&](size_t size) {
        auto buf = std::make_unique<FakeDma>(size, kPhys);
        auto r = std::make_unique<FakeRegs>(hw, *buf);
        return std::make_unique<ZynqDevice>(hw, std::move(r), std::move(buf), size);
    };
    auto dev = make(1024);
    isa::Load load;
    load.dram_base = 1024 - 4;
    load.x_size = 2;  // two 4-byte entries: the second is past the end
    std::vector<uint8_t> prog;
    for (const isa::Insn& i : {isa::Insn{load}, isa::Insn{isa::Finish{}}}) {
        const isa::InsnWord w = isa::encode(i);
        prog.insert(prog.end(), w.begin(), w.end());
    }
    dev->write_dram(0, prog);
    EXPECT_THROW(dev->run(0, 2), DeviceError);
    EXPECT_THROW(dev->run(1024 - 64, 2), DeviceError);  // the program itself runs past the end
    EXPECT_THROW(dev->write_dram(1020, std::vector<uint8_t>(8)), Error);
    // Too small for the layer; a buffer above 4 GiB; another hardware config.
    auto small = std::make_unique<FakeDma>(8, kPhys);
    auto small_regs = std::make_unique<FakeRegs>(hw, *small);
    EXPECT_THROW(ZynqDevice(hw, std::move(small_regs), std::move(small), 16), Error);
    auto high = std::make_unique<FakeDma>(4096, 0xFFFFF000ull + 4096);
    auto high_regs = std::make_unique<FakeRegs>(hw, *high);
    EXPECT_THROW(ZynqDevice(hw, std::move(high_regs), std::move(high), 64), Error);
    auto other = std::make_unique<FakeDma>(4096, kPhys);
    auto other_regs = std::make_unique<FakeRegs>(test::shipped_hw("default"), *other);
    EXPECT_THROW(ZynqDevice(hw, std::move(other_regs), std::move(other), 64), Error);
}

// An accelerator that never finishes and makes no progress: the watchdog names it.
class StuckRegs final : public RegisterFile {
public:
    explicit StuckRegs(const HwParams& hw) : hw_(hw) {}
    uint32_t read32(uint32_t off) override {
        if (const auto v = config_csr(hw_, off)) return *v;
        switch (off) {
            case csr::kStatus: return 1;  // busy, never done
            case csr::kUnitState: return 0x1200;  // compute busy, drain waiting
            default: return 0;
        }
    }
    void write32(uint32_t, uint32_t) override {}

private:
    HwParams hw_;
};

TEST(ZynqDevice, WatchdogCatchesAStalledRun) {
    const HwParams hw = test::shipped_hw("tiny");
    ZynqOptions options;
    options.run.stall_timeout = std::chrono::milliseconds(50);
    ZynqDevice dev(hw, std::make_unique<StuckRegs>(hw), std::make_unique<FakeDma>(4096, kPhys),
                   64, options);
    const isa::InsnWord finish = isa::encode(isa::Finish{});
    dev.write_dram(0, finish);
    try {
        dev.run(0, 1);
        FAIL() << "no watchdog";
    } catch (const DeviceError& e) {
        EXPECT_NE(std::string(e.what()).find("watchdog"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("compute busy, drain waiting for a token"),
                  std::string::npos) << e.what();
    }
}

// The real UIO and u-dma-buf code on plain files: sysfs parsing, mmap, sync files.
class FakeSysfs : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("accel-zynq-" + std::to_string(::getpid()));
        fs::remove_all(root_);
        fs::create_directories(root_ / "class/u-dma-buf/udmabuf0");
        fs::create_directories(root_ / "class/uio/uio0/maps/map0");
        put("class/u-dma-buf/udmabuf0/size", "8192");
        put("class/u-dma-buf/udmabuf0/phys_addr", "0x3f000000");
        for (const char* f : {"sync_offset", "sync_size", "sync_direction", "sync_for_cpu",
                              "sync_for_device"}) {
            put(std::string("class/u-dma-buf/udmabuf0/") + f, "0");
        }
        put("class/uio/uio0/maps/map0/size", "0x1000");
        put("udmabuf0", std::string(8192, '\0'));
        put("uio0", std::string(4096, '\0'));
    }
    void TearDown() override { fs::remove_all(root_); }
    void put(const std::string& rel, const std::string& text) {
        std::ofstream(root_ / rel, std::ios::binary) << text;
    }
    std::string get(const std::string& rel) {
        std::ifstream in(root_ / rel, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
    fs::path root_;
};

TEST_F(FakeSysfs, UdmabufMapsAndSyncs) {
    auto buf = open_udmabuf((root_ / "udmabuf0").string(), (root_ / "class/u-dma-buf").string());
    EXPECT_EQ(buf->bytes().size(), 8192u);
    EXPECT_EQ(buf->phys_addr(), 0x3f000000u);
    buf->bytes()[100] = 0x5A;
    EXPECT_EQ(get("udmabuf0")[100], 0x5A);  // a shared mapping of the device file
    buf->sync_for_device(64, 256);
    EXPECT_EQ(get("class/u-dma-buf/udmabuf0/sync_offset"), "64");
    EXPECT_EQ(get("class/u-dma-buf/udmabuf0/sync_size"), "256");
    EXPECT_EQ(get("class/u-dma-buf/udmabuf0/sync_direction"), "1");
    EXPECT_EQ(get("class/u-dma-buf/udmabuf0/sync_for_device"), "1");
    buf->sync_for_cpu(0, 8192);
    EXPECT_EQ(get("class/u-dma-buf/udmabuf0/sync_direction"), "2");
    EXPECT_EQ(get("class/u-dma-buf/udmabuf0/sync_for_cpu"), "1");
    EXPECT_THROW(open_udmabuf((root_ / "udmabuf1").string(), (root_ / "class/u-dma-buf").string()),
                 Error);
}

TEST_F(FakeSysfs, UioMapsTheRegisters) {
    auto regs = open_uio((root_ / "uio0").string(), (root_ / "class/uio").string());
    regs->write32(csr::kInsnCount, 0xDEADBEEF);
    EXPECT_EQ(regs->read32(csr::kInsnCount), 0xDEADBEEFu);
    const std::string file = get("uio0");
    uint32_t v = 0;
    std::memcpy(&v, file.data() + csr::kInsnCount, 4);
    EXPECT_EQ(v, 0xDEADBEEFu);
    EXPECT_THROW(regs->read32(0x1000), DeviceError);
    EXPECT_THROW(open_uio((root_ / "no-uio").string(), (root_ / "class/uio").string()), Error);
    EXPECT_THROW(make_zynq_device("only-one-path", test::shipped_hw("tiny"), 64), Error);
}

}  // namespace
}  // namespace accel
