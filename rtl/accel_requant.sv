// Per-lane int8 requantization of int32 accumulators (docs/semantics.md, docs/isa.md
// "DRAIN"), TFLite's MultiplyByQuantizedMultiplier:
//   q = clamp(zy + RDBPOT(SRDHM(acc << l, multiplier), r), act_min, act_max)
// where the quant lane {round_up, left, amount, multiplier} gives l = left ? amount : 0
// and r = left ? 0 : amount, and acc << l wraps in 32 bits; round_up rounds RDBPOT's
// ties upward (accel::mbqm_up). Bit-exact with accel::mbqm for
// every 32-bit input, including negative multipliers and INT32_MIN * INT32_MIN
// (saturates to INT32_MAX).
//
// A plain pipeline of LATENCY register stages; en_i low freezes every stage (valid
// bits included), so a result appears on valid_o/q_o after LATENCY enabled cycles.
// A stage's registers load only when the data entering it is valid (data gating: an
// idle pipeline toggles nothing, and the simulator skips its arithmetic), so q_o holds
// the last result while valid_o is low. zy/act_min/act_max travel down the pipeline
// with their lanes, so they may change from one input to the next.
//
// Stages: 0-7 MBQM (rtl/accel_mbqm_lane.sv), 8 zero point added, 9 clamp.
`default_nettype none

module accel_requant #(
    parameter int LANES = 8,  // lanes processed per cycle (>= 1)
    localparam int QL = accel_isa_pkg::QUANT_LANE_W
) (
    input  wire logic                 clk_i,
    input  wire logic                 rst_i,
    input  wire logic                 en_i,       // advance the pipeline this cycle
    input  wire logic                 valid_i,
    input  wire logic [32*LANES-1:0]  acc_i,      // lane j: int32 accumulator
    input  wire logic [QL*LANES-1:0]  quant_i,    // lane j: {round_up, left, amount, multiplier[31:0]}
    input  wire logic [7:0]           zy_i,       // int8 output zero point
    input  wire logic [7:0]           act_min_i,  // int8
    input  wire logic [7:0]           act_max_i,  // int8
    output logic                      valid_o,
    output logic      [8*LANES-1:0]   q_o         // lane j: int8 result
);
    localparam int MBQM = 8;              // accel_mbqm_lane's stages
    localparam int LATENCY = MBQM + 2;    // enabled cycles from valid_i to valid_o

    if (LANES < 1) begin : g_bad_lanes
        $error("accel_requant: LANES must be at least 1");
    end

    // Valid bits and the per-stage copies of the shared int8 parameters.
    logic [LATENCY-1:0] valid_q;
    // {act_max, act_min, zy} of stage s in bits [24*s +: 24], stages 0..LATENCY-2.
    logic [24*(LATENCY-1)-1:0] prm_q;

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            valid_q <= '0;
        end else if (en_i) begin
            valid_q <= {valid_q[LATENCY-2:0], valid_i};
        end
    end

    // ld[s]: stage s loads this cycle (the data entering it is valid).
    logic [LATENCY-1:0] ld;
    assign ld = en_i ? {valid_q[LATENCY-2:0], valid_i} : '0;

    always_ff @(posedge clk_i) begin
        if (ld[0]) prm_q[0 +: 24] <= {act_max_i, act_min_i, zy_i};
        for (int s = 1; s < LATENCY - 1; s++) begin
            if (ld[s]) prm_q[24*s +: 24] <= prm_q[24*(s-1) +: 24];
        end
    end

    assign valid_o = valid_q[LATENCY-1];

    // The shared parameters as seen by the zero-point stage and the clamp stage.
    logic signed [32:0] zy_s, min_s, max_s;
    assign zy_s  = 33'(signed'(prm_q[24*(LATENCY-3) +: 8]));
    assign min_s = 33'(signed'(prm_q[24*(LATENCY-2) + 8 +: 8]));
    assign max_s = 33'(signed'(prm_q[24*(LATENCY-2) + 16 +: 8]));

    // zy + RDBPOT in 33 bits (cannot overflow), clamped before narrowing.
    function automatic logic [7:0] clamp(input logic signed [32:0] sum,
                                         input logic signed [32:0] lo,
                                         input logic signed [32:0] hi);
        if (sum < lo)      clamp = lo[7:0];
        else if (sum > hi) clamp = hi[7:0];
        else               clamp = sum[7:0];
    endfunction

    for (genvar j = 0; j < LANES; j++) begin : g_lane
        logic signed [31:0] r;      // stages 0-7: MBQM
        logic signed [32:0] y8_q;   // stage 8: zy + MBQM
        logic        [7:0]  q9_q;   // stage 9: clamped int8
        accel_mbqm_lane u_mbqm (.clk_i, .ld_i(ld[MBQM-1:0]), .acc_i(acc_i[32*j +: 32]),
                          .pre_shift_i(1'b0), .quant_i(quant_i[QL*j +: QL]), .x_o(r));
        always_ff @(posedge clk_i) begin
            if (ld[MBQM]) y8_q <= zy_s + 33'(r);
            if (ld[MBQM+1]) q9_q <= clamp(y8_q, min_s, max_s);
        end
        assign q_o[8*j +: 8] = q9_q;
    end
endmodule

`default_nettype wire
