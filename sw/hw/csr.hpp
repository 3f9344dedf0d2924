// The control/status registers of the AXI4-Lite slave, described once: the generator
// (gen_hw_params) writes these offsets into the RTL parameter include, and the device
// drivers use them from here. All registers are 32 bits; 64-bit counters are lo/hi pairs.
#pragma once
#include <array>
#include <cstdint>

namespace accel::csr {

struct Reg {
    const char* name;
    uint32_t offset;
};

constexpr uint32_t kCtrl = 0x00;        // W: bit 0 starts a run (ignored while busy)
constexpr uint32_t kStatus = 0x04;      // R: bit 0 busy, bit 1 done
constexpr uint32_t kError = 0x08;       // R: error mask of the last run (docs/isa.md)
constexpr uint32_t kInsnAddr = 0x0C;    // RW: DRAM byte address of the first instruction
constexpr uint32_t kInsnCount = 0x10;   // RW: instructions in the stream
constexpr uint32_t kUnitState = 0x14;   // R: 4 bits per unit: fetch, load, compute, drain

// 64-bit counters, reset at start: offset = lo, offset + 4 = hi.
constexpr uint32_t kCycles = 0x20;       // start to done
constexpr uint32_t kGemmSteps = 0x28;    // reduction steps issued to the core
constexpr uint32_t kLoadBytes = 0x30;    // DRAM bytes read by LOAD
constexpr uint32_t kDrainBytes = 0x38;   // DRAM bytes written by DRAIN
constexpr uint32_t kFetchBytes = 0x40;   // DRAM bytes read by fetch
constexpr uint32_t kLoadInsns = 0x48;    // instructions completed per unit
constexpr uint32_t kGemmInsns = 0x50;
constexpr uint32_t kDrainInsns = 0x58;
constexpr uint32_t kLoadBusy = 0x60;     // cycles with an instruction under way
constexpr uint32_t kGemmBusy = 0x68;
constexpr uint32_t kDrainBusy = 0x70;
constexpr uint32_t kLoadWait = 0x78;     // cycles waiting for a token
constexpr uint32_t kGemmWait = 0x80;
constexpr uint32_t kDrainWait = 0x88;

// Read-only identity of the compiled configuration.
constexpr uint32_t kCfgBatch = 0x100;
constexpr uint32_t kCfgBlockIn = 0x104;
constexpr uint32_t kCfgBlockOut = 0x108;
constexpr uint32_t kCfgAxiDataBits = 0x10C;
constexpr uint32_t kCfgInpDepth = 0x110;
constexpr uint32_t kCfgWgtDepth = 0x114;
constexpr uint32_t kCfgAccDepth = 0x118;

// The 4-bit state each unit reports in UNIT_STATE (fetch in bits 3:0, then load,
// compute, drain): the RTL's units emit these codes (the generated unit_state_e) and the
// drivers name them.
constexpr unsigned kUnitStateBits = 4;
enum class UnitState : uint32_t { Idle = 0, Waiting = 1, Busy = 2, Halted = 3 };

struct UnitStateInfo {
    UnitState state;
    const char* name;   // in the RTL: UNIT_<name>
    const char* words;  // in messages
};
inline constexpr std::array kUnitStates = {
    UnitStateInfo{UnitState::Idle, "IDLE", "idle"},
    UnitStateInfo{UnitState::Waiting, "WAITING", "waiting for a token"},
    UnitStateInfo{UnitState::Busy, "BUSY", "busy"},
    UnitStateInfo{UnitState::Halted, "HALTED", "halted"},
};

// The words for a state code; "?" for a code no unit reports.
constexpr const char* unit_state_words(uint32_t code) {
    for (const UnitStateInfo& s : kUnitStates) {
        if (static_cast<uint32_t>(s.state) == code) return s.words;
    }
    return "?";
}
constexpr const char* unit_state_words(UnitState s) {
    return unit_state_words(static_cast<uint32_t>(s));
}

inline constexpr std::array kAll = {
    Reg{"CTRL", kCtrl},           Reg{"STATUS", kStatus},         Reg{"ERROR", kError},
    Reg{"INSN_ADDR", kInsnAddr},  Reg{"INSN_COUNT", kInsnCount},  Reg{"UNIT_STATE", kUnitState},
    Reg{"CYCLES", kCycles},       Reg{"GEMM_STEPS", kGemmSteps},  Reg{"LOAD_BYTES", kLoadBytes},
    Reg{"DRAIN_BYTES", kDrainBytes}, Reg{"FETCH_BYTES", kFetchBytes},
    Reg{"LOAD_INSNS", kLoadInsns}, Reg{"GEMM_INSNS", kGemmInsns}, Reg{"DRAIN_INSNS", kDrainInsns},
    Reg{"LOAD_BUSY", kLoadBusy},  Reg{"GEMM_BUSY", kGemmBusy},    Reg{"DRAIN_BUSY", kDrainBusy},
    Reg{"LOAD_WAIT", kLoadWait},  Reg{"GEMM_WAIT", kGemmWait},    Reg{"DRAIN_WAIT", kDrainWait},
    Reg{"CFG_BATCH", kCfgBatch},  Reg{"CFG_BLOCK_IN", kCfgBlockIn},
    Reg{"CFG_BLOCK_OUT", kCfgBlockOut}, Reg{"CFG_AXI_DATA_BITS", kCfgAxiDataBits},
    Reg{"CFG_INP_DEPTH", kCfgInpDepth}, Reg{"CFG_WGT_DEPTH", kCfgWgtDepth},
    Reg{"CFG_ACC_DEPTH", kCfgAccDepth},
};

}  // namespace accel::csr
