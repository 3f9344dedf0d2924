// Dependency-token queue between two units (docs/isa.md, "Unit queues"): a counter of
// tokens from 0 to MAX. The tokens carry no data, so a count is the whole queue.
//
// - clear_i empties the queue (the start of a run); it wins over a push or pop in the
//   same cycle, which are then ignored (and raise no overflow).
// - push_i and pop_i in the same cycle leave the count as it is (the popper takes the
//   token that is pushed, or one that was there).
// - push_i at MAX without pop_i drops the token and pulses overflow_o in that same
//   cycle (combinational; docs/isa.md TOKEN_OVERFLOW).
// - pop_i only while avail_o, by contract (an assertion under ACCEL_ASSERT); a pop of
//   an empty queue is ignored.
`include "accel_assert.svh"
`default_nettype none

module accel_token_queue #(
    parameter int MAX = 255  // tokens the queue can hold (>= 1)
) (
    input  wire logic clk_i,
    input  wire logic rst_i,
    input  wire logic clear_i,
    input  wire logic push_i,
    input  wire logic pop_i,
    output logic      avail_o,     // count > 0
    output logic      overflow_o   // a push at MAX without a pop: the token is dropped
);
    localparam int CW = (MAX > 0) ? $clog2(MAX + 1) : 1;  // count bits (0..MAX)
    localparam logic [CW-1:0] MAX_COUNT = CW'(MAX);

    if (MAX < 1) begin : g_bad_max
        $error("accel_token_queue: MAX must be at least 1");
    end

    // Whether the count is 0 or MAX is kept in registers beside it, updated as it
    // moves, so that a unit's start decision (avail_o) is not a comparison of the count.
    logic [CW-1:0] count_q;
    logic at_max, empty;  // count_q == MAX_COUNT, count_q == 0
    assign avail_o    = !empty;
    assign overflow_o = !clear_i && push_i && !pop_i && at_max;

    always_ff @(posedge clk_i) begin
        if (rst_i || clear_i) begin
            count_q <= '0;
            at_max  <= 1'b0;
            empty   <= 1'b1;
        end else if (push_i && !pop_i && !at_max) begin
            count_q <= count_q + CW'(1);
            at_max  <= count_q == MAX_COUNT - CW'(1);
            empty   <= 1'b0;
        end else if (pop_i && !push_i && !empty) begin
            count_q <= count_q - CW'(1);
            at_max  <= 1'b0;
            empty   <= count_q == CW'(1);
        end
    end
    `ACCEL_ASSERT(a_flags_follow_count,
                  at_max == (count_q == MAX_COUNT) && empty == (count_q == '0), clk_i, rst_i)

    // A unit pops only a token that is there (or pushed in the same cycle), and the count
    // never passes MAX: a dropped token is reported as TOKEN_OVERFLOW, never wrapped.
    `ACCEL_ASSERT(a_no_underflow, pop_i && !push_i |-> avail_o, clk_i, rst_i || clear_i)
    `ACCEL_ASSERT(a_in_range, count_q <= MAX_COUNT, clk_i, rst_i)
endmodule

`default_nettype wire
