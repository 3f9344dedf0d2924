// The termios serial port behind `--device uart:PATH`.
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <fmt/format.h>

#include "base/error.hpp"
#include "devices/byte_channel.hpp"

namespace accel {
namespace {

speed_t termios_speed(unsigned baud) {
    switch (baud) {
        case 9600: return B9600;
        case 19200: return B19200;
        case 38400: return B38400;
        case 57600: return B57600;
        case 115200: return B115200;
        case 230400: return B230400;
        case 460800: return B460800;
        case 921600: return B921600;
        case 1000000: return B1000000;
        case 2000000: return B2000000;
        case 3000000: return B3000000;
        default: return B0;
    }
}

class SerialPort final : public ByteChannel {
public:
    static constexpr int kWriteStallMs = 5000;

    SerialPort(const std::string& path, unsigned baud) : path_(path) {
        const speed_t speed = termios_speed(baud);
        if (speed == B0) {
            throw Error(fmt::format("uart:{}: baud rate {} is not supported (9600 .. 3000000, "
                                    "the standard rates)", path, baud));
        }
        // Non-blocking: opening a port must not wait for a carrier; I/O waits in poll().
        fd_ = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
        if (fd_ < 0) {
            throw Error(fmt::format("uart:{}: cannot open: {}", path, std::strerror(errno)));
        }
        termios tio{};
        if (::tcgetattr(fd_, &tio) != 0) {
            const int e = errno;
            ::close(fd_);
            throw Error(fmt::format("uart:{}: not a serial port: {}", path, std::strerror(e)));
        }
        ::cfmakeraw(&tio);
        tio.c_cflag |= CLOCAL | CREAD;
        tio.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | CRTSCTS);
        tio.c_cc[VMIN] = 0;
        tio.c_cc[VTIME] = 0;
        ::cfsetispeed(&tio, speed);
        ::cfsetospeed(&tio, speed);
        if (::tcsetattr(fd_, TCSANOW, &tio) != 0) {
            const int e = errno;
            ::close(fd_);
            throw Error(fmt::format("uart:{}: cannot configure: {}", path, std::strerror(e)));
        }
        ::tcflush(fd_, TCIOFLUSH);
    }
    ~SerialPort() override { ::close(fd_); }
    SerialPort(const SerialPort&) = delete;
    SerialPort& operator=(const SerialPort&) = delete;

    std::string name() const override { return path_; }

    void write(std::span<const uint8_t> bytes) override {
        size_t done = 0;
        while (done < bytes.size()) {
            const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && errno == EAGAIN) {  // the output buffer is full: wait, not forever
                pollfd p{fd_, POLLOUT, 0};
                if (::poll(&p, 1, kWriteStallMs) == 0) {
                    throw DeviceError(fmt::format("uart:{}: the port took no data for {} ms",
                                                  path_, kWriteStallMs));
                }
                continue;
            }
            if (n <= 0) {
                throw DeviceError(fmt::format("uart:{}: write failed: {}", path_,
                                              std::strerror(errno)));
            }
            done += static_cast<size_t>(n);
        }
    }

    std::size_t read_some(std::span<uint8_t> out, std::chrono::milliseconds timeout) override {
        pollfd p{fd_, POLLIN, 0};
        int r;
        do {
            r = ::poll(&p, 1, static_cast<int>(timeout.count()));
        } while (r < 0 && errno == EINTR);
        if (r < 0) {
            throw DeviceError(fmt::format("uart:{}: poll failed: {}", path_, std::strerror(errno)));
        }
        if (r == 0) return 0;
        if (p.revents & (POLLERR | POLLNVAL)) {
            throw DeviceError(fmt::format("uart:{}: the port failed", path_));
        }
        const ssize_t n = ::read(fd_, out.data(), out.size());
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
        if (n < 0) {
            throw DeviceError(fmt::format("uart:{}: read failed: {}", path_, std::strerror(errno)));
        }
        // A hang-up (the adapter was unplugged, the pty's other side closed) reads 0.
        if (n == 0 && (p.revents & POLLHUP)) {
            throw DeviceError(fmt::format("uart:{}: the port hung up", path_));
        }
        return static_cast<size_t>(n);
    }

    void discard_input() override { ::tcflush(fd_, TCIFLUSH); }

private:
    std::string path_;
    int fd_ = -1;
};

}  // namespace

std::unique_ptr<ByteChannel> open_serial_port(const std::string& path, unsigned baud) {
    return std::make_unique<SerialPort>(path, baud);
}

}  // namespace accel
