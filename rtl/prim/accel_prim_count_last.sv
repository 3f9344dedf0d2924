// A loop counter that knows its last value from a register: value_o counts 0, 1, ...,
// count - 1 on step_i and then starts again at 0, and last_o says that value_o is
// count - 1. last_o is worked out as the counter moves (value_o equal to count - 2
// before the step, or a count of 1 after a restart), so that a loop nest's step, which
// fans out to every register of the unit, starts from flags and not from comparisons
// against the instruction's fields (docs/fpga.md, timing).
//
// load_i latches count_i (>= 1) and restarts at 0; it wins over step_i.
`include "accel_assert.svh"
`default_nettype none

module accel_prim_count_last #(
    parameter int W = 16  // bits of the count and of the value
) (
    input  wire logic         clk_i,
    input  wire logic         rst_i,
    input  wire logic         load_i,
    input  wire logic [W-1:0] count_i,  // trip count, >= 1 (latched on load_i)
    input  wire logic         step_i,   // advance: to value_o + 1, or to 0 after the last
    output logic      [W-1:0] value_o,
    output logic              last_o    // value_o == count - 1
);
    logic [W-1:0] value_q;
    logic [W-1:0] m2_q;   // count - 2 (all ones for a count of 1: never reached)
    logic         one_q;  // a count of 1
    logic         last_q;

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            value_q <= '0;
            last_q  <= 1'b0;
        end else if (load_i) begin
            value_q <= '0;
            last_q  <= count_i == W'(1);
        end else if (step_i) begin
            value_q <= last_q ? '0 : value_q + W'(1);
            last_q  <= last_q ? one_q : value_q == m2_q;
        end
    end
    always_ff @(posedge clk_i) begin
        if (load_i) begin
            m2_q  <= count_i - W'(2);
            one_q <= count_i == W'(1);
        end
    end
    assign value_o = value_q;
    assign last_o  = last_q;

    // The flag says what the comparison would, for the count as latched (checker state,
    // simulation only).
    `ACCEL_ASSERT(a_count_positive, load_i |-> count_i != '0, clk_i, rst_i)
`ifdef ACCEL_ASSERT_ON
    logic loaded_q;  // a count was latched since reset
    always_ff @(posedge clk_i) begin
        if (rst_i) loaded_q <= 1'b0;
        else if (load_i) loaded_q <= 1'b1;
    end
    `ACCEL_ASSERT(a_last_flag, loaded_q |-> last_q == (value_q == m2_q + W'(1)), clk_i, rst_i)
`endif
endmodule

`default_nettype wire
