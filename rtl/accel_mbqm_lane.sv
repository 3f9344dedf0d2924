// One lane of TFLite's MultiplyByQuantizedMultiplier (docs/semantics.md) as a pipeline
// of STAGES register stages: x = RDBPOT(SRDHM(acc << l, multiplier), r), where the quant
// lane {round_up, left, amount, multiplier} gives l = pre + (left ? amount : 0) and
// r = left ? 0 : amount, and acc << l wraps in 32 bits. With round_up, RDBPOT's ties
// go upward (accel::rdbpot_up, LiteRT's optimized kernels) instead of away from zero:
// one bit less in the threshold, no stage more. pre (pre_shift_i) is the add
// mode's shift of its operands: one shifter by the sum of the two amounts rather than
// two shifters in a row (docs/fpga.md, timing). Bit-exact with accel::mbqm for every 32-bit input,
// including negative multipliers and INT32_MIN * INT32_MIN (saturates to INT32_MAX).
//
// The caller owns the valid chain: ld_i[s] loads stage s (data gating: a stage's
// registers change only when the data entering it is valid), and x_o is the last stage.
// One step of arithmetic a stage, so that no path runs from a multiplier through a sum:
//   0 operands (the accumulator left-shifted on its way in)
//   1 the operands' halves in the multipliers' input registers
//   2 the 32x32 product as three partial products, hh, ll and (ah + al) * (mh + ml)
//     (three 18x18 DSPs: stages 1 and 2 are each DSP's own input and output registers,
//     so that neither the shifter nor a sum reaches out of a DSP)
//   3 the middle partial product: (ah + al) * (mh + ml) - hh - ll
//   4 the product's low 33 and high 34 bits, two independent sums
//   5 SRDHM: the product's bits [62:30], rounded, in one sum
//   6 RDBPOT's shift, remainder and threshold (round_up: without the sign's 1)
//   7 RDBPOT's rounding
`default_nettype none

module accel_mbqm_lane #(
    parameter int PRE_W = 1,  // bits of pre_shift_i
    localparam int STAGES = 8,
    localparam int QL = accel_isa_pkg::QUANT_LANE_W,
    localparam int EW = accel_isa_pkg::QUANT_AMOUNT_W
) (
    input  wire logic               clk_i,
    input  wire logic [STAGES-1:0]  ld_i,     // stage s loads this cycle
    input  wire logic signed [31:0] acc_i,
    input  wire logic [PRE_W-1:0]   pre_shift_i,  // left shift before the lane's own
    input  wire logic [QL-1:0]      quant_i,  // {round_up, left, amount, multiplier[31:0]}
    output logic signed [31:0]      x_o
);
    // SRDHM: gemmlowp computes (p + nudge) / 2^31 with C (truncating) division,
    // nudge = p >= 0 ? 2^30 : 1 - 2^30. For p < 0 that is
    // ceil((p + 1 - 2^30) / 2^31) = floor((p + 2^30) / 2^31), and for p >= 0 it is
    // floor((p + 2^30) / 2^31) too: so SRDHM = p[63:31] + p[30], an arithmetic
    // shift plus a rounding bit. Every product but 2^62 (INT32_MIN * INT32_MIN,
    // which saturates) lies in (-2^62, 2^62), so bits [62:30] are all that matter
    // (stage 4 keeps them).
    //
    // The product of a = ah * 2^16 + al and m = mh * 2^16 + ml (ah, mh signed, al, ml
    // unsigned, 16 bits each) is hh * 2^32 + (hl + lh) * 2^16 + ll, and with
    // mid = hl + lh: p = (hh + (mid >>> 16)) * 2^32 + (ll + mid[15:0] * 2^16), the
    // second term in [0, 2^33). The middle term takes one multiplier, not two
    // (Karatsuba): mid = (ah + al) * (mh + ml) - hh - ll, where each sum of a signed and an
    // unsigned half lies in [-2^15, 3 * 2^15) and fits the DSP's 18 signed bits, so a
    // lane is three DSPs. So p >>> 30 = hi * 4 + lo[32:30], and SRDHM =
    // (p >>> 31) + p[30] = floor(((p >>> 30) + 1) / 2) = hi * 2 + floor((lo[32:30] + 1) / 2).

    // RDBPOT(x, e): mask = 2^e - 1, remainder = x & mask,
    // threshold = (mask >> 1) + (x < 0), result (x >>> e) + (remainder > threshold).

    localparam int LW = ((PRE_W > EW) ? PRE_W : EW) + 1;  // bits of the left shift
    logic               left;              // the lane's shift: direction and amount
    logic      [EW-1:0] amount;
    logic signed [31:0] a0_q, m0_q;        // stage 0: operands, a0 = acc << l
    (* mem2reg *) logic [EW-1:0] e_q [6];  // right-shift amount r, stages 0-5
    logic         [5:0] up_q;              // round_up, stages 0-5 ([s])
    logic         [3:0] sat_q;             // INT32_MIN * INT32_MIN, stages 1-4 ([s-1])
    logic signed [31:0] hh2_q;             // stage 2: partial products (stage 1: in the
    logic signed [35:0] ss2_q;             //          multipliers)
    logic        [31:0] ll2_q;
    logic signed [33:0] mid3_q;            // stage 3: hl + lh
    logic signed [31:0] hh3_q;
    logic        [31:0] ll3_q;
    logic signed [33:0] hi4_q;             // stage 4: the product's high and low parts
    logic         [2:0] lo4_q;             //          (of the low part, bits [32:30])
    logic signed [31:0] x5_q;              // stage 5: SRDHM
    logic signed [31:0] sh6_q;             // stage 6: x >>> e, remainder, threshold
    logic        [31:0] rem6_q, thr6_q;
    logic signed [31:0] r7_q;              // stage 7: RDBPOT

    assign left   = quant_i[accel_isa_pkg::QUANT_LEFT_LO];
    assign amount = quant_i[accel_isa_pkg::QUANT_AMOUNT_LO +: EW];

    // Bits [32:30] of ll + mid[15:0] * 2^16: all that the product's bits [62:30] take
    // of its low part.
    function automatic logic [2:0] low_top(input logic [31:0] ll, input logic [15:0] mid_lo);
        low_top = 3'((33'(ll) + {1'b0, mid_lo, 16'd0}) >> 30);
    endfunction

    // floor((lo + 1) / 2) = floor(lo / 2) + lo[0] of the low part's bits [32:30]: 0 .. 4.
    function automatic logic [2:0] half_up(input logic [2:0] lo);
        half_up = {1'b0, lo[2:1]} + {2'b0, lo[0]};
    endfunction

    logic [31:0] mask5;  // 2^e - 1 for the value leaving stage 5
    assign mask5 = (32'd1 << e_q[5]) - 32'd1;

    // Stages 1 and 2 of the three partial products: each multiplier's registers hold its
    // operands and its product (one DSP each on the ECP5, accel_prim_mul_reg).
    logic [17:0] a_sum, m_sum;  // ah + al, mh + ml
    assign a_sum = 18'(signed'(a0_q[31:16])) + 18'({2'b0, a0_q[15:0]});
    assign m_sum = 18'(signed'(m0_q[31:16])) + 18'({2'b0, m0_q[15:0]});
    accel_prim_mul_reg #(.A_W(16), .B_W(16), .A_SIGNED(1'b1), .B_SIGNED(1'b1)) u_hh (
        .clk_i, .in_ce_i(ld_i[1]), .a_i(a0_q[31:16]), .b_i(m0_q[31:16]), .out_ce_i(ld_i[2]),
        .p_o(hh2_q));
    accel_prim_mul_reg #(.A_W(16), .B_W(16), .A_SIGNED(1'b0), .B_SIGNED(1'b0)) u_ll (
        .clk_i, .in_ce_i(ld_i[1]), .a_i(a0_q[15:0]), .b_i(m0_q[15:0]), .out_ce_i(ld_i[2]),
        .p_o(ll2_q));
    accel_prim_mul_reg #(.A_W(18), .B_W(18), .A_SIGNED(1'b1), .B_SIGNED(1'b1)) u_ss (
        .clk_i, .in_ce_i(ld_i[1]), .a_i(a_sum), .b_i(m_sum), .out_ce_i(ld_i[2]),
        .p_o(ss2_q));

    always_ff @(posedge clk_i) begin
        if (ld_i[0]) begin
            a0_q   <= acc_i << (LW'(pre_shift_i) + (left ? LW'(amount) : LW'(0)));  // wraps, as TFLite
            m0_q   <= quant_i[31:0];
            e_q[0] <= left ? EW'(0) : amount;
            up_q[0] <= quant_i[accel_isa_pkg::QUANT_ROUND_UP_LO];
        end
        if (ld_i[1]) sat_q[0] <= (a0_q == 32'sh80000000) && (m0_q == 32'sh80000000);
        if (ld_i[3]) begin
            mid3_q <= 34'(ss2_q - 36'(hh2_q) - 36'({4'd0, ll2_q}));  // = hl + lh, fits
            hh3_q  <= hh2_q;
            ll3_q  <= ll2_q;
        end
        if (ld_i[4]) begin
            hi4_q <= 34'(hh3_q) + (mid3_q >>> 16);
            lo4_q <= low_top(ll3_q, mid3_q[15:0]);
        end
        if (ld_i[5]) x5_q <= sat_q[3] ? 32'sh7fffffff
                                      : 32'(hi4_q <<< 1) + 32'(half_up(lo4_q));
        if (ld_i[6]) begin
            sh6_q  <= x5_q >>> e_q[5];
            rem6_q <= x5_q & mask5;
            thr6_q <= (mask5 >> 1) + {31'd0, x5_q[31] && !up_q[5]};
        end
        if (ld_i[7]) r7_q <= sh6_q + ((rem6_q > thr6_q) ? 32'sd1 : 32'sd0);
        for (int s = 1; s <= 5; s++) if (ld_i[s]) {e_q[s], up_q[s]} <= {e_q[s-1], up_q[s-1]};
        for (int s = 2; s <= 4; s++) if (ld_i[s]) sat_q[s-1] <= sat_q[s-2];
    end

    assign x_o = r7_q;
endmodule

`default_nettype wire
