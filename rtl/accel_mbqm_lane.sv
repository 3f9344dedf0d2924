// One lane of TFLite's MultiplyByQuantizedMultiplier (docs/semantics.md) as a pipeline
// of 4 register stages: x = RDBPOT(SRDHM(acc << l, multiplier), r), where the quant
// lane {left, amount, multiplier} gives l = left ? amount : 0 and r = left ? 0 : amount,
// and acc << l wraps in 32 bits. Bit-exact with accel::mbqm for every 32-bit input,
// including negative multipliers and INT32_MIN * INT32_MIN (saturates to INT32_MAX).
//
// The caller owns the valid chain: ld_i[s] loads stage s (data gating: a stage's
// registers change only when the data entering it is valid), and x_o is stage 3.
// Stages: 0 operands (the accumulator left-shifted on its way in, so the shift costs no
// stage), 1 the 32x32 -> 64 product (so a DSP can absorb stages 0-1), 2 SRDHM rounding,
// 3 RDBPOT.
`default_nettype none

module accel_mbqm_lane #(
    localparam int QL = accel_isa_pkg::QUANT_LANE_W,
    localparam int EW = accel_isa_pkg::QUANT_AMOUNT_W
) (
    input  wire logic               clk_i,
    input  wire logic [3:0]         ld_i,     // stage s loads this cycle
    input  wire logic signed [31:0] acc_i,
    input  wire logic [QL-1:0]      quant_i,  // {left, amount, multiplier[31:0]}
    output logic signed [31:0]      x_o
);
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

    logic               left;              // the lane's shift: direction and amount
    logic      [EW-1:0] amount;
    logic signed [31:0] a0_q, m0_q;        // stage 0: operands, a0 = acc << l
    logic      [EW-1:0] e0_q, e1_q, e2_q;  // right-shift amount r, stages 0-2
    logic        [32:0] p1_q;              // stage 1: product bits [62:30]
    logic               sat1_q;            // stage 1: INT32_MIN * INT32_MIN
    logic signed [31:0] x2_q;              // stage 2: SRDHM
    logic signed [31:0] r3_q;              // stage 3: RDBPOT

    assign left   = quant_i[accel_isa_pkg::QUANT_LEFT_LO];
    assign amount = quant_i[accel_isa_pkg::QUANT_AMOUNT_LO +: EW];

    always_ff @(posedge clk_i) begin
        if (ld_i[0]) begin
            a0_q <= acc_i << (left ? amount : EW'(0));  // wraps, as TFLite
            m0_q <= quant_i[31:0];
            e0_q <= left ? EW'(0) : amount;
        end
        if (ld_i[1]) begin
            p1_q   <= 33'((64'(a0_q) * 64'(m0_q)) >>> 30);
            sat1_q <= (a0_q == 32'sh80000000) && (m0_q == 32'sh80000000);
            e1_q   <= e0_q;
        end
        if (ld_i[2]) begin
            x2_q <= sat1_q ? 32'sh7fffffff : signed'(p1_q[32:1] + {31'd0, p1_q[0]});
            e2_q <= e1_q;
        end
        if (ld_i[3]) r3_q <= rdbpot(x2_q, e2_q);
    end

    assign x_o = r3_q;
endmodule

`default_nettype wire
