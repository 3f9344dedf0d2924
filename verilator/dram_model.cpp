#include "dram_model.hpp"

#include <cstring>
#include <string>
#include <utility>

#include "base/error.hpp"
#include "hw/dram_bus.hpp"

namespace accel::sim {
namespace {

std::string hex(uint64_t v) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    do {
        s.insert(s.begin(), digits[v & 15]);
        v >>= 4;
    } while (v != 0);
    return "0x" + s;
}

}  // namespace

DramModel::DramModel(std::size_t bytes, unsigned beat_bytes, unsigned latency_cycles,
                     unsigned max_outstanding)
    : beat_(beat_bytes),
      latency_(latency_cycles == 0 ? 1 : latency_cycles),
      latency_cfg_(latency_cycles),
      max_out_(max_outstanding) {
    if (bytes == 0) throw Error("dram: memory size must be positive");
    if (beat_bytes == 0 || beat_bytes > 128 || (beat_bytes & (beat_bytes - 1)) != 0) {
        throw Error("dram: beat_bytes " + std::to_string(beat_bytes) +
                    " is not a power of two in [1, 128]");
    }
    if (max_outstanding == 0 || max_outstanding > 256) {
        throw Error("dram: max_outstanding " + std::to_string(max_outstanding) +
                    " is not in [1, 256]");
    }
    mem_.assign(bytes, 0);
    zeros_.assign(beat_bytes, 0);
    r_reg_.assign(beat_bytes, 0);
    rb_.resize(max_outstanding);
    wb_.resize(max_outstanding);
    reset();
}

void DramModel::reset() {
    rh_ = reads_n_ = 0;
    wh_ = writes_n_ = w_full_ = 0;
    last_was_read_ = false;
    prev_valid_ = prev_wvalid_ = false;
    ar_wait_ = aw_wait_ = w_wait_ = false;
    r_serving_ = 0;
    if (faults_) faults_->clear_stalls();
    out_ = SlaveOut{};
    out_.rdata = zeros_.data();
    update_outputs(false, false);
}

void DramModel::set_faults(const DramFaultPlan& plan) {
    faults_ = plan.empty() ? nullptr : std::make_unique<DramFaultInjector>(plan);
}

void DramModel::reset_counters() {
    cycle_base_ = now_;
    bytes_read_ = bytes_written_ = read_beats_ = write_beats_ = 0;
    read_bursts_ = write_bursts_ = error_bursts_ = violations_ = 0;
    first_violation_.clear();
}

// step() and the per-cycle helpers below (marked inline so the compiler folds them
// into step(); they are private and used only in this file) are the hot path.
void DramModel::step(const MasterOut& m) {
    check_held(m);
    if (held_ != 0) count_fault_delay(m);
    const bool ar_hs = m.arvalid && out_.arready;
    const bool aw_hs = m.awvalid && out_.awready;
    const bool r_hs = out_.rvalid && m.rready;
    const bool w_hs = out_.wready && m.wvalid;
    const bool b_hs = out_.bvalid && m.bready;
    // Retire before accepting: the rings hold max_out_ entries and ready was computed
    // from the counts at the start of the cycle, so either order fits.
    if (r_hs) deliver_read_beat();
    if (w_hs) accept_write_beat(m);
    if (b_hs) retire_write();
    if (ar_hs) accept_read(m);
    if (aw_hs) accept_write(m);
    if (faults_) {
        const std::pair<bool, DramChannel> hs[] = {
            {ar_hs, kChanAr}, {r_hs, kChanR}, {aw_hs, kChanAw}, {w_hs, kChanW}, {b_hs, kChanB}};
        for (const auto& [happened, channel] : hs) {
            if (happened) faults_->handshake(channel);
        }
        if (m.arvalid && !ar_hs) faults_->offered(kChanAr, now_);
        if (m.awvalid && !aw_hs) faults_->offered(kChanAw, now_);
        if (m.wvalid && !w_hs) faults_->offered(kChanW, now_);
    }
    remember(m, ar_hs, aw_hs, w_hs);
    ++now_;
    update_outputs(r_hs, b_hs);
}

// A cycle counts when a fault held back what the master offered (AR, AW, W) or what the
// model owed it (a new R beat, a B).
void DramModel::count_fault_delay(const MasterOut& m) {
    if (((held_ & kChanAr) != 0 && m.arvalid) || ((held_ & kChanAw) != 0 && m.awvalid) ||
        ((held_ & kChanW) != 0 && m.wvalid) || (held_ & (kChanR | kChanB)) != 0) {
        ++fault_delay_;
    }
}

// AXI: once valid is high, it and its payload stay until the handshake.
inline void DramModel::check_held(const MasterOut& m) {
    if (ar_wait_ && (!m.arvalid || m.araddr != ar_addr_ || m.arlen != ar_len_ || m.arid != ar_id_)) {
        violation("AR dropped or changed before its handshake");
    }
    if (aw_wait_ && (!m.awvalid || m.awaddr != aw_addr_ || m.awlen != aw_len_)) {
        violation("AW dropped or changed before its handshake");
    }
    if (w_wait_ && (!m.wvalid || m.wlast != w_last_)) {
        violation("W dropped or wlast changed before its handshake");
    }
}

inline void DramModel::remember(const MasterOut& m, bool ar_hs, bool aw_hs, bool w_hs) {
    ar_wait_ = m.arvalid && !ar_hs;
    aw_wait_ = m.awvalid && !aw_hs;
    w_wait_ = m.wvalid && !w_hs;
    ar_addr_ = m.araddr;
    ar_len_ = m.arlen;
    ar_id_ = m.arid;
    aw_addr_ = m.awaddr;
    aw_len_ = m.awlen;
    w_last_ = m.wlast;
    prev_wvalid_ = m.wvalid;
    prev_valid_ = m.arvalid || m.awvalid || m.wvalid;
}

bool DramModel::burst_ok(uint32_t addr, unsigned len, const char* channel) {
    const uint64_t bytes = (uint64_t{len} + 1) * beat_;
    bool ok = true;
    if (addr % beat_ != 0) {
        violation(std::string(channel) + " address " + hex(addr) + " is not a multiple of the " +
                  std::to_string(beat_) + "-byte beat");
        ok = false;
    }
    if (addr % dram_bus::kPageBytes + bytes > dram_bus::kPageBytes) {
        violation(std::string(channel) + " burst at " + hex(addr) + " of " + std::to_string(len + 1) +
                  " beats crosses a " + std::to_string(dram_bus::kPageBytes / 1024) +
                  " KiB boundary");
        ok = false;
    }
    const uint64_t end = uint64_t{addr} + bytes;
    if (end > mem_.size() || end > dram_bus::kAddressSpaceBytes) ok = false;
    if (!ok) ++error_bursts_;
    return ok;
}

inline void DramModel::accept_read(const MasterOut& m) {
    ReadBurst& b = rb_[wrap(rh_ + reads_n_)];
    b.ready = now_ + latency_;
    b.addr = m.araddr;
    b.id = m.arid;
    b.len = m.arlen;
    b.next = 0;
    b.done = false;
    set_response(b, "AR", false);
    ++reads_n_;
    ++read_bursts_;
}

inline void DramModel::accept_write(const MasterOut& m) {
    WriteBurst& b = wb_[wrap(wh_ + writes_n_)];
    b.b_ready = 0;
    b.addr = m.awaddr;
    b.len = m.awlen;
    b.received = 0;
    set_response(b, "AW", true);
    ++writes_n_;
    ++write_bursts_;
}

inline void DramModel::deliver_read_beat() {
    ReadBurst& b = rb_[r_serving_];
    ++read_beats_;
    if (b.resp == kRespOkay) bytes_read_ += beat_;
    if (b.injected && b.next == 0) injected_.push_back({false, b.id, b.addr, b.resp});
    if (b.next++ == b.len) {
        b.done = true;
        while (reads_n_ > 0 && rb_[rh_].done) {  // overtaken bursts retire in order
            rh_ = wrap(rh_ + 1);
            --reads_n_;
        }
    }
}

inline void DramModel::accept_write_beat(const MasterOut& m) {
    WriteBurst& b = wb_[wrap(wh_ + w_full_)];
    const bool last = b.received == b.len;
    if (m.wlast != last) {
        violation("wlast " + std::to_string(m.wlast) + " on beat " + std::to_string(b.received) +
                  " of a " + std::to_string(b.len + 1) + "-beat burst at " + hex(b.addr));
    }
    if (m.wdata == nullptr) {
        violation("W beat without wdata");
    } else if (b.resp == kRespOkay) {
        std::memcpy(&mem_[b.addr + std::size_t{b.received} * beat_], m.wdata, beat_);
        bytes_written_ += beat_;
    }
    ++write_beats_;
    last_was_read_ = false;
    ++b.received;
    if (last) {
        b.b_ready = now_ + latency_;
        ++w_full_;
    }
}

inline void DramModel::retire_write() {
    const WriteBurst& b = wb_[wh_];
    if (b.injected) injected_.push_back({true, 0, b.addr, b.resp});
    wh_ = wrap(wh_ + 1);
    --writes_n_;
    --w_full_;
}

// The outputs of the cycle now_ from the state (and the fault plan's draws) alone.
inline void DramModel::update_outputs(bool r_taken, bool b_taken) {
    held_ = 0;
    out_.arready = reads_n_ < max_out_ && !held(kChanAr);
    out_.awready = writes_n_ < max_out_ && !held(kChanAw);
    const WriteBurst& bh = wb_[wh_];
    const bool b_offered = out_.bvalid && !b_taken;  // stays until taken (AXI)
    out_.bvalid = w_full_ > 0 && bh.b_ready <= now_ && (b_offered || !held(kChanB));
    out_.bresp = out_.bvalid ? bh.resp : kRespOkay;

    const bool w_avail = w_full_ < writes_n_;
    if (out_.rvalid && !r_taken) {
        // The offered beat stays in the R register until taken (AXI); it already had
        // its data-path cycle, so the path is free for writes meanwhile.
        out_.wready = w_avail && !held(kChanW);
        return;
    }
    const bool r_avail = reads_n_ > 0 && rb_[rh_].ready <= now_;
    const bool w_wants = w_avail && prev_wvalid_;
    const bool grant_r = r_avail && !(w_wants && last_was_read_) && !held(kChanR);
    out_.rvalid = grant_r;
    out_.wready = !grant_r && w_avail && !held(kChanW);
    if (grant_r) {  // this cycle's data-path use: one beat from memory into the R register
        r_serving_ = faults_ && faults_->reorder() ? other_id_burst() : rh_;
        const ReadBurst& b = rb_[r_serving_];
        last_was_read_ = true;
        out_.rid = b.id;
        out_.rresp = b.resp;
        out_.rlast = b.next == b.len;
        if (b.resp != kRespOkay) {
            out_.rdata = zeros_.data();
        } else {
            std::memcpy(r_reg_.data(), &mem_[b.addr + std::size_t{b.next} * beat_], beat_);
            out_.rdata = r_reg_.data();
        }
    } else {
        out_.rid = 0;
        out_.rresp = kRespOkay;
        out_.rlast = false;
        out_.rdata = zeros_.data();
    }
}

// The oldest unfinished burst, ready to answer, of another ID than the oldest burst's;
// the oldest burst itself when there is none.
unsigned DramModel::other_id_burst() const {
    const uint32_t head_id = rb_[rh_].id;
    for (unsigned i = 1; i < reads_n_; ++i) {
        const ReadBurst& b = rb_[wrap(rh_ + i)];
        if (b.ready > now_) break;  // accepted later, so not ready either
        if (!b.done && b.id != head_id) return wrap(rh_ + i);
    }
    return rh_;
}

void DramModel::violation(const std::string& what) {
    if (violations_++ == 0) first_violation_ = "cycle " + std::to_string(now_) + ": " + what;
}

void DramModel::check_host_range(uint64_t addr, std::size_t n, const char* what) const {
    if (addr > mem_.size() || n > mem_.size() - addr) {
        throw Error(std::string("dram: host ") + what + " of " + std::to_string(n) + " bytes at " +
                    hex(addr) + " is outside the " + std::to_string(mem_.size()) + "-byte memory");
    }
}

void DramModel::write(uint64_t addr, std::span<const uint8_t> bytes) {
    check_host_range(addr, bytes.size(), "write");
    if (!bytes.empty()) std::memcpy(&mem_[addr], bytes.data(), bytes.size());
}

void DramModel::read(uint64_t addr, std::span<uint8_t> out) const {
    check_host_range(addr, out.size(), "read");
    if (!out.empty()) std::memcpy(out.data(), &mem_[addr], out.size());
}

std::vector<uint8_t> DramModel::read(uint64_t addr, std::size_t n) const {
    std::vector<uint8_t> out(n);
    read(addr, out);
    return out;
}

}  // namespace accel::sim
