// The Verilated accel_board_top (tiny config) driven through its UART pins by the host's
// UartDevice -- the code `accel conv2d --device uart:PATH` runs -- over a bit-banged
// byte channel: the protocol, its error paths, and a conv2d bit-exact with the golden
// reference.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "base/error.hpp"
#include "compiler/planner.hpp"
#include "devices/fsim.hpp"
#include "devices/uart_device.hpp"
#include "hw/csr.hpp"
#include "hw/hw_config.hpp"
#include "hw/isa.hpp"
#include "ops/reference.hpp"
#include "runtime/runtime.hpp"
#include "board_channel.hpp"
#include "random_layer.hpp"
#include "shipped_hw.hpp"

namespace accel::board_test {
namespace {

using uart::Command;
using uart::Status;

uint8_t st(Status s) { return static_cast<uint8_t>(s); }

UartOptions fast_options() {
    UartOptions o;
    o.link.timeout = std::chrono::milliseconds(500);  // simulated: 5x the board's frame timeout
    return o;
}

TEST(BoardTop, InfoAndMemoryRoundTrip) {
    BoardChannel ch(BOARD_CLK_HZ, BOARD_BAUD, 1);
    uart::Link link(ch, fast_options().link);
    const uart::BoardInfo info = link.info();
    EXPECT_EQ(info.version, uart::kVersion);
    EXPECT_EQ(info.mem_bytes, uint32_t{BOARD_MEM_BYTES});

    std::mt19937 rng(3);
    std::vector<uint8_t> image(BOARD_MEM_BYTES);
    for (auto& b : image) b = static_cast<uint8_t>(rng());
    // Unaligned pieces of odd lengths, the last one ending at the memory's end.
    const std::pair<uint32_t, uint32_t> pieces[] = {
        {0, 17}, {17, 3}, {101, 64}, {1027, 1500}, {BOARD_MEM_BYTES - 9, 9}};
    for (const auto& [addr, n] : pieces) link.write_mem(addr, std::span(image).subspan(addr, n));
    for (const auto& [addr, n] : pieces) {
        std::vector<uint8_t> back(n);
        link.read_mem(addr, back);
        EXPECT_EQ(back, std::vector<uint8_t>(image.begin() + addr, image.begin() + addr + n))
            << "at " << addr;
    }
    EXPECT_EQ(link.retried(), 0u);
    EXPECT_EQ(ch.framing_errors(), 0u);
}

// rst_ni low (the iCEBreaker's button, the ULX3S's PLL before lock): no answer while
// it is held; after it, the board answers again and its memory kept its contents.
TEST(BoardTop, ResetHoldsTheBoardAndKeepsItsMemory) {
    BoardChannel ch(BOARD_CLK_HZ, BOARD_BAUD, 7);
    uart::LinkOptions options = fast_options().link;
    options.timeout = std::chrono::milliseconds(50);
    options.retries = 0;
    uart::Link link(ch, options);
    std::vector<uint8_t> data(64);
    std::mt19937 rng(11);
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    link.write_mem(256, data);

    ch.set_reset(true);
    EXPECT_THROW(link.info(), DeviceError);
    ch.set_reset(false);
    ch.idle(100);
    ch.discard_input();
    EXPECT_EQ(link.info().mem_bytes, uint32_t{BOARD_MEM_BYTES});
    std::vector<uint8_t> back(data.size());
    link.read_mem(256, back);
    EXPECT_EQ(back, data);
}

TEST(BoardTop, ErrorPathsAndResync) {
    BoardChannel ch(BOARD_CLK_HZ, BOARD_BAUD, 2);
    uart::LinkOptions lo = fast_options().link;
    lo.retries = 0;
    uart::Link link(ch, lo);
    const uint32_t mem = BOARD_MEM_BYTES;

    // A corrupted frame: the board answers BAD_CHECKSUM and the LED 3 lights.
    std::vector<uint8_t> f = uart::encode_request(Command::RegRead, csr::kCfgBlockIn, 0);
    f.back() ^= 0x01;
    EXPECT_EQ(link.exchange(f, 4).status, st(Status::BadChecksum));
    ch.idle(8);
    EXPECT_EQ((ch.leds() >> 3) & 1, 1u);
    // The next good frame is answered, and clears it.
    EXPECT_EQ(link.read_reg(csr::kCfgBlockIn), 4u);
    ch.idle(8);
    EXPECT_EQ((ch.leds() >> 3) & 1, 0u);

    // Memory accesses that reach past the end; the memory is not touched.
    const std::vector<uint8_t> two = {1, 2};
    EXPECT_EQ(link.exchange(uart::encode_request(Command::MemRead, mem, 1), 1).status,
              st(Status::BadAddress));
    EXPECT_EQ(link.exchange(uart::encode_request(Command::MemWrite, mem - 1, 2, two), 0).status,
              st(Status::BadAddress));
    EXPECT_EQ(link.exchange(uart::encode_request(Command::MemRead, 0xFFFFFFFFu, 2), 2).status,
              st(Status::BadAddress));
    link.write_mem(mem - 2, std::vector<uint8_t>{7, 8});
    EXPECT_EQ(link.exchange(uart::encode_request(Command::MemWrite, mem - 1, 2, two), 0).status,
              st(Status::BadAddress));
    std::vector<uint8_t> tail(2);
    link.read_mem(mem - 2, tail);
    EXPECT_EQ(tail, (std::vector<uint8_t>{7, 8}));

    // Register requests: unaligned, beyond the CSR window, with a length, unmapped.
    EXPECT_EQ(link.exchange(uart::encode_request(Command::RegRead, 0x102, 0), 4).status,
              st(Status::BadAddress));
    EXPECT_EQ(link.exchange(uart::encode_request(Command::RegRead, 0x1000, 0), 4).status,
              st(Status::BadAddress));
    EXPECT_EQ(link.exchange(uart::encode_request(Command::RegRead, 0x100, 4), 4).status,
              st(Status::BadLength));
    EXPECT_EQ(link.exchange(uart::encode_request(Command::RegRead, 0xFFC, 0), 4).status,
              st(Status::BusError));
    const std::vector<uint8_t> word = {1, 0, 0, 0};
    EXPECT_EQ(link.exchange(uart::encode_request(Command::RegWrite, csr::kStatus, 0, word), 0)
                  .status,
              st(Status::BusError));  // STATUS is read-only
    EXPECT_EQ(link.exchange(uart::encode_request(static_cast<Command>(0x7E), 0, 0), 0).status,
              st(Status::BadCommand));

    // Line noise before a frame is skipped by the board's sync hunt.
    std::vector<uint8_t> noisy = {0x00, 0x5A, 0xFF, 0x13};
    const std::vector<uint8_t> good = uart::encode_request(Command::RegRead, csr::kCfgBlockOut, 0);
    noisy.insert(noisy.end(), good.begin(), good.end());
    const uart::Response r = link.exchange(noisy, 4);
    EXPECT_EQ(r.status, st(Status::Ok));
    EXPECT_EQ(r.payload, (std::vector<uint8_t>{4, 0, 0, 0}));

    // A truncated frame gets no answer; once the board's frame timeout (100 ms) has
    // dropped it, the next frame is answered.
    std::vector<uint8_t> cut = uart::encode_request(Command::MemWrite, 0, 8, word);  // 4 of 8 bytes
    cut.pop_back();
    EXPECT_THROW(link.exchange(cut, 0), DeviceError);
    EXPECT_EQ(link.read_reg(csr::kCfgBlockIn), 4u);
    EXPECT_EQ(ch.framing_errors(), 0u);
}

// Garbles one frame, once: a bit of the first request's address on the way to the board,
// or a bit of the first payload byte of the board's first answer on the way back.
class FlipOnce final : public ForwardingChannel {
public:
    enum class Way { Request, Response };
    FlipOnce(ByteChannel& inner, Way way) : ForwardingChannel(inner), way_(way) {}
    void write(std::span<const uint8_t> bytes) override {
        std::vector<uint8_t> v(bytes.begin(), bytes.end());
        if (way_ == Way::Request && writes_++ == 0) v[3] ^= 0x40;  // 0xA5 CMD ADDR[0] ADDR[1]
        inner_.write(v);
    }
    std::size_t read_some(std::span<uint8_t> out, std::chrono::milliseconds t) override {
        const std::size_t n = inner_.read_some(out, t);
        for (std::size_t i = 0; i < n; ++i, ++read_) {
            if (way_ == Way::Response && read_ == 2) out[i] ^= 0x01;  // 0x5A STATUS payload
        }
        return n;
    }

private:
    Way way_;
    int writes_ = 0;
    int read_ = 0;
};

// The host retries a request the board received garbled, and one whose answer arrived
// garbled.
TEST(BoardTop, HostRetriesAGarbledFrame) {
    for (const FlipOnce::Way way : {FlipOnce::Way::Request, FlipOnce::Way::Response}) {
        BoardChannel ch(BOARD_CLK_HZ, BOARD_BAUD, way == FlipOnce::Way::Request ? 3 : 8);
        FlipOnce flaky(ch, way);
        uart::Link link(flaky, fast_options().link);
        EXPECT_EQ(link.read_reg(csr::kCfgBlockOut), 4u) << int(way);
        EXPECT_EQ(link.retried(), 1u) << int(way);
    }
}

TEST(BoardTop, DeviceRefusesALayerLargerThanItsMemory) {
    EXPECT_THROW(UartDevice(std::make_unique<BoardChannel>(BOARD_CLK_HZ, BOARD_BAUD, 4), test::shipped_hw("tiny"),
                            BOARD_MEM_BYTES + 1, fast_options()),
                 Error);
}

TEST(BoardTop, BusErrorFromTheAcceleratorIsReported) {
    const HwParams hw = test::shipped_hw("tiny");
    UartDevice dev(std::make_unique<BoardChannel>(BOARD_CLK_HZ, BOARD_BAUD, 5), hw, 256,
                   fast_options());
    isa::Load load;
    load.buffer = isa::Buffer::Inp;
    load.dram_base = BOARD_MEM_BYTES - 4;  // two 4-byte entries: the second is past the end
    load.x_size = 2;
    std::vector<uint8_t> prog;
    for (const isa::Insn& i : {isa::Insn{load}, isa::Insn{isa::Finish{}}}) {
        const isa::InsnWord w = isa::encode(i);
        prog.insert(prog.end(), w.begin(), w.end());
    }
    dev.write_dram(0, prog);
    const DeviceCounters c = dev.run(0, 2);
    EXPECT_EQ(c.errors, isa::error_bit(isa::ErrorCode::BusError)) << isa::error_names(c.errors);
}

TEST(BoardTop, Conv2dBitExactWithReference) {
    const HwParams hw = test::shipped_hw("tiny");
    std::mt19937 rng(2026);
    Conv2dParams geometry;
    geometry.pad_top = geometry.pad_bottom = geometry.pad_left = geometry.pad_right = 1;
    const testing::LayerCase c =
        testing::make_case(rng, Conv2dShape{1, 6, 6, 5, 6, 3, 3}, geometry);
    const Conv2dPlan plan = plan_conv2d(c.layer, hw);

    BoardChannel channel(BOARD_CLK_HZ, BOARD_BAUD, 6);
    uint64_t frames = 0;
    const DeviceFactory factory = [&](const HwParams& p, uint64_t bytes) {
        return std::make_unique<UartDevice>(std::make_unique<ChannelRef>(channel, &frames), p,
                                            bytes, fast_options());
    };
    const Conv2dRun run = run_conv2d(factory, hw, c.layer, plan, c.x, c.w, c.bias);
    const TensorI8 want = conv2d_reference(c.layer, c.x, c.w, c.bias);
    ASSERT_EQ(run.y.shape, want.shape);
    size_t mismatches = 0;
    for (size_t i = 0; i < want.size(); ++i) mismatches += run.y.data[i] != want.data[i];
    EXPECT_EQ(mismatches, 0u) << "of " << want.size();
    EXPECT_GT(testing::distinct_values(want), 20u);  // the data exercises the arithmetic

    // The ISA counters agree with the functional simulator's for the same program.
    const Conv2dRun ref = run_conv2d(
        [](const HwParams& p, uint64_t bytes) { return std::make_unique<FunctionalSim>(p, bytes); },
        hw, c.layer, plan, c.x, c.w, c.bias);
    EXPECT_EQ(run.counters.gemm_steps, ref.counters.gemm_steps);
    EXPECT_EQ(run.counters.load_insns, ref.counters.load_insns);
    EXPECT_EQ(run.counters.drain_insns, ref.counters.drain_insns);
    EXPECT_EQ(run.counters.load_bytes, ref.counters.load_bytes);
    EXPECT_EQ(run.counters.drain_bytes, ref.counters.drain_bytes);
    EXPECT_GT(run.counters.cycles, 0u);
    EXPECT_EQ(channel.framing_errors(), 0u);
    std::printf("board conv2d 1x6x6x5 * 3x3x5x6 (pad 1) on tiny: %lld instructions, %llu "
                "accelerator cycles, %llu UART frames; simulated %.3f s (%llu cycles at %llu Hz, "
                "%llu baud)\n",
                static_cast<long long>(run.instructions),
                static_cast<unsigned long long>(run.counters.cycles),
                static_cast<unsigned long long>(frames), channel.seconds(),
                static_cast<unsigned long long>(channel.cycles()),
                static_cast<unsigned long long>(channel.clk_hz()),
                static_cast<unsigned long long>(BOARD_BAUD));
}

}  // namespace
}  // namespace accel::board_test
