// The host side of the UART protocol parsing arbitrary board responses: a link runs one
// operation (info, register or memory access, chosen by the input) against a channel
// that answers with the rest of the input. Bad answers are accel::DeviceError; besides,
// every frame the host sends is a well-formed request whatever it received (sync byte,
// a header whose length matches the payload, chunks of at most kMaxChunk, a valid
// CRC), and it never sends more requests than its retries allow.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "devices/byte_channel.hpp"
#include "devices/uart_protocol.hpp"
#include "fuzz_check.hpp"

namespace {

namespace uart = accel::uart;

// Answers with the fuzz input, a random number of bytes at a time; records every write.
class ScriptedChannel : public accel::ByteChannel {
public:
    explicit ScriptedChannel(std::span<const uint8_t> answer) : answer_(answer) {}

    std::string name() const override { return "fuzz"; }
    void write(std::span<const uint8_t> bytes) override {
        frames_.emplace_back(bytes.begin(), bytes.end());
    }
    std::size_t read_some(std::span<uint8_t> out, std::chrono::milliseconds) override {
        if (answer_.empty()) return 0;  // the timeout passes
        // The first answer byte left sets the chunk size, as a serial port splits reads.
        const size_t n = std::min({out.size(), answer_.size(), size_t{answer_[0] % 7 + 1u}});
        std::copy_n(answer_.begin(), n, out.begin());
        answer_ = answer_.subspan(n);
        return n;
    }
    void discard_input() override {}

    const std::vector<std::vector<uint8_t>>& frames() const { return frames_; }

private:
    std::span<const uint8_t> answer_;
    std::vector<std::vector<uint8_t>> frames_;
};

void check_request(const std::vector<uint8_t>& f) {
    FUZZ_REQUIRE(f.size() >= uart::kHeaderBytes + 1 && f[0] == uart::kSyncRequest);
    const auto command = static_cast<uart::Command>(f[1]);
    const size_t length = f[6] | size_t{f[7]} << 8;
    const size_t payload = f.size() - uart::kHeaderBytes - 1;
    FUZZ_REQUIRE(length <= uart::kMaxChunk);
    if (command == uart::Command::MemWrite) FUZZ_REQUIRE(payload == length && length > 0);
    if (command == uart::Command::MemRead) FUZZ_REQUIRE(payload == 0 && length > 0);
    if (command == uart::Command::RegWrite) FUZZ_REQUIRE(payload == 4);
    FUZZ_REQUIRE(uart::crc8(std::span(f).subspan(1, f.size() - 2)) == f.back());
}

// Runs the operation the selector names; the number of requests it sends.
size_t run(uart::Link& link, uint8_t selector, size_t bytes) {
    std::vector<uint8_t> buffer(bytes, 0x3c);
    const size_t chunks = (bytes + uart::kMaxChunk - 1) / uart::kMaxChunk;
    switch (selector % 5) {
        case 0: link.info(); return 1;
        case 1: link.read_reg(0x10); return 1;
        case 2: link.write_reg(0x10, 0xdeadbeef); return 1;
        case 3: {
            link.read_mem(0x1000, buffer);
            return chunks;
        }
        default: link.write_mem(0x1000, buffer); return chunks;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    constexpr size_t kControlBytes = 4;
    if (size < kControlBytes) return 0;
    const uint8_t selector = data[0];
    const int retries = data[1] % 3;
    const size_t bytes = (data[2] | size_t{data[3]} << 8) % (3 * uart::kMaxChunk) + 1;
    ScriptedChannel channel(std::span(data + kControlBytes, size - kControlBytes));
    uart::Link link(channel, uart::LinkOptions{std::chrono::milliseconds(0), retries});
    size_t requests = 0;
    bool completed = false;
    try {
        requests = run(link, selector, bytes);
        completed = true;
    } catch (const accel::DeviceError&) {
        // a missing, garbled or refused answer, reported as the device failing
    }
    for (const auto& f : channel.frames()) check_request(f);
    FUZZ_REQUIRE(link.frames() == channel.frames().size());
    if (completed) {
        FUZZ_REQUIRE(link.frames() >= requests);
        FUZZ_REQUIRE(link.frames() <= requests * (retries + 1u));
    }
    return 0;
}
