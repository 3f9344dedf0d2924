// Per-lane int8 requantization of int32 accumulators (docs/semantics.md, docs/isa.md
// "DRAIN"), TFLite's MultiplyByQuantizedMultiplier:
//   q = clamp(zy + RDBPOT(SRDHM(acc << l, multiplier), r), act_min, act_max)
// where the quant lane {left, amount, multiplier} gives l = left ? amount : 0 and
// r = left ? 0 : amount, and acc << l wraps in 32 bits. Bit-exact with accel::mbqm for
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
// Stages: 0 input registers (the accumulator left-shifted on its way in, so the shift
// costs no stage), 1 the 32x32 -> 64 product (so a DSP can absorb stages 0-1), 2 SRDHM
// rounding, 3 RDBPOT, 4 zero point and clamp.
`default_nettype none

module requant #(
    parameter int LANES = 8,  // lanes processed per cycle (>= 1)
    localparam int QL = accel_isa_pkg::QUANT_LANE_W,
    localparam int EW = accel_isa_pkg::QUANT_AMOUNT_W
) (
    input  wire logic                 clk_i,
    input  wire logic                 rst_i,
    input  wire logic                 en_i,       // advance the pipeline this cycle
    input  wire logic                 valid_i,
    input  wire logic [32*LANES-1:0]  acc_i,      // lane j: int32 accumulator
    input  wire logic [QL*LANES-1:0]  quant_i,    // lane j: {left, amount, multiplier[31:0]}
    input  wire logic [7:0]           zy_i,       // int8 output zero point
    input  wire logic [7:0]           act_min_i,  // int8
    input  wire logic [7:0]           act_max_i,  // int8
    output logic                      valid_o,
    output logic      [8*LANES-1:0]   q_o         // lane j: int8 result
);
    localparam int LATENCY = 5;  // enabled cycles from valid_i to valid_o

    if (LANES < 1) begin : g_bad_lanes
        $error("requant: LANES must be at least 1");
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

    // The shared parameters as seen by the last stage.
    logic signed [32:0] zy_s, min_s, max_s;
    assign zy_s  = 33'(signed'(prm_q[24*(LATENCY-2) +: 8]));
    assign min_s = 33'(signed'(prm_q[24*(LATENCY-2) + 8 +: 8]));
    assign max_s = 33'(signed'(prm_q[24*(LATENCY-2) + 16 +: 8]));

    // SRDHM: gemmlowp computes (p + nudge) / 2^31 with C (truncating) division,
    // nudge = p >= 0 ? 2^30 : 1 - 2^30. For p < 0 that is
    // ceil((p + 1 - 2^30) / 2^31) = floor((p + 2^30) / 2^31), and for p >= 0 it is
    // floor((p + 2^30) / 2^31) too: so SRDHM = p[63:31] + p[30], an arithmetic
    // shift plus a rounding bit. Every product but 2^62 (INT32_MIN * INT32_MIN,
    // which saturates) lies in (-2^62, 2^62), so bits [62:30] are all that matter
    // (stage 1 keeps them).

    // RDBPOT(x, e): mask = 2^e - 1, remainder = x & mask,
    // threshold = (mask >> 1) + (x < 0), result (x >>> e) + (remainder > threshold).
    function automatic logic signed [31:0] rdbpot(input logic signed [31:0] x,
                                                  input logic [EW-1:0] e);
        logic [31:0] mask, remainder, threshold;
        mask      = (32'd1 << e) - 32'd1;
        remainder = x & mask;
        threshold = (mask >> 1) + {31'd0, x[31]};
        rdbpot    = (x >>> e) + ((remainder > threshold) ? 32'sd1 : 32'sd0);
    endfunction

    // zy + RDBPOT in 33 bits (cannot overflow), clamped before narrowing.
    function automatic logic [7:0] clamp(input logic signed [31:0] r,
                                         input logic signed [32:0] zy,
                                         input logic signed [32:0] lo,
                                         input logic signed [32:0] hi);
        logic signed [32:0] sum;
        sum = zy + 33'(r);
        if (sum < lo)      clamp = lo[7:0];
        else if (sum > hi) clamp = hi[7:0];
        else               clamp = sum[7:0];
    endfunction

    for (genvar j = 0; j < LANES; j++) begin : g_lane
        logic               left;          // the lane's shift: direction and amount
        logic      [EW-1:0] amount;
        logic signed [31:0] a0_q, m0_q;    // stage 0: operands, a0 = acc << l
        logic      [EW-1:0] e0_q, e1_q, e2_q;  // right-shift amount r, stages 0-2
        logic        [32:0] p1_q;          // stage 1: product bits [62:30]
        logic               sat1_q;        // stage 1: INT32_MIN * INT32_MIN
        logic signed [31:0] x2_q;          // stage 2: SRDHM
        logic signed [31:0] r3_q;          // stage 3: RDBPOT
        logic        [7:0]  q4_q;          // stage 4: clamped int8

        assign left   = quant_i[QL*j + accel_isa_pkg::QUANT_LEFT_LO];
        assign amount = quant_i[QL*j + accel_isa_pkg::QUANT_AMOUNT_LO +: EW];

        always_ff @(posedge clk_i) begin
            if (ld[0]) begin
                a0_q <= acc_i[32*j +: 32] << (left ? amount : EW'(0));  // wraps, as TFLite
                m0_q <= quant_i[QL*j +: 32];
                e0_q <= left ? EW'(0) : amount;
            end
            if (ld[1]) begin
                p1_q   <= 33'((64'(a0_q) * 64'(m0_q)) >>> 30);
                sat1_q <= (a0_q == 32'sh80000000) && (m0_q == 32'sh80000000);
                e1_q   <= e0_q;
            end
            if (ld[2]) begin
                x2_q <= sat1_q ? 32'sh7fffffff : signed'(p1_q[32:1] + {31'd0, p1_q[0]});
                e2_q <= e1_q;
            end
            if (ld[3]) r3_q <= rdbpot(x2_q, e2_q);
            if (ld[4]) q4_q <= clamp(r3_q, zy_s, min_s, max_s);
        end

        assign q_o[8*j +: 8] = q4_q;
    end
endmodule

`default_nettype wire
