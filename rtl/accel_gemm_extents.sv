// accel_gemm_extents: a GEMM instruction's loop extents (docs/isa.md, "GEMM"), in the
// order of accel_compute_loops' levels, outermost first: 0 kb, 1 oy, 2 ox, 3 r, 4 s,
// 5 cb; and which of them are 1. accel_top works the flags out as the instruction enters
// the GEMM queue and keeps them with it, so the compute unit's first step of an
// instruction takes its carries from registers, not from comparisons of the head
// instruction's fields (docs/fpga.md, timing); the compute unit takes the extents.
`default_nettype none

module accel_gemm_extents (
    input  wire logic [accel_isa_pkg::INSN_BITS-1:0] insn_i,
    output logic      [95:0]                         extent_o,  // level l at [16*l +: 16]
    output logic      [5:0]                          one_o      // level l's extent is 1
);
    accel_isa_pkg::gemm_insn_t g;
    assign g = insn_i;
    assign extent_o = {g.n_cb, 16'(g.n_s), 16'(g.n_r), g.n_ox, g.n_oy, g.n_kb};
    for (genvar l = 0; l < 6; l++) begin : g_level
        assign one_o[l] = extent_o[16*l +: 16] == 16'd1;
    end

    logic unused_insn;  // the other fields are the compute unit's
    assign unused_insn = ^g;
endmodule

`default_nettype wire
