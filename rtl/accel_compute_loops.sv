// accel_compute_loops: the loop counters of one GEMM instruction (docs/isa.md, "GEMM"). Six
// levels, outermost first: 0 kb, 1 oy, 2 ox (one output entry each), 3 r, 4 s, 5 cb (the
// reduction). Every step_i advances the nest by one reduction step; inc_o names the level
// that increments (the levels inside it restart at 0), so address generators can follow
// the nest with additions only. After the last step every counter is back at 0, which is
// also the state after reset: the first step of the next instruction needs no set-up.
//
// Whether a counter holds its last value is kept in a register, worked out when the
// counter moves (from the count before, so no comparison follows the increment), except
// in the first step of an instruction, where every counter is 0 and the extents are
// new: there it is one_i, the extent == 1 flags that came with the instruction
// (accel_gemm_extents). So a step's carries start from registers, not from comparisons
// against the instruction's fields (the FPGA's longest path, docs/fpga.md).
`include "accel_assert.svh"
`default_nettype none

module accel_compute_loops (
    input  wire logic        clk_i,
    input  wire logic        rst_i,
    input  wire logic [95:0] extent_i,  // level l's trip count (>= 1) at [16*l +: 16];
                                        // must stay stable while an instruction runs
    input  wire logic [5:0]  one_i,     // level l's trip count is 1 (bit l)
    input  wire logic        step_i,    // the current step issues: advance
    output logic      [5:0]  inc_o,     // one-hot: level that increments on step_i;
                                        // all zero on the instruction's last step
    output logic             first_o,   // current step is the first of its output entry
    output logic             last_o,    // current step is the last of its output entry
    output logic             final_o    // current step is the last of the instruction
);
    localparam int LEVELS = 6;
    localparam int FIRST_REDUCTION_LEVEL = 3;  // r

    logic [LEVELS-1:0] at_end;   // counter l holds its last value
    logic [LEVELS-1:FIRST_REDUCTION_LEVEL] at_zero;  // reduction counter l holds 0
    logic [LEVELS:0]   carry;    // carry[l]: every level inside l is at its end
    logic              fresh_q;  // no step of this instruction yet: every counter is 0

    always_ff @(posedge clk_i) begin
        if (rst_i) fresh_q <= 1'b1;
        else if (step_i) fresh_q <= carry[0];  // after the last step, the next is fresh
    end

    for (genvar l = 0; l < LEVELS; l++) begin : g_level
        logic [15:0] idx_q;
        logic        at_end_q;  // idx_q == extent - 1, when not fresh
        logic        one;       // the extent is 1: counter 0 is also its last value
        assign one = one_i[l];
        assign at_end[l] = fresh_q ? one : at_end_q;
        if (l >= FIRST_REDUCTION_LEVEL) begin : g_reduction
            assign at_zero[l] = idx_q == 16'd0;
        end
        always_ff @(posedge clk_i) begin
            if (rst_i) begin
                idx_q    <= '0;
                at_end_q <= 1'b0;
            end else if (step_i && carry[l+1]) begin
                idx_q    <= at_end[l] ? 16'd0 : idx_q + 16'd1;
                at_end_q <= at_end[l] ? one : idx_q == extent_i[16*l +: 16] - 16'd2;
            end else if (step_i && fresh_q) begin
                at_end_q <= one;  // the counter stays at 0 for now
            end
        end
        // The register says what the comparison would while an instruction runs (its
        // extents stable), and every counter is back at 0 after its last step.
        `ACCEL_ASSERT(a_at_end_register,
                      !fresh_q |-> at_end_q == (idx_q == extent_i[16*l +: 16] - 16'd1),
                      clk_i, rst_i)
        `ACCEL_ASSERT(a_restart_at_zero, step_i && final_o |=> idx_q == '0, clk_i, rst_i)
        `ACCEL_ASSERT(a_one_is_extent_one, step_i |-> one == (extent_i[16*l +: 16] == 16'd1),
                      clk_i, rst_i)
    end

    // carry[LEVELS] = 1: the innermost level advances on every step.
    always_comb begin
        carry[LEVELS] = 1'b1;
        for (int l = LEVELS - 1; l >= 0; l--) carry[l] = carry[l+1] & at_end[l];
    end
    assign inc_o   = carry[LEVELS:1] & ~at_end;
    assign first_o = &at_zero;
    assign last_o  = carry[FIRST_REDUCTION_LEVEL];
    assign final_o = carry[0];

    // One level increments per step, none on the last one (what the AGUs follow).
    `ACCEL_ASSERT(a_inc_onehot, $onehot0(inc_o), clk_i, rst_i)
    `ACCEL_ASSERT(a_final_iff_no_inc, final_o == (inc_o == '0), clk_i, rst_i)
    `ACCEL_ASSERT(a_final_is_last, final_o |-> last_o, clk_i, rst_i)
endmodule

`default_nettype wire
