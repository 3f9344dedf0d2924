#include "runtime/network_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/text.hpp"
#include "compiler/add_program.hpp"
#include "compiler/packing.hpp"
#include "compiler/program_chain.hpp"
#include "compiler/metrics.hpp"
#include "compiler/layout.hpp"
#include "compiler/scheduler.hpp"
#include "hw/dram_bus.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"
#include "network/block_chain.hpp"
#include "reference/constant_folding.hpp"
#include "reference/evaluate.hpp"

namespace accel {
namespace {

using graph::Model;
using graph::Operator;
using network::NetworkPlan;
using network::Placement;
using network::Step;
using reference::Value;

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A program in the network's DRAM.
struct PlacedProgram {
    uint32_t base = 0;
    uint32_t instructions = 0;
};

// A conv2d layer of a device step in the network's DRAM: its program and constants at
// `base` (the block the plan sizes), its input and output in the arena. A layer that
// keeps its weights or parameters on chip also has the later inferences' program.
struct PlacedLayer {
    LoweredLayer lowered;
    uint32_t base = 0;
    uint32_t instructions = 0;
    PlacedProgram steady;
};

// A chained step's programs (network/block_chain.hpp): the first inference's, the later
// ones'.
struct PlacedChain {
    PlacedProgram first, steady;
};

// Takes DRAM at `at` for a program of `instructions`.
PlacedProgram reserve_program(uint64_t& at, int64_t instructions, const HwParams& hw) {
    at = align_dram_region(at, hw);
    const PlacedProgram p{static_cast<uint32_t>(at), static_cast<uint32_t>(instructions)};
    at += static_cast<uint64_t>(instructions) * isa::kInsnBytes;
    return p;
}

// The cost model's cycles of a device step in the first inference or a `later` one.
int64_t step_predicted_cycles(const Step& s, bool later) {
    if (s.add) return s.add->plan.predicted_cycles;
    if (s.chain) return (later ? s.chain->steady : s.chain->first).predicted_cycles;
    int64_t cycles = 0;
    for (const network::ConvLayer& c : s.convs) {
        cycles += later && c.resident ? c.resident->steady.predicted_cycles
                                      : c.plan.predicted_cycles;
    }
    return cycles;
}

// A layer's programs as scheduled at their places: the first inference's and, when
// anything of it stays on chip, the later ones' (else empty).
struct LayerPrograms {
    std::vector<isa::Insn> first, later;
};

// A device ADD in the network's DRAM: its program and constants at `base`.
struct PlacedAdd {
    uint32_t base = 0;
    uint32_t instructions = 0;
};

// Whether every conv2d layer of a device step keeps `what` (its weights, its
// parameters) on chip.
bool all_keep(const Step& s, std::optional<network::BufferRegion> network::Residency::*what) {
    return !s.convs.empty() &&
           std::all_of(s.convs.begin(), s.convs.end(), [what](const network::ConvLayer& c) {
               return c.resident && ((*c.resident).*what).has_value();
           });
}

// The multiply-accumulates of the host operators that have any.
int64_t host_macs(const Model& m, const Operator& op) {
    const graph::TensorDesc& y = m.tensor(op.outputs[0]);
    const graph::TensorDesc& w = m.tensor(op.inputs.size() > 1 ? op.inputs[1] : op.inputs[0]);
    if (op.kind == graph::OpKind::DepthwiseConv2d) {  // each output: an R x S window
        return y.element_count() * w.shape.at(1) * w.shape.at(2);
    }
    if (op.kind == graph::OpKind::FullyConnected) return y.element_count() * w.shape.at(1);
    return 0;
}

// The roofline of a device step: its MACs and the DRAM bytes it must move, which in
// the `steady` state leave out the weights and parameters that stay on chip. A depthwise
// operator is measured by its own work, not by its blocks' diagonal convolutions: the
// bytes its blocks read and write with only the filter's R*S*C weights.
int64_t step_roofline_cycles(const Step& s, graph::OpKind kind, int64_t macs,
                             const HwParams& params, bool steady) {
    const HwConfig& hw = params.config;
    if (s.add) {  // two operands read and the sum written, entry for entry
        return roofline_cycles(0, 3 * s.add->entries * params.inp_entry_bytes, hw);
    }
    const bool depthwise = kind == graph::OpKind::DepthwiseConv2d;
    int64_t bytes = 0;
    for (const network::ConvLayer& c : s.convs) {
        const CompulsoryBytes b = compulsory_bytes(c.layer);
        const int64_t weights = depthwise ? b.weights / c.layer.shape.k : b.weights;
        const bool on_chip = steady && c.resident;
        bytes += b.input + b.output + (on_chip && c.resident->weights ? 0 : weights) +
                 (on_chip && c.resident->params ? 0 : b.params);
    }
    return roofline_cycles(depthwise ? macs : s.convs.front().layer.macs(), bytes, hw);
}

class Runner {
public:
    // The golden run alongside only has something to check on a device.
    Runner(const Model& m, const NetworkPlan& plan, const HwParams& hw, bool on_device,
           const RunOptions& options)
        : m_(m), plan_(plan), hw_(hw), check_(options.check && on_device), options_(options) {}

    NetworkRun run(const DeviceFactory* make_device, const std::vector<Value>& inputs);

private:
    std::vector<OperatorRun> run_inference(const std::vector<Value>& inputs, bool on_device);
    OperatorRun run_step(const Step& s, bool on_device);
    void place(const DeviceFactory& make_device);
    uint64_t place_later_programs(uint64_t at);
    void write_convs(const Step& s);
    LayerPrograms write_layer(const Step& s, size_t index, const PlacedLayer& p);
    void write_program(const PlacedProgram& at, const std::vector<isa::Insn>& insns);
    // The device's DRAM, timed into transfer_seconds.
    void write_dram(uint64_t addr, std::span<const uint8_t> bytes);
    void read_dram(uint64_t addr, std::span<uint8_t> bytes);
    // The device address of an arena tensor, plus `slab` bytes into it.
    uint32_t arena_address(int tensor, int64_t slab = 0) const {
        return arena_base_ + static_cast<uint32_t>(plan_.arena.at(tensor).offset + slab);
    }
    const Value& host_value(int tensor);
    void to_device(int tensor, const std::vector<int64_t>& nhwc);
    void write_add(const Step& s);
    void count_run(const Step& s, uint32_t base, uint32_t insns, OperatorRun& rec);
    void run_device_step(const Step& s, OperatorRun& rec);
    void run_device_convs(const Step& s, OperatorRun& rec);
    void run_host_step(const Step& s, OperatorRun& rec);
    void check_step(const Step& s);

    const Model& m_;
    const NetworkPlan& plan_;
    const HwParams& hw_;
    const bool check_;
    const RunOptions& options_;
    std::unique_ptr<Device> device_;
    std::map<int, std::vector<PlacedLayer>> layers_;  // by step, one per conv2d layer
    std::map<int, PlacedChain> chains_;               // by step, the chained ones
    std::map<int, PlacedAdd> adds_;                   // by step
    uint32_t arena_base_ = 0;
    int64_t predicted_cycles_ = 0;       // of every device operator, every inference
    int64_t inference_ = 0;              // the one running, from 0
    int64_t cycles_done_ = 0;            // of the device operators so far, for the progress
    std::map<int, Value> host_;          // tensors the host holds
    std::set<int> on_device_;            // tensors whose arena copy is current
    std::map<int, Value> golden_;        // the reference run, with check_
    NetworkRun out_;
};

// Lays the network's DRAM out: each device step's program and constants, one block after
// another in model order, sized from its plan, then the activation arena; then schedules
// each step once, with the final addresses of its block and of its tensors in the arena,
// and writes its block.
void Runner::place(const DeviceFactory& make_device) {
    uint64_t at = 0;
    for (const Step& s : plan_.steps) {
        if (s.placement != Placement::Device) continue;
        if (s.add) {
            adds_[s.op] = {static_cast<uint32_t>(at),
                           static_cast<uint32_t>(s.add->plan.instructions)};
            at += add_block_bytes(s.add->entries, hw_);
        }
        for (const network::ConvLayer& c : s.convs) {
            PlacedLayer p{lower(c.layer, c.plan.lowering), static_cast<uint32_t>(at),
                          static_cast<uint32_t>(c.plan.instructions)};
            if (p.lowered.input.host_padded()) {
                throw Error(fmt::format("operator {}: padding beyond what the load unit inserts",
                                        s.op));
            }
            // The block's size does not depend on where the arena puts the tensors.
            const DramLayout block = make_dram_layout(p.lowered, hw_, c.plan.tile,
                                                      c.plan.instructions, {p.base, 0, 0, {}});
            at = block.dram_bytes;
            layers_[s.op].push_back(std::move(p));
        }
    }
    at = place_later_programs(at);
    arena_base_ = static_cast<uint32_t>(align_dram_region(at, hw_));
    const uint64_t total = uint64_t{arena_base_} + static_cast<uint64_t>(plan_.arena_bytes);
    if (total > dram_bus::kMaxDramBytes) {
        throw Error(fmt::format("the network needs {} bytes of device DRAM; the device "
                                "addresses 4 GiB", total));
    }
    out_.constant_bytes = arena_base_;
    for (const Step& s : plan_.steps) {
        if (s.placement != Placement::Device) continue;
        predicted_cycles_ += step_predicted_cycles(s, false) +
                             (options_.inferences - 1) * step_predicted_cycles(s, true);
    }
    device_ = make_device(hw_, std::max<uint64_t>(total, 64));
    for (const auto& [op, placed] : adds_) write_add(plan_.steps[static_cast<size_t>(op)]);
    for (const auto& [op, placed] : layers_) write_convs(plan_.steps[static_cast<size_t>(op)]);
}

// The programs that are not in a layer's block, from `at` on: the later inferences' of
// the layers that keep anything on chip, and both of each chained step. Returns the end.
uint64_t Runner::place_later_programs(uint64_t at) {
    for (auto& [op, placed] : layers_) {
        const Step& s = plan_.steps[static_cast<size_t>(op)];
        if (s.chain) {
            chains_[op] = {reserve_program(at, s.chain->first.instructions, hw_),
                           reserve_program(at, s.chain->steady.instructions, hw_)};
            continue;
        }
        for (size_t i = 0; i < placed.size(); ++i) {
            const std::optional<network::Residency>& r = s.convs[i].resident;
            if (r) placed[i].steady = reserve_program(at, r->steady.instructions, hw_);
        }
    }
    return at;
}

// Writes a conv step's blocks, and its programs that lie apart: the later inferences'
// of its layers, or the chained ones of all of them.
void Runner::write_convs(const Step& s) {
    const std::vector<PlacedLayer>& placed = layers_.at(s.op);
    std::vector<std::vector<isa::Insn>> first, later;
    for (size_t i = 0; i < placed.size(); ++i) {
        LayerPrograms p = write_layer(s, i, placed[i]);
        if (!s.chain) {
            if (!p.later.empty()) write_program(placed[i].steady, p.later);
            continue;
        }
        later.push_back(p.later.empty() ? p.first : std::move(p.later));
        first.push_back(std::move(p.first));
    }
    if (!s.chain) return;
    const PlacedChain& chain = chains_.at(s.op);
    write_program(chain.first, chain_programs(first));
    write_program(chain.steady, chain_programs(later));
}

void Runner::write_dram(uint64_t addr, std::span<const uint8_t> bytes) {
    const auto start = std::chrono::steady_clock::now();
    device_->write_dram(addr, bytes);
    out_.transfer_seconds += seconds_since(start);
}

void Runner::read_dram(uint64_t addr, std::span<uint8_t> bytes) {
    const auto start = std::chrono::steady_clock::now();
    device_->read_dram(addr, bytes);
    out_.transfer_seconds += seconds_since(start);
}

void Runner::write_program(const PlacedProgram& at, const std::vector<isa::Insn>& insns) {
    if (insns.size() != at.instructions) {
        throw std::logic_error(fmt::format("a program of {} instructions where {} were predicted",
                                           insns.size(), at.instructions));
    }
    std::vector<uint8_t> bytes(insns.size() * isa::kInsnBytes);
    isa::encode_program(insns, bytes.data());
    write_dram(at.base, bytes);
}

// The part of a buffer a layer uses: its own region when what it keeps there stays on
// chip, else the window the others share.
BufferWindow window(const std::optional<network::BufferRegion>& region, int64_t shared) {
    if (region) return {region->base, region->entries, false};
    return {0, static_cast<uint32_t>(shared), false};
}

// Schedules layer `index` of a step at its place and writes its block (its program and
// constants); returns its programs. A chained layer whose parameters do not stay on
// chip takes one of two alternating PRM windows (block_chain.hpp).
LayerPrograms Runner::write_layer(const Step& s, size_t index, const PlacedLayer& p) {
    const network::ConvLayer& c = s.convs[index];
    const Operator& o = m_.operators[static_cast<size_t>(s.op)];
    const bool resident = c.resident.has_value();
    LayerPlacement at{p.base, arena_address(c.input, c.input_slab),
                      arena_address(o.outputs[0], c.output_slab),
                      window(resident ? c.resident->weights : std::nullopt, plan_.shared_wgt_entries),
                      window(resident ? c.resident->params : std::nullopt, plan_.shared_prm_entries)};
    if (s.chain && !(resident && c.resident->params)) {
        at.params = network::chained_params_window(index, c.plan.prm.entries * c.plan.prm.buffers);
    }
    LayerPrograms out;
    Conv2dProgram program = schedule_conv2d(p.lowered, hw_, c.plan, at);
    std::vector<uint8_t> block(program.layout.dram_bytes - p.base, 0);
    isa::encode_program(program.insns, block.data());
    pack_constants(program, hw_, c.weights, c.bias, block, p.base);
    write_dram(p.base, block);
    out.first = std::move(program.insns);
    if (!resident) return out;
    at.weights.loaded = c.resident->weights.has_value();
    at.params.loaded = c.resident->params.has_value();
    out.later = schedule_conv2d(p.lowered, hw_, c.plan, at).insns;
    return out;
}

void Runner::write_add(const Step& s) {
    const PlacedAdd& p = adds_.at(s.op);
    const Operator& op = m_.operators[static_cast<size_t>(s.op)];
    const AddProgram program = schedule_add(
        s.add->params, s.add->entries, hw_,
        {p.base, arena_address(s.add->input1), arena_address(s.add->input2),
         arena_address(op.outputs[0])});
    std::vector<uint8_t> block(program.constants_base - p.base, 0);
    isa::encode_program(program.insns, block.data());
    block.insert(block.end(), program.constants.begin(), program.constants.end());
    write_dram(p.base, block);
}

// The host's copy of a tensor: read back from the arena, or a RESHAPE of another.
const Value& Runner::host_value(int tensor) {
    if (auto it = host_.find(tensor); it != host_.end()) return it->second;
    const int storage = plan_.storage[static_cast<size_t>(tensor)];
    const graph::TensorDesc& desc = m_.tensor(tensor);
    Value v;
    if (storage != tensor) {
        v = host_value(storage);
        v.shape = desc.shape;
    } else if (on_device_.count(tensor) != 0) {
        const std::vector<int64_t> nhwc = network::nhwc_of(desc.shape);
        std::vector<uint8_t> bytes(static_cast<size_t>(activation_bytes(nhwc, hw_)));
        read_dram(arena_address(tensor), bytes);
        v = Value::of(unpack_activation(bytes, nhwc, hw_));
        v.shape = desc.shape;
    } else {
        throw Error(fmt::format("tensor {} ('{}') is read before it is written", tensor,
                                printable(desc.name)));
    }
    return host_.emplace(tensor, std::move(v)).first->second;
}

// A tensor the host holds, written into its arena slot in the device's layout.
void Runner::to_device(int tensor, const std::vector<int64_t>& nhwc) {
    if (on_device_.count(tensor) != 0) return;
    TensorI8 x = host_value(tensor).as_i8();
    x.shape = nhwc;
    write_dram(arena_address(tensor), pack_activation(x, hw_));
    on_device_.insert(tensor);
}

// Runs one program of a device step and adds its counters to the operator's record.
void Runner::count_run(const Step& s, uint32_t base, uint32_t insns, OperatorRun& rec) {
    const char* type = graph::op_kind_name(m_.operators[static_cast<size_t>(s.op)].kind);
    const auto start = std::chrono::steady_clock::now();
    DeviceCounters k;
    try {
        k = device_->run(base, insns);
    } catch (const DeviceError& e) {  // a network has many programs: name the one that failed
        throw DeviceError(fmt::format("operator {} ({}): {}", s.op, type, e.what()));
    }
    out_.device_seconds += seconds_since(start);
    if (k.errors != 0) {
        throw DeviceError(fmt::format("{} reported {} running operator {} ({})", device_->name(),
                                      isa::error_names(k.errors), s.op, type));
    }
    rec.cycles += static_cast<int64_t>(k.cycles);
    rec.dram_read_bytes += static_cast<int64_t>(k.load_bytes + k.fetch_bytes);
    rec.dram_write_bytes += static_cast<int64_t>(k.drain_bytes);
}

void Runner::run_device_step(const Step& s, OperatorRun& rec) {
    const Operator& op = m_.operators[static_cast<size_t>(s.op)];
    rec.roofline_cycles = step_roofline_cycles(s, op.kind, rec.macs, hw_, inference_ > 0);
    rec.weights_resident = all_keep(s, &network::Residency::weights);
    rec.params_resident = all_keep(s, &network::Residency::params);
    if (s.add) {
        const std::vector<int64_t> nhwc = network::nhwc_of(m_.tensor(op.outputs[0]).shape);
        to_device(s.add->input1, nhwc);
        to_device(s.add->input2, nhwc);
        const PlacedAdd& p = adds_.at(s.op);
        count_run(s, p.base, p.instructions, rec);
        rec.predicted_cycles += step_predicted_cycles(s, inference_ > 0);
    } else {
        run_device_convs(s, rec);
    }
    on_device_.insert(op.outputs[0]);
    host_.erase(op.outputs[0]);
}

// A conv step's programs: its chain, or each layer's. After the first inference, the
// programs that find what stays on chip there.
void Runner::run_device_convs(const Step& s, OperatorRun& rec) {
    const std::vector<PlacedLayer>& placed = layers_.at(s.op);
    const network::ConvLayer& first = s.convs.front();
    to_device(first.input, first.input_nhwc);
    const bool later = inference_ > 0;
    rec.predicted_cycles += step_predicted_cycles(s, later);
    if (s.chain) {
        const PlacedChain& chain = chains_.at(s.op);
        const PlacedProgram& p = later ? chain.steady : chain.first;
        count_run(s, p.base, p.instructions, rec);
        return;
    }
    for (size_t i = 0; i < placed.size(); ++i) {
        const PlacedLayer& p = placed[i];
        if (later && s.convs[i].resident) {
            count_run(s, p.steady.base, p.steady.instructions, rec);
        } else {
            count_run(s, p.base, p.instructions, rec);
        }
    }
}

void Runner::run_host_step(const Step& s, OperatorRun& rec) {
    const Operator& op = m_.operators[static_cast<size_t>(s.op)];
    std::vector<const Value*> inputs;
    for (int t : op.inputs) inputs.push_back(t < 0 || m_.tensor(t).is_constant() ? nullptr : &host_value(t));
    const auto start = std::chrono::steady_clock::now();
    std::vector<Value> values = reference::evaluate(m_, op, inputs, plan_.match);
    rec.host_seconds = seconds_since(start);
    for (size_t i = 0; i < op.outputs.size(); ++i) {
        on_device_.erase(op.outputs[i]);
        host_[op.outputs[i]] = std::move(values.at(i));
    }
}

// The golden reference runs in the first inference; every inference is compared with it
// (they all take the same inputs).
void Runner::check_step(const Step& s) {
    const Operator& op = m_.operators[static_cast<size_t>(s.op)];
    if (inference_ == 0) {
        std::vector<const Value*> inputs;
        for (int t : op.inputs) {
            inputs.push_back(t < 0 || m_.tensor(t).is_constant() ? nullptr : &golden_.at(t));
        }
        std::vector<Value> values = reference::evaluate(m_, op, inputs, plan_.match);
        for (size_t i = 0; i < op.outputs.size(); ++i) golden_[op.outputs[i]] = std::move(values.at(i));
    }
    // Device operators have one output.
    if (s.placement != Placement::Device || out_.mismatch) return;
    const Value& got = host_value(op.outputs[0]);
    const Value& want = golden_.at(op.outputs[0]);
    ++out_.tensors_checked;
    out_.elements_checked += static_cast<int64_t>(want.i8.size());
    for (size_t i = 0; i < want.i8.size(); ++i) {
        if (got.i8[i] == want.i8[i]) continue;
        if (!out_.mismatch) {
            out_.mismatch = Mismatch{s.op, printable(m_.tensor(op.outputs[0]).name), static_cast<int64_t>(i),
                                     got.i8[i], want.i8[i], 0, inference_};
        }
        ++out_.mismatch->differing;
    }
}

// One operator of the current inference.
OperatorRun Runner::run_step(const Step& s, bool on_device) {
    const Operator& op = m_.operators[static_cast<size_t>(s.op)];
    OperatorRun rec;
    rec.index = s.op;
    rec.type = graph::op_kind_name(op.kind);
    rec.placement = s.placement;
    for (int t : op.inputs) {
        if (t >= 0 && !m_.tensor(t).is_constant()) rec.input_shapes.push_back(m_.tensor(t).shape);
    }
    rec.output_shape = m_.tensor(op.outputs[0]).shape;
    rec.macs = op.kind == graph::OpKind::Conv2d ? s.convs.front().layer.macs()
                                                : host_macs(m_, op);
    if (options_.progress) {
        const auto steps = static_cast<int64_t>(plan_.steps.size());
        options_.progress({inference_ * steps + s.op + 1, options_.inferences * steps,
                           fmt::format("{} ({})", rec.type, network::placement_name(s.placement)),
                           cycles_done_, predicted_cycles_});
    }
    const bool shape = reference::computes_shape(m_, op);  // folded: nothing runs
    if (s.placement == Placement::Device) {
        run_device_step(s, rec);
    } else if ((s.placement == Placement::Host || !on_device) && !shape) {
        run_host_step(s, rec);
    }
    cycles_done_ += rec.cycles;
    if (check_ && !shape) check_step(s);
    return rec;
}

// The model once, from its inputs; the arena and the host start empty, the device's
// buffers keep what the earlier inferences left.
std::vector<OperatorRun> Runner::run_inference(const std::vector<Value>& inputs, bool on_device) {
    host_.clear();
    on_device_.clear();
    for (size_t i = 0; i < inputs.size(); ++i) {
        host_[m_.inputs[i]] = inputs[i];
        if (check_ && inference_ == 0) golden_[m_.inputs[i]] = inputs[i];
    }
    std::vector<OperatorRun> records;
    for (const Step& s : plan_.steps) {
        records.push_back(run_step(s, on_device));
        if (out_.mismatch) break;
    }
    return records;
}

NetworkRun Runner::run(const DeviceFactory* make_device, const std::vector<Value>& inputs) {
    if (inputs.size() != m_.inputs.size()) {
        throw Error(fmt::format("the model takes {} inputs, got {}", m_.inputs.size(),
                                inputs.size()));
    }
    if (options_.inferences < 1 || options_.inferences > kMaxInferences) {
        throw Error(fmt::format("inferences: {}: must be in [1, {}]", options_.inferences,
                                kMaxInferences));
    }
    if (make_device) place(*make_device);
    out_.arena_bytes = plan_.arena_bytes;
    out_.inferences = options_.inferences;
    for (const Step& s : plan_.steps) {
        for (const network::ConvLayer& c : s.convs) {
            if (!c.resident) continue;
            if (c.resident->weights) out_.resident_bytes += int64_t{c.resident->weights->entries} * hw_.wgt_entry_bytes;
            if (c.resident->params) out_.resident_bytes += int64_t{c.resident->params->entries} * hw_.prm_entry_bytes;
        }
        // The weights and the bias tensor, which the parameters hold.
        const Operator& op = m_.operators[static_cast<size_t>(s.op)];
        auto name = [this, &op](size_t input) { return printable(m_.tensor(op.inputs[input]).name); };
        if (all_keep(s, &network::Residency::weights)) out_.resident_tensors.push_back(name(1));
        if (all_keep(s, &network::Residency::params) && op.inputs.size() > 2 && op.inputs[2] >= 0) {
            out_.resident_tensors.push_back(name(2));
        }
    }
    for (inference_ = 0; inference_ < options_.inferences && !out_.mismatch; ++inference_) {
        std::vector<OperatorRun> records = run_inference(inputs, make_device != nullptr);
        (inference_ == 0 ? out_.operators : out_.steady) = std::move(records);
    }
    if (!out_.mismatch) {
        for (int t : m_.outputs) out_.outputs.push_back(host_value(t));
    }
    if (options_.keep_tensors) {
        for (const OperatorRun& r : out_.operators) {
            for (const int t : m_.operators[static_cast<size_t>(r.index)].outputs) {
                const bool exists = (r.placement != Placement::Folded || !make_device ||
                                     plan_.storage[static_cast<size_t>(t)] != t) &&  // a RESHAPE
                                    !m_.tensor(t).is_constant();  // a folded shape
                if (exists) out_.tensors[t] = host_value(t);
            }
        }
    }
    return out_;
}

}  // namespace

NetworkRun run_network(const Model& model, const NetworkPlan& plan, const HwParams& hw,
                       const DeviceFactory* make_device, const std::vector<Value>& inputs,
                       const RunOptions& options) {
    return Runner(model, plan, hw, make_device != nullptr, options).run(make_device, inputs);
}

std::string describe(const Mismatch& m, const Model& model) {
    return fmt::format("operator {} ({}) wrote tensor '{}' with {} elements unlike the golden "
                       "reference{}; first [{}]: device {}, reference {}",
                       m.op, graph::op_kind_name(model.operators[static_cast<size_t>(m.op)].kind),
                       m.tensor, m.differing,
                       m.inference > 0 ? fmt::format(" in inference {}", m.inference + 1) : "",
                       m.element, m.got, m.want);
}

NetworkRun run_model(const Model& model, const HwParams& hw, Backend backend,
                     const DeviceFactory& make_device, const std::vector<Value>& inputs,
                     const RunOptions& options) {
    const NetworkPlan plan = network::plan_network(model, hw, on_device(backend), options.match);
    return run_network(model, plan, hw, on_device(backend) ? &make_device : nullptr, inputs,
                       options);
}

}  // namespace accel
