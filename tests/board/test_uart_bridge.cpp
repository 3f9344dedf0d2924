// accel_uart_bridge (MEM_BYTES 256, TIMEOUT_CLKS 300): random request frames -- good ones and
// every kind of bad one -- fed byte by byte with random gaps, answers taken with random
// back-pressure, against an AXI4-Lite register model with random ready/response delays
// and a memory model with random grant delays. Frames are built by the host library
// (accel/uart_protocol.hpp), so host and RTL are checked against each other.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <vector>

#include "Vaccel_uart_bridge.h"
#include "devices/uart_protocol.hpp"
#include "bench_util.hpp"

namespace accel::bench {
namespace {

using uart::Command;
using uart::Status;

constexpr uint32_t kMem = 256;
constexpr uint32_t kTimeout = 300;
constexpr uint32_t kRegs = 0x100;  // the register model answers [0, 0x100); SLVERR above

class Bench {
public:
    Bench() : mem_(kMem), rng_(51), rx_gap_(52, 0.5), tx_stall_(53, 0.5), ready_(54, 0.5),
              gnt_stall_(55, 0.5) {
        m_.rx_valid_i = 0, m_.tx_ready_i = 0;
        m_.m_axil_awready = m_.m_axil_wready = m_.m_axil_bvalid = 0;
        m_.m_axil_arready = m_.m_axil_rvalid = 0;
        m_.mem_gnt_i = 0, m_.mem_rvalid_i = 0;
        reset(m_);
    }

    // Sends `frame`, returns the bytes the bridge sends back within `cycles`.
    std::vector<uint8_t> exchange(const std::vector<uint8_t>& frame, size_t answer_bytes,
                                  int cycles = 60000) {
        std::deque<uint8_t> rx(frame.begin(), frame.end());
        std::vector<uint8_t> tx;
        for (int c = 0; c < cycles && tx.size() < answer_bytes; ++c) cycle(rx, tx);
        for (int c = 0; c < 50; ++c) cycle(rx, tx);  // nothing more may follow
        EXPECT_TRUE(rx.empty()) << "the bridge stopped taking bytes";
        return tx;
    }

    void idle(int cycles) {
        std::deque<uint8_t> rx;
        std::vector<uint8_t> tx;
        for (int c = 0; c < cycles; ++c) cycle(rx, tx);
        EXPECT_TRUE(tx.empty());
    }

    std::vector<uint8_t> mem_;
    std::map<uint32_t, uint32_t> regs_;
    std::mt19937 rng_;
    int ok_pulses_ = 0, err_pulses_ = 0;

private:
    void cycle(std::deque<uint8_t>& rx, std::vector<uint8_t>& tx) {
        // Inputs: hold a raised rx_valid until taken.
        if (!m_.rx_valid_i && !rx.empty() && !rx_gap_()) m_.rx_valid_i = 1, m_.rx_data_i = rx.front();
        m_.tx_ready_i = !tx_stall_();
        m_.m_axil_awready = !aw_taken_ && ready_();
        m_.m_axil_wready = !w_taken_ && ready_();
        m_.m_axil_arready = !ar_taken_ && ready_();
        m_.mem_gnt_i = m_.mem_req_o ? !gnt_stall_() : 0;
        m_.eval();
        m_.mem_gnt_i = m_.mem_req_o ? m_.mem_gnt_i : 0;
        m_.eval();
        ASSERT_FALSE(m_.m_axil_awvalid && m_.m_axil_arvalid) << "one CSR access at a time";

        // This cycle's handshakes.
        bool rx_took = m_.rx_valid_i && m_.rx_ready_o;
        if (m_.tx_valid_o && m_.tx_ready_i) tx.push_back(m_.tx_data_o);
        if (m_.m_axil_awvalid && m_.m_axil_awready) aw_taken_ = true, aw_addr_ = m_.m_axil_awaddr;
        if (m_.m_axil_wvalid && m_.m_axil_wready) {
            w_taken_ = true, w_data_ = m_.m_axil_wdata;
            EXPECT_EQ(m_.m_axil_wstrb, 0xFu);
        }
        const bool b_done = m_.m_axil_bvalid && m_.m_axil_bready;
        const bool r_done = m_.m_axil_rvalid && m_.m_axil_rready;
        if (m_.m_axil_arvalid && m_.m_axil_arready) ar_taken_ = true, ar_addr_ = m_.m_axil_araddr;
        bool mem_read = false;
        uint8_t mem_byte = 0;
        if (m_.mem_req_o && m_.mem_gnt_i) {
            EXPECT_LT(m_.mem_addr_o, kMem);
            if (m_.mem_we_o) mem_[m_.mem_addr_o % kMem] = m_.mem_wdata_o;
            else mem_read = true, mem_byte = mem_[m_.mem_addr_o % kMem];
        }
        ok_pulses_ += m_.frame_ok_o;
        err_pulses_ += m_.frame_err_o;
        tick(m_);

        // Outputs of the models for the next cycle.
        if (rx_took) m_.rx_valid_i = 0, rx.pop_front();
        m_.mem_rvalid_i = mem_read;
        m_.mem_rdata_i = mem_byte;
        if (b_done) m_.m_axil_bvalid = 0, aw_taken_ = w_taken_ = false;
        if (r_done) m_.m_axil_rvalid = 0, ar_taken_ = false;
        if (aw_taken_ && w_taken_ && !m_.m_axil_bvalid && !b_done && rng_() % 3 == 0) {
            const bool ok = aw_addr_ < kRegs;
            if (ok) regs_[aw_addr_] = w_data_;
            m_.m_axil_bvalid = 1, m_.m_axil_bresp = ok ? 0 : 2;
        }
        if (ar_taken_ && !m_.m_axil_rvalid && !r_done && rng_() % 3 == 0) {
            const bool ok = ar_addr_ < kRegs;
            m_.m_axil_rvalid = 1, m_.m_axil_rresp = ok ? 0 : 2;
            m_.m_axil_rdata = ok ? regs_[ar_addr_] : 0xDEADBEEF;
        }
    }

    Vaccel_uart_bridge m_;
    Stalls rx_gap_, tx_stall_, ready_, gnt_stall_;
    bool aw_taken_ = false, w_taken_ = false, ar_taken_ = false;
    uint32_t aw_addr_ = 0, w_data_ = 0, ar_addr_ = 0;
};

// The response the protocol prescribes.
std::vector<uint8_t> response(Status s, const std::vector<uint8_t>& payload = {}) {
    std::vector<uint8_t> r = {uart::kSyncResponse, static_cast<uint8_t>(s)};
    r.insert(r.end(), payload.begin(), payload.end());
    r.push_back(uart::crc8(std::span(r).subspan(1)));
    return r;
}

std::vector<uint8_t> le32(uint32_t v) {
    return {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v >> 16),
            static_cast<uint8_t>(v >> 24)};
}

TEST(UartBridge, RandomRequestsGoodAndBad) {
    Bench t;
    std::mt19937& rng = t.rng_;
    int kinds[12] = {};
    for (int i = 0; i < 400; ++i) {
        const int kind = static_cast<int>(rng() % 12);
        ++kinds[kind];
        std::vector<uint8_t> frame, want;
        const uint32_t reg = 4 * (rng() % (kRegs / 4));
        switch (kind) {
            case 0: {  // INFO
                frame = uart::encode_request(Command::Info, 0, 0);
                std::vector<uint8_t> p = {'A', 'C', 'C', uart::kVersion};
                const std::vector<uint8_t> size = le32(kMem);
                p.insert(p.end(), size.begin(), size.end());
                want = response(Status::Ok, p);
                break;
            }
            case 1: case 2: {  // REG_WRITE then the model holds it
                const uint32_t v = rng();
                frame = uart::encode_request(Command::RegWrite, reg, 0, le32(v));
                want = response(Status::Ok);
                t.regs_[reg] = v;  // expected (checked by later reads)
                break;
            }
            case 3: {  // REG_READ
                frame = uart::encode_request(Command::RegRead, reg, 0);
                want = response(Status::Ok, le32(t.regs_[reg]));
                break;
            }
            case 4: case 5: {  // MEM_WRITE
                const uint32_t len = rng() % 40, addr = rng() % (kMem - len + 1);
                std::vector<uint8_t> data(len);
                for (auto& b : data) b = static_cast<uint8_t>(rng());
                frame = uart::encode_request(Command::MemWrite, addr, static_cast<uint16_t>(len), data);
                want = response(Status::Ok);
                std::copy(data.begin(), data.end(), t.mem_.begin() + addr);
                break;
            }
            case 6: {  // MEM_READ
                const uint32_t len = rng() % 40, addr = rng() % (kMem - len + 1);
                frame = uart::encode_request(Command::MemRead, addr, static_cast<uint16_t>(len));
                want = response(Status::Ok, std::vector<uint8_t>(t.mem_.begin() + addr,
                                                                 t.mem_.begin() + addr + len));
                break;
            }
            case 7: {  // a corrupted byte anywhere after the sync: BAD_CHECKSUM, nothing done
                frame = uart::encode_request(Command::RegWrite, reg, 0, le32(rng()));
                frame[8 + rng() % 4] ^= static_cast<uint8_t>(1u << (rng() % 8));
                want = response(Status::BadChecksum);
                break;
            }
            case 8: {  // memory past the end
                const uint32_t len = 1 + rng() % 8;
                frame = uart::encode_request(Command::MemRead, kMem - len + 1 + rng() % 4,
                                             static_cast<uint16_t>(len));
                want = response(Status::BadAddress);
                break;
            }
            case 9: {  // unaligned register, a register with a length, an unknown command
                const int which = static_cast<int>(rng() % 3);
                frame = which == 0 ? uart::encode_request(Command::RegRead, reg | 1, 0)
                      : which == 1 ? uart::encode_request(Command::RegRead, reg, 4)
                                   : uart::encode_request(static_cast<Command>(9), reg, 0);
                want = response(which == 0 ? Status::BadAddress
                                : which == 1 ? Status::BadLength : Status::BadCommand);
                break;
            }
            case 10: {  // a register the slave refuses
                frame = uart::encode_request(Command::RegRead, kRegs + reg, 0);
                want = response(Status::BusError);
                break;
            }
            default: {  // a mem write past the end: BAD_ADDRESS, memory untouched
                const std::vector<uint8_t> data = {1, 2, 3};
                frame = uart::encode_request(Command::MemWrite, kMem - 2, 3, data);
                want = response(Status::BadAddress);
                break;
            }
        }
        const std::vector<uint8_t> got = t.exchange(frame, want.size());
        ASSERT_EQ(got, want) << "request " << i << " kind " << kind;
    }
    for (int k : kinds) EXPECT_GT(k, 10);
    EXPECT_GT(t.ok_pulses_, 150);
    EXPECT_GT(t.err_pulses_, 100);
}

TEST(UartBridge, TruncatedFrameIsDroppedAfterTheTimeout) {
    Bench t;
    std::vector<uint8_t> cut = uart::encode_request(Command::MemWrite, 0, 10, std::vector<uint8_t>(10, 7));
    cut.resize(cut.size() - 4);
    EXPECT_TRUE(t.exchange(cut, 1, 100).empty());
    const int errors = t.err_pulses_;
    EXPECT_EQ(errors, 0);
    t.idle(static_cast<int>(kTimeout));
    EXPECT_EQ(t.err_pulses_, errors + 1) << "the drop is signalled once";
    // The hunt for the sync byte skips garbage, then a frame is answered.
    std::vector<uint8_t> f = {0x00, 0x13, uart::kSyncResponse};
    const std::vector<uint8_t> info = uart::encode_request(Command::RegRead, 0, 0);
    f.insert(f.end(), info.begin(), info.end());
    EXPECT_EQ(t.exchange(f, 7), response(Status::Ok, le32(0)));
}

}  // namespace
}  // namespace accel::bench
