#include "devices/uart_protocol.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel::uart {
namespace {

void put_le(std::vector<uint8_t>& v, uint64_t x, int bytes) {
    for (int i = 0; i < bytes; ++i) v.push_back(static_cast<uint8_t>(x >> (8 * i)));
}

uint32_t get_le32(std::span<const uint8_t> b) {
    return uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
}

// A garbled exchange that a retry may fix; error statuses and such are not.
struct Garbled {
    std::string what;
};

}  // namespace

const char* status_name(uint8_t status) {
    switch (static_cast<Status>(status)) {
        case Status::Ok: return "OK";
        case Status::BadChecksum: return "BAD_CHECKSUM";
        case Status::BadCommand: return "BAD_COMMAND";
        case Status::BadAddress: return "BAD_ADDRESS";
        case Status::BadLength: return "BAD_LENGTH";
        case Status::BusError: return "BUS_ERROR";
    }
    return "unknown status";
}

uint8_t crc8(std::span<const uint8_t> bytes, uint8_t crc) {
    for (uint8_t b : bytes) {
        crc ^= b;
        for (int i = 0; i < 8; ++i) {
            crc = static_cast<uint8_t>((crc & 0x80) ? (crc << 1) ^ 0x07 : crc << 1);
        }
    }
    return crc;
}

std::vector<uint8_t> encode_request(Command command, uint32_t address, uint16_t length,
                                    std::span<const uint8_t> payload) {
    std::vector<uint8_t> f;
    f.reserve(kHeaderBytes + payload.size() + 1);
    f.push_back(kSyncRequest);
    f.push_back(static_cast<uint8_t>(command));
    put_le(f, address, 4);
    put_le(f, length, 2);
    f.insert(f.end(), payload.begin(), payload.end());
    f.push_back(crc8(std::span(f).subspan(1)));
    return f;
}

void Link::read_exact(std::span<uint8_t> out, const char* what) {
    size_t got = 0;
    while (got < out.size()) {
        const size_t n = channel_.read_some(out.subspan(got), options_.timeout);
        if (n == 0) {
            throw Garbled{fmt::format("no {} within {} ms", what, options_.timeout.count())};
        }
        got += n;
    }
}

Response Link::exchange(std::span<const uint8_t> frame, size_t ok_payload) {
    try {
        channel_.write(frame);
        ++frames_;
        uint8_t b = 0;
        // Skip anything before the sync byte (line noise, the tail of a garbled answer).
        do {
            read_exact(std::span(&b, 1), "response");
        } while (b != kSyncResponse);
        Response r;
        read_exact(std::span(&r.status, 1), "response status");
        r.payload.resize(r.status == 0 ? ok_payload : 0);
        read_exact(r.payload, "response payload");
        uint8_t crc = 0;
        read_exact(std::span(&crc, 1), "response checksum");
        const uint8_t want = crc8(r.payload, crc8(std::span(&r.status, 1)));
        if (crc != want) {
            throw Garbled{fmt::format("response checksum 0x{:02x}, expected 0x{:02x}", crc, want)};
        }
        return r;
    } catch (const Garbled& g) {
        throw DeviceError(fmt::format("uart:{}: {}", channel_.name(), g.what));
    }
}

Response Link::request(Command command, uint32_t address, uint16_t length,
                       std::span<const uint8_t> payload, size_t ok_payload) {
    const std::vector<uint8_t> frame = encode_request(command, address, length, payload);
    for (int attempt = 0;; ++attempt) {
        std::string problem;
        Response r;
        try {
            r = exchange(frame, ok_payload);
        } catch (const DeviceError& e) {  // no answer, or a garbled one
            problem = e.what();
        }
        if (problem.empty()) {
            if (r.status == static_cast<uint8_t>(Status::Ok)) return r;
            if (r.status != static_cast<uint8_t>(Status::BadChecksum)) {
                throw DeviceError(fmt::format(
                    "uart:{}: the board answered {} to command {} at 0x{:08x} (length {})",
                    channel_.name(), status_name(r.status), static_cast<int>(command), address,
                    length));
            }
            problem = fmt::format("uart:{}: the board received a bad checksum", channel_.name());
        }
        if (attempt >= options_.retries) {
            throw DeviceError(fmt::format("{} (after {} attempts)", problem, attempt + 1));
        }
        ++retried_;
        channel_.discard_input();
    }
}

BoardInfo Link::info() {
    const Response r = request(Command::Info, 0, 0, {}, 8);
    if (r.payload[0] != 'A' || r.payload[1] != 'C' || r.payload[2] != 'C') {
        throw DeviceError(fmt::format("uart:{}: the board did not identify as an accel board",
                                      channel_.name()));
    }
    return BoardInfo{r.payload[3], get_le32(std::span(r.payload).subspan(4))};
}

uint32_t Link::read_reg(uint32_t offset) {
    return get_le32(request(Command::RegRead, offset, 0, {}, 4).payload);
}

void Link::write_reg(uint32_t offset, uint32_t value) {
    std::vector<uint8_t> p;
    put_le(p, value, 4);
    request(Command::RegWrite, offset, 0, p, 0);
}

void Link::read_mem(uint32_t address, std::span<uint8_t> out) {
    for (size_t done = 0; done < out.size();) {
        const auto n = static_cast<uint16_t>(std::min<size_t>(kMaxChunk, out.size() - done));
        const Response r = request(Command::MemRead, address + static_cast<uint32_t>(done), n, {}, n);
        std::copy(r.payload.begin(), r.payload.end(), out.begin() + static_cast<ptrdiff_t>(done));
        done += n;
    }
}

void Link::write_mem(uint32_t address, std::span<const uint8_t> bytes) {
    for (size_t done = 0; done < bytes.size();) {
        const auto n = static_cast<uint16_t>(std::min<size_t>(kMaxChunk, bytes.size() - done));
        request(Command::MemWrite, address + static_cast<uint32_t>(done), n,
                bytes.subspan(done, n), 0);
        done += n;
    }
}

}  // namespace accel::uart
