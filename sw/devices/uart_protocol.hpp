// The host side of the board's UART protocol (docs/uart-protocol.md): frames, CRC-8 and
// a request/response link over a ByteChannel. rtl/board/accel_uart_bridge.sv is the board side.
#pragma once
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "devices/byte_channel.hpp"

namespace accel::uart {

constexpr uint8_t kSyncRequest = 0xA5;
constexpr uint8_t kSyncResponse = 0x5A;
constexpr uint8_t kVersion = 1;
constexpr size_t kHeaderBytes = 8;        // sync, command, address[4], length[2]
constexpr uint32_t kMaxChunk = 1024;      // bytes per MEM_READ/MEM_WRITE frame the host sends

enum class Command : uint8_t { Info = 1, RegRead = 2, RegWrite = 3, MemRead = 4, MemWrite = 5 };

enum class Status : uint8_t {
    Ok = 0,
    BadChecksum = 1,
    BadCommand = 2,
    BadAddress = 3,
    BadLength = 4,
    BusError = 5,
};

const char* status_name(uint8_t status);

// CRC-8, polynomial 0x07 (x^8 + x^2 + x + 1), MSB first, no reflection, no final XOR;
// continues from `crc`. crc8("123456789") = 0xF4.
uint8_t crc8(std::span<const uint8_t> bytes, uint8_t crc = 0);

// A complete request frame: sync, header, payload, CRC.
std::vector<uint8_t> encode_request(Command command, uint32_t address, uint16_t length,
                                    std::span<const uint8_t> payload = {});

struct Response {
    uint8_t status = 0;
    std::vector<uint8_t> payload;
};

struct BoardInfo {
    uint8_t version = 0;
    uint32_t mem_bytes = 0;
};

struct LinkOptions {
    // Longest wait for the next byte of a response.
    std::chrono::milliseconds timeout{1000};
    // Times a request is sent again after a garbled exchange (a BAD_CHECKSUM answer, a
    // response with a bad CRC, or no response). 0: fail at once.
    int retries = 2;
};

// Request/response over a channel. Every failure is an accel::DeviceError naming the
// channel: no answer, a garbled answer after the retries, or an error status.
class Link {
public:
    Link(ByteChannel& channel, LinkOptions options) : channel_(channel), options_(options) {}

    BoardInfo info();
    uint32_t read_reg(uint32_t offset);
    void write_reg(uint32_t offset, uint32_t value);
    // Split into frames of at most kMaxChunk bytes.
    void read_mem(uint32_t address, std::span<uint8_t> out);
    void write_mem(uint32_t address, std::span<const uint8_t> bytes);

    // One exchange, no retries, any status returned: for tests of the error paths.
    // `ok_payload` is the payload length an OK answer carries. DeviceError when no
    // valid response arrives.
    Response exchange(std::span<const uint8_t> frame, size_t ok_payload);

    uint64_t frames() const { return frames_; }
    uint64_t retried() const { return retried_; }

private:
    Response request(Command command, uint32_t address, uint16_t length,
                     std::span<const uint8_t> payload, size_t ok_payload);
    void read_exact(std::span<uint8_t> out, const char* what);

    ByteChannel& channel_;
    LinkOptions options_;
    uint64_t frames_ = 0, retried_ = 0;
};

}  // namespace accel::uart
