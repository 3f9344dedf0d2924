// accel_double_requant with one lane: a beat of LANES lanes goes through it a lane a
// cycle, and comes out whole. Double-scale requantization serves only FULLY_CONNECTED
// layers, whose outputs are few, but a lane of it is six 18x18 DSPs, an 84-bit sum and
// twelve stages of registers: one lane for the whole beat instead of one per byte
// (docs/fpga.md, resources).
//
// valid_i takes a beat at most once every LANES cycles (the drain reads a double-scale
// beat LANES times before it moves on); the results come out LATENCY cycles later, with
// valid_o for one cycle. Cycles after valid_i:
//   1 .. LANES       lane j enters accel_double_requant in cycle j + 1 (from a shift
//                    register loaded with the beat, so no multiplexer picks the lane)
//   LANES + DR_LAT   the last lane's result: the beat, with the results of the lanes
//                    before it, collected in a shift register as they came out
`include "accel_assert.svh"
`default_nettype none

module accel_double_requant_serial #(
    parameter int LANES = 8,  // lanes per beat (>= 1)
    localparam int DR_LATENCY = 12,  // accel_double_requant's LATENCY
    localparam int LATENCY = LANES + DR_LATENCY
) (
    input  wire logic                clk_i,
    input  wire logic                rst_i,
    input  wire logic                valid_i,
    input  wire logic [32*LANES-1:0] acc_i,      // lane j: int32 accumulator
    input  wire logic [64*LANES-1:0] scale_i,    // lane j: binary64 scale word
    input  wire logic [7:0]          zy_i,       // int8 output zero point
    input  wire logic [7:0]          act_min_i,  // int8
    input  wire logic [7:0]          act_max_i,  // int8
    output logic                     valid_o,
    output logic     [8*LANES-1:0]   q_o         // lane j: int8 result
);
    if (LANES < 1) begin : g_bad_lanes
        $error("accel_double_requant_serial: LANES must be at least 1");
    end

    // ---------------------------------------------------------------- in: a lane a cycle
    logic [32*LANES-1:0] acc_q;    // lane 0 is the next to enter
    logic [64*LANES-1:0] scale_q;
    logic [23:0]         clamp_q;  // {act_max, act_min, zy} of the beat
    logic [LANES-1:0]    feed_q;   // feed_q[0]: lane 0 of the registers enters this cycle

    always_ff @(posedge clk_i) begin
        if (rst_i) feed_q <= '0;
        else feed_q <= valid_i ? '1 : feed_q >> 1;
    end
    always_ff @(posedge clk_i) begin
        if (valid_i) begin
            acc_q   <= acc_i;
            scale_q <= scale_i;
            clamp_q <= {act_max_i, act_min_i, zy_i};
        end else begin
            acc_q   <= acc_q >> 32;
            scale_q <= scale_q >> 64;
        end
    end

    logic       lane_valid;
    logic [7:0] lane_q;
    accel_double_requant #(.LANES(1)) u_lane (
        .clk_i, .rst_i, .en_i(1'b1), .valid_i(feed_q[0]),
        .acc_i(acc_q[31:0]), .scale_i(scale_q[63:0]),
        .zy_i(clamp_q[7:0]), .act_min_i(clamp_q[15:8]), .act_max_i(clamp_q[23:16]),
        .valid_o(lane_valid), .q_o(lane_q));
    `ACCEL_ASSERT_INIT(a_dr_latency, u_lane.LATENCY == DR_LATENCY)

    // ---------------------------------------------------------------- out: the whole beat
    // The lanes come out in consecutive cycles, lane 0 first; the beat is whole with its
    // last, LATENCY cycles after it went in.
    logic [LATENCY-1:0] beat_q;  // beat_q[c]: a beat went in c + 1 cycles ago
    always_ff @(posedge clk_i) begin
        if (rst_i) beat_q <= '0;
        else beat_q <= {beat_q[LATENCY-2:0], valid_i};
    end
    assign valid_o = beat_q[LATENCY-1];

    if (LANES > 1) begin : g_collect
        logic [8*(LANES-1)-1:0] done_q;  // the beat's results so far, the latest at the top
        always_ff @(posedge clk_i) begin
            if (lane_valid) done_q <= (8*(LANES-1))'({lane_q, done_q} >> 8);
        end
        assign q_o = {lane_q, done_q};
    end else begin : g_single
        assign q_o = lane_q;
    end

    // A beat has LANES cycles to itself, and its last lane's result completes it.
    `ACCEL_ASSERT(a_beat_spacing, valid_i |-> feed_q <= LANES'(1), clk_i, rst_i)
    `ACCEL_ASSERT(a_beat_ends_with_a_lane, valid_o |-> lane_valid, clk_i, rst_i)
    `ACCEL_ASSERT_KNOWN(a_valid_known, valid_o, clk_i, rst_i)
endmodule

`default_nettype wire
