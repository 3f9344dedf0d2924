#include "runtime/network_runner.hpp"

#include <chrono>
#include <cstring>
#include <map>
#include <set>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/text.hpp"
#include "compiler/add_program.hpp"
#include "compiler/packing.hpp"
#include "compiler/metrics.hpp"
#include "compiler/layout.hpp"
#include "compiler/scheduler.hpp"
#include "hw/dram_bus.hpp"
#include "hw/hw_params.hpp"
#include "hw/isa.hpp"
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

// A conv2d layer of a device step in the network's DRAM: its program and constants at
// `base` (the block the plan sizes), its input and output in the arena.
struct PlacedLayer {
    LoweredLayer lowered;
    uint32_t base = 0;
    uint32_t instructions = 0;
};

// A device ADD in the network's DRAM: its program and constants at `base`.
struct PlacedAdd {
    uint32_t base = 0;
    uint32_t instructions = 0;
};

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

// The roofline of a device step. A depthwise operator is measured by its own work, not
// by its blocks' diagonal convolutions: its MACs, and the bytes its blocks read and write
// with only the filter's R*S*C weights.
int64_t step_roofline_cycles(const Step& s, graph::OpKind kind, int64_t macs,
                             const HwParams& params) {
    const HwConfig& hw = params.config;
    if (kind == graph::OpKind::Conv2d || kind == graph::OpKind::FullyConnected) {
        return roofline_cycles(s.convs.front().layer, hw);
    }
    if (s.add) {  // two operands read and the sum written, entry for entry
        return roofline_cycles(0, 3 * s.add->entries * params.inp_entry_bytes, hw);
    }
    int64_t bytes = 0;
    for (const network::ConvLayer& c : s.convs) {
        const CompulsoryBytes b = compulsory_bytes(c.layer);
        bytes += b.input + b.params + b.output + b.weights / c.layer.shape.k;
    }
    return roofline_cycles(macs, bytes, hw);
}

class Runner {
public:
    // The golden run alongside only has something to check on a device.
    Runner(const Model& m, const NetworkPlan& plan, const HwParams& hw, bool on_device,
           const RunOptions& options)
        : m_(m), plan_(plan), hw_(hw), check_(options.check && on_device), options_(options) {}

    NetworkRun run(const DeviceFactory* make_device, const std::vector<Value>& inputs);

private:
    void place(const DeviceFactory& make_device);
    void write_layer(const Step& s, const network::ConvLayer& c, const PlacedLayer& p);
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
    std::map<int, PlacedAdd> adds_;                   // by step
    uint32_t arena_base_ = 0;
    int64_t predicted_cycles_ = 0;       // of every device operator
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
                                                      c.plan.instructions, {p.base, 0, 0});
            at = block.dram_bytes;
            layers_[s.op].push_back(std::move(p));
        }
    }
    arena_base_ = static_cast<uint32_t>(align_dram_region(at, hw_));
    const uint64_t total = uint64_t{arena_base_} + static_cast<uint64_t>(plan_.arena_bytes);
    if (total > dram_bus::kMaxDramBytes) {
        throw Error(fmt::format("the network needs {} bytes of device DRAM; the device "
                                "addresses 4 GiB", total));
    }
    out_.constant_bytes = arena_base_;
    for (const Step& s : plan_.steps) {
        if (s.placement != Placement::Device) continue;
        if (s.add) predicted_cycles_ += s.add->plan.predicted_cycles;
        for (const network::ConvLayer& c : s.convs) predicted_cycles_ += c.plan.predicted_cycles;
    }
    device_ = make_device(hw_, std::max<uint64_t>(total, 64));
    for (const auto& [op, placed] : adds_) write_add(plan_.steps[static_cast<size_t>(op)]);
    for (const auto& [op, placed] : layers_) {
        const Step& s = plan_.steps[static_cast<size_t>(op)];
        for (size_t i = 0; i < placed.size(); ++i) write_layer(s, s.convs[i], placed[i]);
    }
}

// Schedules a layer at its place and writes its program and constants.
void Runner::write_layer(const Step& s, const network::ConvLayer& c, const PlacedLayer& p) {
    const Operator& o = m_.operators[static_cast<size_t>(s.op)];
    const LayerPlacement at{p.base, arena_address(c.input, c.input_slab),
                            arena_address(o.outputs[0], c.output_slab)};
    const Conv2dProgram program = schedule_conv2d(p.lowered, hw_, c.plan, at);
    std::vector<uint8_t> block(program.layout.dram_bytes - p.base, 0);
    isa::encode_program(program.insns, block.data());
    pack_constants(program, hw_, c.weights, c.bias, block, p.base);
    device_->write_dram(p.base, block);
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
    device_->write_dram(p.base, block);
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
        device_->read_dram(arena_address(tensor), bytes);
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
    device_->write_dram(arena_address(tensor), pack_activation(x, hw_));
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
    rec.roofline_cycles = step_roofline_cycles(s, op.kind, rec.macs, hw_);
    if (s.add) {
        const std::vector<int64_t> nhwc = network::nhwc_of(m_.tensor(op.outputs[0]).shape);
        to_device(s.add->input1, nhwc);
        to_device(s.add->input2, nhwc);
        const PlacedAdd& p = adds_.at(s.op);
        count_run(s, p.base, p.instructions, rec);
        rec.predicted_cycles += s.add->plan.predicted_cycles;
    } else {
        run_device_convs(s, rec);
    }
    on_device_.insert(op.outputs[0]);
    host_.erase(op.outputs[0]);
}

void Runner::run_device_convs(const Step& s, OperatorRun& rec) {
    const std::vector<PlacedLayer>& placed = layers_.at(s.op);
    const network::ConvLayer& first = s.convs.front();
    to_device(first.input, first.input_nhwc);
    for (size_t i = 0; i < placed.size(); ++i) {
        count_run(s, placed[i].base, placed[i].instructions, rec);
        rec.predicted_cycles += s.convs[i].plan.predicted_cycles;
    }
}

void Runner::run_host_step(const Step& s, OperatorRun& rec) {
    const Operator& op = m_.operators[static_cast<size_t>(s.op)];
    std::vector<const Value*> inputs;
    for (int t : op.inputs) inputs.push_back(t < 0 || m_.tensor(t).is_constant() ? nullptr : &host_value(t));
    const auto start = std::chrono::steady_clock::now();
    std::vector<Value> values = reference::evaluate(m_, op, inputs);
    rec.host_seconds = seconds_since(start);
    for (size_t i = 0; i < op.outputs.size(); ++i) {
        on_device_.erase(op.outputs[i]);
        host_[op.outputs[i]] = std::move(values.at(i));
    }
}

void Runner::check_step(const Step& s) {
    const Operator& op = m_.operators[static_cast<size_t>(s.op)];
    std::vector<const Value*> inputs;
    for (int t : op.inputs) {
        inputs.push_back(t < 0 || m_.tensor(t).is_constant() ? nullptr : &golden_.at(t));
    }
    std::vector<Value> values = reference::evaluate(m_, op, inputs);
    for (size_t i = 0; i < op.outputs.size(); ++i) golden_[op.outputs[i]] = std::move(values.at(i));
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
                                     got.i8[i], want.i8[i], 0};
        }
        ++out_.mismatch->differing;
    }
}

NetworkRun Runner::run(const DeviceFactory* make_device, const std::vector<Value>& inputs) {
    if (inputs.size() != m_.inputs.size()) {
        throw Error(fmt::format("the model takes {} inputs, got {}", m_.inputs.size(),
                                inputs.size()));
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
        host_[m_.inputs[i]] = inputs[i];
        if (check_) golden_[m_.inputs[i]] = inputs[i];
    }
    if (make_device) place(*make_device);
    out_.arena_bytes = plan_.arena_bytes;
    int64_t cycles_done = 0;  // of the device operators so far, for the progress display
    for (const Step& s : plan_.steps) {
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
            options_.progress({s.op + 1, static_cast<int64_t>(plan_.steps.size()),
                               fmt::format("{} ({})", rec.type,
                                           network::placement_name(s.placement)),
                               cycles_done, predicted_cycles_});
        }
        const bool shape = reference::computes_shape(m_, op);  // folded: nothing runs
        if (s.placement == Placement::Device) {
            run_device_step(s, rec);
        } else if ((s.placement == Placement::Host || !make_device) && !shape) {
            run_host_step(s, rec);
        }
        cycles_done += rec.cycles;
        out_.operators.push_back(rec);
        if (check_ && !shape) {
            check_step(s);
            if (out_.mismatch) break;
        }
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
                       "reference; first [{}]: device {}, reference {}",
                       m.op, graph::op_kind_name(model.operators[static_cast<size_t>(m.op)].kind),
                       m.tensor, m.differing, m.element, m.got, m.want);
}

NetworkRun run_model(const Model& model, const HwParams& hw, Backend backend,
                     const DeviceFactory& make_device, const std::vector<Value>& inputs,
                     const RunOptions& options) {
    const NetworkPlan plan = network::plan_network(model, hw, on_device(backend));
    return run_network(model, plan, hw, on_device(backend) ? &make_device : nullptr, inputs,
                       options);
}

}  // namespace accel
