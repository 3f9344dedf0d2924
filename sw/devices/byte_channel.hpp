// A bidirectional byte stream to a board: a serial port, or in tests the bit-banged
// UART pins of a Verilated accel_board_top. The UART protocol (uart_protocol.hpp) runs over it.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace accel {

class ByteChannel {
public:
    virtual ~ByteChannel() = default;

    virtual std::string name() const = 0;
    // Sends every byte (accel::DeviceError if the channel fails).
    virtual void write(std::span<const uint8_t> bytes) = 0;
    // Waits up to `timeout` for at least one byte; returns how many bytes were stored
    // into `out` (0 when the timeout passed with nothing received).
    virtual std::size_t read_some(std::span<uint8_t> out, std::chrono::milliseconds timeout) = 0;
    // Drops whatever has been received but not read (to resynchronise after an error).
    virtual void discard_input() = 0;
};

// A serial port through termios: raw 8N1, no flow control, at `baud`. accel::Error
// naming the path when it cannot be opened, is not a terminal, or the rate is not one
// termios supports.
std::unique_ptr<ByteChannel> open_serial_port(const std::string& path, unsigned baud);

}  // namespace accel
