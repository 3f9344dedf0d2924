// Cycle-level AXI4 slave model of the simulated DRAM (docs/hw-config.md, `dram`): what the
// accelerator's m_axi master talks to in the Verilator device and in RTL module benches.
//
// The model is Moore-style: its outputs for a cycle depend only on its internal state,
// so wiring it to RTL never forms a combinational loop. Per simulated cycle:
//
//     const accel::sim::SlaveOut& s = dram.outputs();
//     top->m_axi_arready = s.arready;  ...  std::memcpy(&top->m_axi_rdata, s.rdata, beat);
//     top->clk_i = 0; top->eval();        // master outputs settle for these inputs
//     accel::sim::MasterOut m;            // sample the master just before the edge
//     m.arvalid = top->m_axi_arvalid;  ...
//     m.wdata = reinterpret_cast<const uint8_t*>(&top->m_axi_wdata);
//     dram.clock_edge(m);                 // handshakes of this cycle, then one cycle on
//     top->clk_i = 1; top->eval();        // the RTL's rising edge
//
// (Verilator stores wide signals as little-endian 32-bit words and narrow ones as
// integers, so on a little-endian host byte k of a beat is at byte k of the signal.)
//
// Semantics (cycle c = the cycle whose outputs() were read before the c-th clock_edge):
// - INCR bursts of full beats: arsize/awsize are taken to be log2(beat_bytes).
// - AR: arready while fewer than max_outstanding read bursts are in flight (accepted,
//   last beat not yet taken). A burst accepted in cycle c offers its first beat from
//   cycle c + latency. Bursts are answered in acceptance order, beats of a burst in
//   order and never interleaved with another burst's; rid echoes arid.
// - AW: awready while fewer than max_outstanding write bursts await their B. W beats go
//   to the oldest accepted burst still missing data; wready is never raised before that
//   burst's AW was accepted (a master may raise wvalid early; the beat waits). The last
//   W beat taken in cycle c makes B valid from cycle c + latency. B in AW order.
// - One data path of beat_bytes per cycle: each cycle it moves one R beat from memory
//   into the R output register (rvalid rises with a new beat) or takes one W beat,
//   never both, so rvalid-with-a-new-beat and wready are never high together. When
//   reads and writes both want it they alternate (a write "wants" it when a burst awaits
//   data and the master's wvalid was high at the last edge). An offered R beat stays
//   offered until rready (AXI); while it waits the path is free and wready may be high,
//   so a master stalling R never blocks its own writes (no deadlock when rready waits on
//   write progress) -- in that cycle the held R beat and a W beat may both hand over.
// - A latency of 0 behaves as 1: a Moore slave cannot answer in the cycle it accepts.
// - A burst any byte of which lies outside the memory (or past 2^32) gets SLVERR:
//   rresp = 2 with zero data on every beat, or its W data discarded and bresp = 2.
//   Misaligned addresses and bursts crossing a 4 KiB boundary are RTL bugs: they get
//   SLVERR too and count as protocol violations, as do a wrong wlast and a master that
//   drops or changes AR/AW/W before its handshake. (A burst past 2^32 necessarily
//   crosses a 4 KiB boundary, so it is a violation as well.)
// - Faults (set_faults, dram_faults.hpp): backpressure and stalls lower a ready or delay
//   a new R beat or B, never an R or B already offered; reordering lets a read burst
//   overtake (and interleave with) the bursts of other IDs, never those of its own; an
//   error fault answers a burst as an out-of-range one is answered, with the plan's
//   response code. Each error fault answered is logged (injected_errors), and every
//   cycle in which a fault held back a transfer the master offered or the model owed is
//   counted (fault_delay_cycles), so that a device can tell the time the faults cost
//   from the RTL's own.
//
// Cost: an idle cycle is an inlined test and an increment; a cycle with traffic does
// a handful of branches and one beat-sized memcpy per R or W beat. rdata points at the
// model's R register (or a zero beat) and stays valid until the next clock_edge().
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dram_faults.hpp"

namespace accel::sim {

// The slave's outputs during one cycle.
struct SlaveOut {
    bool arready = false;
    bool rvalid = false;
    uint32_t rid = 0;
    const uint8_t* rdata = nullptr;  // beat_bytes bytes, never null; zeros unless rvalid
    uint8_t rresp = 0;               // 0 OKAY, 2 SLVERR, 3 DECERR
    bool rlast = false;
    bool awready = false;
    bool wready = false;
    bool bvalid = false;
    uint8_t bresp = 0;               // 0 OKAY, 2 SLVERR, 3 DECERR
};

// The master's outputs, sampled just before the rising edge.
struct MasterOut {
    bool arvalid = false;
    uint32_t arid = 0;
    uint32_t araddr = 0;
    uint8_t arlen = 0;                // beats - 1
    bool rready = false;
    bool awvalid = false;
    uint32_t awaddr = 0;
    uint8_t awlen = 0;                // beats - 1
    bool wvalid = false;
    const uint8_t* wdata = nullptr;   // beat_bytes bytes, read only during clock_edge()
    bool wlast = false;
    bool bready = false;
};

class DramModel {
public:
    static constexpr uint8_t kRespOkay = 0;
    static constexpr uint8_t kRespSlverr = 2;

    // An error response a fault plan injected, once answered: the R beat of a read burst
    // was taken (the first beat), or the B of a write burst.
    struct InjectedError {
        bool write;
        uint32_t id;    // ARID of a read; 0 for a write
        uint32_t addr;  // the burst's address
        uint8_t resp;
    };

    // `bytes` of zeroed memory; `beat_bytes` a power of two in [1, 128]; latency in
    // cycles from AR accepted to first R beat and from last W beat to B;
    // `max_outstanding` >= 1 bursts per direction. Bad values throw accel::Error.
    DramModel(std::size_t bytes, unsigned beat_bytes, unsigned latency_cycles,
              unsigned max_outstanding);

    // ---- the bus ----
    const SlaveOut& outputs() const { return out_; }

    // Performs this cycle's handshakes (valid && ready, with outputs() of this cycle)
    // and advances one cycle.
    void clock_edge(const MasterOut& m) {
        if ((reads_n_ | writes_n_) == 0 && !(m.arvalid | m.awvalid | m.wvalid) && !prev_valid_) {
            ++now_;  // idle: the outputs stay those of an empty slave
            return;
        }
        step(m);
    }

    // Drops every burst in flight (the RTL was reset); memory and counters stay.
    void reset();

    // Injects the faults of `plan` from the next cycle on; an empty plan injects none.
    // Error faults count bursts from here.
    void set_faults(const DramFaultPlan& plan);
    const std::vector<InjectedError>& injected_errors() const { return injected_; }
    uint64_t fault_delay_cycles() const { return fault_delay_; }

    // Anything in flight: a read not fully returned or a write whose B was not taken.
    bool busy() const { return (reads_n_ | writes_n_) != 0; }

    // ---- host access to the memory (out-of-range accesses throw accel::Error) ----
    std::size_t size() const { return mem_.size(); }
    void write(uint64_t addr, std::span<const uint8_t> bytes);
    void read(uint64_t addr, std::span<uint8_t> out) const;
    std::vector<uint8_t> read(uint64_t addr, std::size_t n) const;
    std::span<uint8_t> memory() { return mem_; }
    std::span<const uint8_t> memory() const { return mem_; }

    unsigned beat_bytes() const { return beat_; }
    unsigned latency_cycles() const { return latency_cfg_; }  // as configured
    unsigned max_outstanding() const { return max_out_; }

    // ---- counters (since construction or reset_counters()) ----
    uint64_t cycles() const { return now_ - cycle_base_; }
    uint64_t bytes_read() const { return bytes_read_; }        // OKAY R beats only
    uint64_t bytes_written() const { return bytes_written_; }  // W beats stored
    uint64_t write_beats() const { return write_beats_; }      // all W beats taken
    uint64_t beats() const { return read_beats_ + write_beats_; }
    uint64_t read_bursts() const { return read_bursts_; }      // AR accepted
    uint64_t write_bursts() const { return write_bursts_; }    // AW accepted
    uint64_t error_bursts() const { return error_bursts_; }    // answered with SLVERR
    uint64_t protocol_violations() const { return violations_; }
    // What the first protocol violation was, with its cycle; empty when there was none.
    const std::string& first_violation() const { return first_violation_; }
    void reset_counters();

private:
    struct ReadBurst {
        uint64_t ready;   // first cycle in which its first beat may be offered
        uint32_t addr;
        uint32_t id;
        uint16_t len;     // beats - 1
        uint16_t next;    // next beat to offer
        uint8_t resp;     // of every beat
        bool injected;    // resp came from a fault plan
        bool done;        // every beat taken (behind an older burst it overtook)
    };
    struct WriteBurst {
        uint64_t b_ready;  // first cycle of bvalid, once all data arrived
        uint32_t addr;
        uint16_t len;
        uint16_t received;
        uint8_t resp;
        bool injected;
    };

    void step(const MasterOut& m);
    void check_held(const MasterOut& m);
    void remember(const MasterOut& m, bool ar_hs, bool aw_hs, bool w_hs);
    void accept_read(const MasterOut& m);
    void accept_write(const MasterOut& m);
    void deliver_read_beat();
    void accept_write_beat(const MasterOut& m);
    void retire_write();
    void update_outputs(bool r_taken, bool b_taken);
    unsigned other_id_burst() const;
    void count_fault_delay(const MasterOut& m);
    // Whether the fault plan holds `c` back this cycle (noted in held_).
    bool held(DramChannel c) {
        if (!faults_ || !faults_->holds(c, now_)) return false;
        held_ |= c;
        return true;
    }
    bool burst_ok(uint32_t addr, unsigned len, const char* channel);
    // The response of burst `b` just accepted on `channel` (AR or AW): SLVERR when it
    // breaks the protocol (burst_ok), else what the fault plan, if any, answers.
    template <typename Burst>
    void set_response(Burst& b, const char* channel, bool write) {
        const bool ok = burst_ok(b.addr, b.len, channel);
        const uint8_t injected = faults_ ? faults_->next_burst_resp(write) : kRespOkay;
        b.resp = ok ? injected : kRespSlverr;
        b.injected = ok && injected != kRespOkay;
    }
    void violation(const std::string& what);
    void check_host_range(uint64_t addr, std::size_t n, const char* what) const;
    unsigned wrap(unsigned i) const { return i >= max_out_ ? i - max_out_ : i; }

    std::vector<uint8_t> mem_;
    std::vector<uint8_t> zeros_;
    std::vector<uint8_t> r_reg_;  // the offered R beat, stable while it waits for rready
    unsigned beat_;
    unsigned latency_;      // effective, >= 1
    unsigned latency_cfg_;  // as given
    unsigned max_out_;

    SlaveOut out_;
    uint64_t now_ = 0;

    std::vector<ReadBurst> rb_;   // ring of max_out_ entries, oldest at rh_
    unsigned rh_ = 0, reads_n_ = 0;
    unsigned r_serving_ = 0;      // the burst of the R beat offered (rh_ unless reordered)
    std::vector<WriteBurst> wb_;  // ring; [wh_, wh_+w_full_) have all data, await B
    unsigned wh_ = 0, writes_n_ = 0, w_full_ = 0;
    bool last_was_read_ = false;  // round-robin of the data path

    // The previous edge's master outputs, for the AXI "hold until handshake" checks.
    bool prev_valid_ = false;  // any of arvalid/awvalid/wvalid
    bool prev_wvalid_ = false;
    bool ar_wait_ = false, aw_wait_ = false, w_wait_ = false;
    uint32_t ar_addr_ = 0, ar_id_ = 0, aw_addr_ = 0;
    uint8_t ar_len_ = 0, aw_len_ = 0;
    bool w_last_ = false;

    uint64_t cycle_base_ = 0;
    uint64_t bytes_read_ = 0, bytes_written_ = 0, read_beats_ = 0, write_beats_ = 0;
    uint64_t read_bursts_ = 0, write_bursts_ = 0, error_bursts_ = 0, violations_ = 0;
    std::string first_violation_;

    std::unique_ptr<DramFaultInjector> faults_;  // null: no faults
    unsigned held_ = 0;  // the DramChannels the faults held back in this cycle's outputs
    uint64_t fault_delay_ = 0;
    std::vector<InjectedError> injected_;
};

}  // namespace accel::sim
