#include "compiler/program_chain.hpp"

#include <stdexcept>
#include <variant>

namespace accel {
namespace {

// The index of the first (or last) instruction of type T in [from, to), or `to`.
template <typename T>
size_t find_first(const std::vector<isa::Insn>& insns, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
        if (std::holds_alternative<T>(insns[i])) return i;
    }
    return to;
}
template <typename T>
size_t find_last(const std::vector<isa::Insn>& insns, size_t from, size_t to) {
    for (size_t i = to; i > from; --i) {
        if (std::holds_alternative<T>(insns[i - 1])) return i - 1;
    }
    return to;
}

// Sets a token flag that the scheduler left clear.
void set_flag(bool& flag, const char* what) {
    if (flag) throw std::logic_error(std::string("chain_programs: ") + what + " is taken");
    flag = true;
}

}  // namespace

std::vector<isa::Insn> chain_programs(const std::vector<std::vector<isa::Insn>>& programs) {
    std::vector<isa::Insn> out;
    size_t previous = 0;  // where the previous program starts in `out`
    for (size_t p = 0; p < programs.size(); ++p) {
        const std::vector<isa::Insn>& program = programs[p];
        if (program.empty() || !std::holds_alternative<isa::Finish>(program.back())) {
            throw std::logic_error("chain_programs: a program that does not end in FINISH");
        }
        const size_t start = out.size();
        out.insert(out.end(), program.begin(), program.end() - 1);
        if (p == 0) {
            previous = start;
            continue;
        }
        const size_t end = out.size();
        const size_t last_gemm = find_last<isa::Gemm>(out, previous, start);
        const size_t last_drain = find_last<isa::Drain>(out, previous, start);
        const size_t first_load = find_first<isa::Load>(out, start, end);
        const size_t first_gemm = find_first<isa::Gemm>(out, start, end);
        if (last_gemm == start || last_drain == start || first_load == end || first_gemm == end ||
            first_gemm < first_load) {
            throw std::logic_error("chain_programs: a program without loads, GEMMs or DRAINs");
        }
        set_flag(std::get<isa::Gemm>(out[last_gemm]).tokens.push_prev, "the last GEMM's cp2ld push");
        set_flag(std::get<isa::Load>(out[first_load]).tokens.pop_next, "the first LOAD's cp2ld pop");
        set_flag(std::get<isa::Drain>(out[last_drain]).tokens.push_prev, "the last DRAIN's dr2cp push");
        set_flag(std::get<isa::Gemm>(out[first_gemm]).tokens.pop_next, "the first GEMM's dr2cp pop");
        previous = start;
    }
    out.push_back(isa::Finish{});
    return out;
}

}  // namespace accel
