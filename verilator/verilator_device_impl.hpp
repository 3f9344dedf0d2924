// The Verilator device, for any Verilated accel_top (one class per hardware config).
// Simulation control lives here in one place: reset, the cycle loop with the DRAM model,
// CSR access over AXI4-Lite, the watchdog, tracing and the report of injected DRAM faults.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "base/error.hpp"
#include "devices/register_file.hpp"
#include "devices/run_budget.hpp"
#include "hw/csr.hpp"
#include "hw/isa.hpp"
#include "activity_recorder.hpp"
#include "dram_model.hpp"
#include "verilated.h"
#include "verilated_fst_c.h"
#include "verilator_device.hpp"

namespace accel {

template <typename Model>
class VerilatorDevice final : public Device {
public:
    VerilatorDevice(std::string name, const HwParams& params, uint64_t dram_bytes,
                    const VerilatorOptions& options)
        : name_(std::move(name)),
          params_(params),
          options_(options),
          dram_(dram_bytes, params.beat_bytes,
                static_cast<unsigned>(params.config.dram_latency_cycles),
                static_cast<unsigned>(params.config.dram_max_outstanding)),
          context_(std::make_unique<VerilatedContext>()) {
        dram_.set_faults(options.faults);
        context_->traceEverOn(!options.trace_path.empty());
        if (options.random_init_seed != 0) {  // before the model: its constructor draws
            context_->randReset(2);
            context_->randSeed(static_cast<int>(options.random_init_seed));
        }
        top_ = std::make_unique<Model>(context_.get(), "accel");
        if (!options.trace_path.empty()) open_trace(options.trace_path);
        reset();
        check_identity();
        if (options.activity) record_activity(options.activity.get());
    }

    ~VerilatorDevice() override {
        if (trace_) trace_->close();
        top_->final();
    }

    std::string name() const override { return name_; }
    const HwParams& params() const override { return params_; }
    uint64_t dram_bytes() const override { return dram_.size(); }
    void write_dram(uint64_t addr, std::span<const uint8_t> bytes) override {
        dram_.write(addr, bytes);
    }
    void read_dram(uint64_t addr, std::span<uint8_t> bytes) const override {
        dram_.read(addr, bytes);
    }

    DeviceCounters run(uint32_t insn_addr, uint32_t count) override {
        csr_write(csr::kInsnAddr, insn_addr);
        csr_write(csr::kInsnCount, count);
        const uint64_t most = program_max_cycles(*this, insn_addr, count);
        const uint64_t budget = run_cycle_budget(options_.max_cycles, most);
        // A program that may pass its budget is watched instruction by instruction, so
        // that one that cannot end in time stops as it starts (run_budget.hpp).
        std::optional<StartedWork> started;
        if (most > budget) started.emplace(*this, insn_addr, count);
        csr_write(csr::kCtrl, 1);  // done drops at the edge that takes this write
        running_ = true;
        const uint64_t start = cycles_;
        // Cycles in which injected faults held a transfer back are the DRAM's doing: each
        // extends the budget and counts as progress.
        const uint64_t delay_start = dram_.fault_delay_cycles();
        const size_t faults_start = dram_.injected_errors().size();
        uint64_t last_progress = cycles_, last_beats = dram_.beats(), last_steps = 0;
        uint64_t last_delay = delay_start;
        while (!top_->irq_o) {
            cycle();
            const uint64_t delay = dram_.fault_delay_cycles();
            if (cycles_ - start - (delay - delay_start) > budget) out_of_cycles(budget);
            if ((cycles_ & 4095) == 0) {
                const bool tick = (cycles_ & 0xffff) == 0;  // before the CSR reads below
                // Progress: DRAM traffic or GEMM steps. Compute can run long without
                // touching DRAM, so its step counter is read through the CSRs.
                const uint64_t steps = csr_read(csr::kGemmSteps);  // the low word moves
                if (dram_.beats() != last_beats || steps != last_steps || delay != last_delay) {
                    last_progress = cycles_;
                }
                last_beats = dram_.beats();
                last_steps = steps;
                last_delay = delay;
                if (cycles_ - last_progress > options_.watchdog_cycles) hang();
                if (started) check_started(*started, budget);
                if (options_.on_cycles && tick) {
                    options_.on_cycles(cycles_ - start);
                }
            }
        }
        running_ = false;
        if (dram_.protocol_violations() != 0) {
            throw DeviceError(fmt::format("{}: the RTL broke the AXI protocol: {}", name_,
                                          dram_.first_violation()));
        }
        const DeviceCounters counters = read_counters();
        check_injected_errors(counters, faults_start);
        return counters;
    }

private:
    // A model Verilated without --trace-fst (the netlist's) has no trace() to call.
    void open_trace(const std::string& path) {
        if constexpr (requires(Model& m, VerilatedFstC& t) { m.trace(&t, 99); }) {
            trace_ = std::make_unique<VerilatedFstC>();
            top_->trace(trace_.get(), 99);
            trace_->open(path.c_str());
            if (!trace_->isOpen()) {
                throw Error(fmt::format("cannot open the waveform file {} for writing", path));
            }
        } else {
            throw Error(fmt::format("{}: this model was built without waveform tracing", name_));
        }
    }

    // The recorder reads the RTL's counter registers, which a synthesized netlist no
    // longer has as one array. model.cpp.in includes the root header for rootp.
    void record_activity(ActivityTimeline* timeline) {
        if constexpr (requires(Model& m) { m.rootp->accel_top__DOT__counters_q.data(); }) {
            const auto& counters = top_->rootp->accel_top__DOT__counters_q;
            recorder_ = std::make_unique<ActivityRecorder>(
                counters.data(), sizeof(counters) / sizeof(uint32_t), timeline);
        } else {
            throw Error(fmt::format("{}: this model has no counter registers to record "
                                    "activity from", name_));
        }
    }

    void set_inputs() {
        const sim::SlaveOut& s = dram_.outputs();
        top_->m_axi_arready = s.arready;
        top_->m_axi_rvalid = s.rvalid;
        top_->m_axi_rid = s.rid;
        std::memcpy(&top_->m_axi_rdata, s.rdata, params_.beat_bytes);
        top_->m_axi_rresp = s.rresp;
        top_->m_axi_rlast = s.rlast;
        top_->m_axi_awready = s.awready;
        top_->m_axi_wready = s.wready;
        top_->m_axi_bvalid = s.bvalid;
        top_->m_axi_bresp = s.bresp;
        top_->clk_i = 0;
        top_->eval();
        dump();
    }

    void edge() {
        sim::MasterOut m;
        m.arvalid = top_->m_axi_arvalid;
        m.arid = top_->m_axi_arid;
        m.araddr = top_->m_axi_araddr;
        m.arlen = top_->m_axi_arlen;
        m.rready = top_->m_axi_rready;
        m.awvalid = top_->m_axi_awvalid;
        m.awaddr = top_->m_axi_awaddr;
        m.awlen = top_->m_axi_awlen;
        m.wvalid = top_->m_axi_wvalid;
        m.wdata = reinterpret_cast<const uint8_t*>(&top_->m_axi_wdata);
        m.wlast = top_->m_axi_wlast;
        m.bready = top_->m_axi_bready;
        // The DRAM sits out the reset like an AXI slave sharing the master's reset: a
        // master may drive VALID from its power-up state until its first reset edge.
        if (!top_->rst_i) dram_.clock_edge(m);
        top_->clk_i = 1;
        top_->eval();
        dump();
        ++cycles_;
        if (running_) ++run_cycles_;
        if (recorder_) recorder_->sample();
    }

    void cycle() {
        set_inputs();
        edge();
    }

    void dump() {
        context_->timeInc(1);
        if (trace_ && in_trace_window()) trace_->dump(context_->time());
    }

    // Without a window, every cycle from reset on is traced.
    bool in_trace_window() const {
        const bool windowed = options_.trace_from != 0 || options_.trace_to != UINT64_MAX;
        return !windowed || (running_ && run_cycles_ >= options_.trace_from &&
                             run_cycles_ < options_.trace_to);
    }

    void reset() {
        top_->rst_i = 1;
        top_->s_axil_awvalid = 0;
        top_->s_axil_wvalid = 0;
        top_->s_axil_bready = 0;
        top_->s_axil_arvalid = 0;
        top_->s_axil_rready = 0;
        for (int i = 0; i < 4; ++i) cycle();
        top_->rst_i = 0;
        dram_.reset();
        cycle();
    }

    void csr_write(uint32_t addr, uint32_t value) {
        top_->s_axil_awaddr = addr;
        top_->s_axil_awvalid = 1;
        top_->s_axil_wdata = value;
        top_->s_axil_wstrb = 0xF;
        top_->s_axil_wvalid = 1;
        top_->s_axil_bready = 1;
        for (int i = 0; i < 1000; ++i) {
            set_inputs();
            const bool aw = top_->s_axil_awvalid && top_->s_axil_awready;
            const bool w = top_->s_axil_wvalid && top_->s_axil_wready;
            const bool b = top_->s_axil_bvalid;
            edge();
            if (aw) top_->s_axil_awvalid = 0;
            if (w) top_->s_axil_wvalid = 0;
            if (b) {
                top_->s_axil_bready = 0;
                return;
            }
        }
        throw DeviceError(fmt::format("{}: CSR write to 0x{:03x} got no response", name_, addr));
    }

    uint32_t csr_read(uint32_t addr) {
        top_->s_axil_araddr = addr;
        top_->s_axil_arvalid = 1;
        top_->s_axil_rready = 1;
        for (int i = 0; i < 1000; ++i) {
            set_inputs();
            const bool ar = top_->s_axil_arvalid && top_->s_axil_arready;
            const bool r = top_->s_axil_rvalid;
            const uint32_t data = top_->s_axil_rdata;
            edge();
            if (ar) top_->s_axil_arvalid = 0;
            if (r) {
                top_->s_axil_rready = 0;
                return data;
            }
        }
        throw DeviceError(fmt::format("{}: CSR read of 0x{:03x} got no response", name_, addr));
    }

    // The CSRs over the AXI4-Lite pins, for the driver every device shares
    // (devices/register_file.hpp).
    class Pins final : public RegisterFile {
    public:
        explicit Pins(VerilatorDevice& d) : d_(d) {}
        uint32_t read32(uint32_t offset) override { return d_.csr_read(offset); }
        void write32(uint32_t offset, uint32_t value) override { d_.csr_write(offset, value); }

    private:
        VerilatorDevice& d_;
    };

    void check_identity() {
        Pins pins(*this);
        check_csr_identity(pins, params_, name_);
    }

    [[noreturn]] void hang() {
        Pins pins(*this);
        throw DeviceError(fmt::format(
            "{}: watchdog: no progress for {} cycles (cycle {}); {}; DRAM {} bursts in flight",
            name_, options_.watchdog_cycles, cycles_, describe_unit_states(pins),
            dram_.busy() ? "has" : "has no"));
    }

    // A legal program can run for 10^22 cycles while making progress all the time.
    [[noreturn]] void out_of_cycles(uint64_t budget, const std::string& why = "") {
        Pins pins(*this);
        const DeviceCounters c = read_csr_counters(pins);
        throw DeviceError(fmt::format(
            "{}: cycle budget of {} exhausted{}; {}; completed {} load, {} gemm, {} drain "
            "instructions, {} GEMM steps",
            name_, budget, why, describe_unit_states(pins), c.load_insns, c.gemm_insns,
            c.drain_insns, c.gemm_steps));
    }

    // Stops the run once its units have started more than the budget's cycles of work.
    void check_started(StartedWork& started, uint64_t budget) {
        const uint32_t states = csr_read(csr::kUnitState);
        const uint32_t counters[isa::kUnits] = {csr::kLoadInsns, csr::kGemmInsns,
                                                csr::kDrainInsns};
        std::array<uint64_t, isa::kUnits> completed{};
        std::array<bool, isa::kUnits> busy{};
        for (size_t u = 0; u < isa::kUnits; ++u) {
            completed[u] = csr_read(counters[u]);  // the low word: far more than a run has
            const uint32_t state =
                (states >> ((u + 1) * csr::kUnitStateBits)) & ((1u << csr::kUnitStateBits) - 1);
            busy[u] = state == static_cast<uint32_t>(csr::UnitState::Busy);
        }
        const uint64_t least = started.least_cycles(completed, busy);
        if (least > budget) {
            out_of_cycles(budget, fmt::format(": the instructions started need at least {} cycles",
                                              least == UINT64_MAX ? "2^64"
                                                                  : std::to_string(least)));
        }
    }

    // An injected error response ends the run as a device failure naming the unit that
    // got it. The RTL must report it -- except fetch, which reads ahead and drops, unread,
    // what lies past the program's end.
    void check_injected_errors(const DeviceCounters& counters, size_t first) {
        const auto& log = dram_.injected_errors();
        if (log.size() == first) return;
        std::string faults;
        bool must_report = false;
        for (size_t i = first; i < log.size(); ++i) {
            const sim::DramModel::InjectedError& e = log[i];
            must_report = must_report || e.write || e.id != kFetchArid;
            faults += fmt::format("{}{}: DRAM answered {} on a {} at 0x{:08x}",
                                  faults.empty() ? "" : "; ", unit_of(e),
                                  sim::axi_resp_name(e.resp), e.write ? "write" : "read", e.addr);
        }
        Pins pins(*this);
        if (counters.errors != 0) {
            throw DeviceError(fmt::format("{}: {}; the accelerator reported {}; {}", name_, faults,
                                          isa::error_names(counters.errors),
                                          describe_unit_states(pins)));
        }
        if (must_report) {
            throw DeviceError(fmt::format("{}: {}, and the accelerator reported no error", name_,
                                          faults));
        }
    }

    // Who gets an AXI response: accel_axi_read_arbiter.sv gives fetch ARID 0 and load ARID 1;
    // only drain writes.
    static constexpr uint32_t kFetchArid = 0;
    static const char* unit_of(const sim::DramModel::InjectedError& e) {
        if (e.write) return "drain unit";
        return e.id == kFetchArid ? "fetch unit" : "load unit";
    }

    DeviceCounters read_counters() {
        Pins pins(*this);
        return read_csr_counters(pins);
    }

    std::string name_;
    HwParams params_;
    VerilatorOptions options_;
    sim::DramModel dram_;
    std::unique_ptr<VerilatedContext> context_;
    std::unique_ptr<Model> top_;
    std::unique_ptr<VerilatedFstC> trace_;
    std::unique_ptr<ActivityRecorder> recorder_;  // null unless options.activity
    uint64_t cycles_ = 0;
    bool running_ = false;     // between the start of a run and its done
    uint64_t run_cycles_ = 0;  // cycles of every run so far: the trace window's clock
};

}  // namespace accel
