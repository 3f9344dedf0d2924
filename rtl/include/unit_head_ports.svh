// The head of an execution unit's port list (load, compute, drain): clock, reset and the
// head of the unit's instruction queue, which insn_done_o pops. Included inside an ANSI
// port list: every port ends with a comma, so more ports must follow.
    input  wire logic                                clk_i,
    input  wire logic                                rst_i,
    input  wire logic                                insn_valid_i,
    input  wire logic [accel_isa_pkg::INSN_BITS-1:0] insn_i,
    output logic                                     insn_done_o,
