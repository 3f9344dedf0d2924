// Per-lane int8 requantization of int32 accumulators by a double scale, bit-exact with
// TFLite's reference FULLY_CONNECTED (sw/ops/double_rounding.hpp):
//   q = clamp(zy + R, act_min, act_max),  R = truncate_to_int32(round((double)acc * s))
// with the sum zy + R wrapping in 32 bits, as TFLite's int32 addition does (R is
// INT32_MIN when the product leaves int32). Equal to accel::round_product_like_double
// for every acc and every 64-bit scale word.
//
// Scale word, 64 bits per lane: the scale's IEEE-754 binary64 encoding, so a PRM
// entry's two int32 words per channel carry it unchanged (bits [31:0] in the multiplier
// word, [63:32] in the shift word). The sign bit is ignored; E = bits [62:52] and the
// fraction [51:0] mean (accel::decode_scale_word):
//   E <= 990   s < 2^-32 (zero and subnormals included): |acc * s| < 1/2, R = 0;
//   E >= 1054  s >= 2^31 (infinity and NaN encodings included): R = INT32_MIN, or 0
//              for acc = 0;
//   otherwise  s = m / 2^k, m = 2^52 | fraction, k = 1075 - E in [22, 84].
// Then acc * s = A / 2^k with A = |acc| * m < 2^84, exactly. The double product keeps
// A's top 53 bits, rounded to nearest even: it drops d = max(0, bitlength(A) - 53)
// bits (d <= 31); std::round then adds 1/2 (2^(k-1)) and truncates at bit k. Unless R
// saturates (A >= 2^(k+31), i.e. d + 22 > k), d <= k - 22, and the first rounding
// changes the second only by lifting A's fraction to exactly one half: A[k-1] clear,
// A[k-2:d-1] all set (a tie at bit d rounds up there, A[d] being set). Adding half of
// the dropped unit, 2^(d-1), carries into bit k-1 for exactly those fractions, so
//   |R| = (A + 2^(k-1) + (d > 0 ? 2^(d-1) : 0)) >> k
// one addition and one shift. Magnitudes of 2^31 and more are INT32_MIN, as is -2^31.
//
// A plain pipeline, one result per lane per enabled cycle, LATENCY register stages;
// en_i low freezes every stage, valid bits included. A stage loads only when the data
// entering it is valid, so q_o holds the last result while valid_o is low. zy, act_min
// and act_max travel with their lanes. Stages: 0 the decoded inputs (|acc|, m, k), 1 the
// 32x53 product A (6 18x18 DSPs on an ECP5), 2 d and A plus the rounding constants,
// 3 the shift to |R|, 4 the signed int32 R, 5 zero point and clamp.
`include "accel_assert.svh"
`default_nettype none

module accel_double_requant #(
    parameter int LANES = 8  // lanes processed per cycle (>= 1)
) (
    input  wire logic                clk_i,
    input  wire logic                rst_i,
    input  wire logic                en_i,       // advance the pipeline this cycle
    input  wire logic                valid_i,
    input  wire logic [32*LANES-1:0] acc_i,      // lane j: int32 accumulator
    input  wire logic [64*LANES-1:0] scale_i,    // lane j: binary64 scale word (above)
    input  wire logic [7:0]          zy_i,       // int8 output zero point
    input  wire logic [7:0]          act_min_i,  // int8
    input  wire logic [7:0]          act_max_i,  // int8
    output logic                     valid_o,
    output logic     [8*LANES-1:0]   q_o         // lane j: int8 result
);
    localparam int LATENCY = 6;         // enabled cycles from valid_i to valid_o
    localparam int PW = 84;             // product bits: |acc| <= 2^31, m < 2^53
    localparam int E_ZERO_MAX = 990;    // biased exponents up to here give R = 0
    localparam int E_SAT_MIN = 1054;    // from here on every acc != 0 saturates
    localparam int E_UNIT = 1075;       // s = m * 2^(E - E_UNIT)

    if (LANES < 1) begin : g_bad_lanes
        $error("accel_double_requant: LANES must be at least 1");
    end

    // valid_q[s]: stage s holds valid data; ld[s]: stage s loads this cycle.
    logic [LATENCY-1:0] valid_q, ld;
    assign ld = en_i ? {valid_q[LATENCY-2:0], valid_i} : '0;
    always_ff @(posedge clk_i) begin
        if (rst_i) valid_q <= '0;
        else if (en_i) valid_q <= ld;
    end
    assign valid_o = valid_q[LATENCY-1];

    // {act_max, act_min, zy} of stage s in bits [24*s +: 24], s = 0..LATENCY-2 (Yosys
    // 0.23 reads no packed arrays of vectors); the last stage uses them.
    localparam int LAST = 24 * (LATENCY - 2);
    logic [24*(LATENCY-1)-1:0] shared_q;
    always_ff @(posedge clk_i) begin
        if (ld[0]) shared_q[23:0] <= {act_max_i, act_min_i, zy_i};
        for (int s = 1; s <= LATENCY - 2; s++) begin
            if (ld[s]) shared_q[24*s +: 24] <= shared_q[24*(s-1) +: 24];
        end
    end
    logic signed [31:0] zy_w, lo_w, hi_w;  // sign-extended for the last stage
    assign zy_w = 32'(signed'(shared_q[LAST +: 8]));
    assign lo_w = 32'(signed'(shared_q[LAST + 8 +: 8]));
    assign hi_w = 32'(signed'(shared_q[LAST + 16 +: 8]));

    // bitlength(A) - 53 when positive, else 0: A's bits the double product drops.
    function automatic logic [4:0] dropped(input logic [PW-1:0] a);
        dropped = '0;
        for (int i = 0; i < PW - 53; i++) begin
            if (a[53 + i]) dropped = 5'(i + 1);
        end
    endfunction

    for (genvar j = 0; j < LANES; j++) begin : g_lane
        logic        [31:0] acc;
        logic        [10:0] e_in;           // the scale word's biased exponent
        logic               normal, huge;   // E in (990, 1054); E >= 1054
        logic        [31:0] mag0_q;         // stage 0: |acc| (2^31 for INT32_MIN)
        logic        [52:0] m0_q;           //          m, 0 outside the normal range
        logic         [6:0] k0_q, k1_q;     //          k, stages 0-1
        logic         [3:0] sat_q, neg_q;   // R saturates / acc < 0, stages 0-3
        logic      [PW-1:0] a1_q;           // stage 1: A
        logic         [4:0] d1;             //          the bits the double drops
        logic        [PW:0] a2_q;           // stage 2: A + 2^(k-1) + 2^(d-1)
        logic               ovf2_q;         //          A >= 2^(k+31)
        logic         [6:0] k2_q;
        logic        [31:0] mag3_q;         // stage 3: |R| (2^31 and above saturate)
        logic signed [31:0] r4_q;           // stage 4: R
        logic         [7:0] q5_q;           // stage 5: clamped int8

        assign acc    = acc_i[32*j +: 32];
        assign d1     = dropped(a1_q);
        assign e_in   = scale_i[64*j + 52 +: 11];
        assign normal = e_in > 11'(E_ZERO_MAX) && e_in < 11'(E_SAT_MIN);
        assign huge   = e_in >= 11'(E_SAT_MIN);

        logic unused_sign;  // scales are magnitudes
        assign unused_sign = scale_i[64*j + 63];

        always_ff @(posedge clk_i) begin
            if (ld[0]) begin
                mag0_q   <= acc[31] ? 32'd0 - acc : acc;
                m0_q     <= normal ? {1'b1, scale_i[64*j +: 52]} : '0;
                k0_q     <= normal ? 7'(11'(E_UNIT) - e_in) : 7'(PW);  // any in-range k
                sat_q[0] <= huge && acc != '0;
                neg_q[0] <= acc[31];
            end
            if (ld[1]) begin
                a1_q     <= PW'(mag0_q) * PW'(m0_q);
                k1_q     <= k0_q;
            end
            if (ld[2]) begin
                a2_q     <= (PW+1)'(a1_q) + (PW+1)'(rounding(k1_q, d1));
                // bitlength(A) = d + 53 exceeds k + 31 (d = 0: A < 2^53 <= 2^(k+31)).
                ovf2_q   <= 7'(d1) + 7'd22 > k1_q;
                k2_q     <= k1_q;
            end
            // Without overflow A + the constants < 2^(k+31) + 2^k: |R| fits 32 bits.
            if (ld[3]) mag3_q <= ovf2_q ? 32'h8000_0000 : 32'(a2_q >> k2_q);
            if (ld[4]) begin
                if (sat_q[3] || mag3_q[31]) r4_q <= 32'sh8000_0000;
                else r4_q <= neg_q[3] ? -signed'(mag3_q) : signed'(mag3_q);
            end
            if (ld[5]) q5_q <= clamp(r4_q + zy_w, lo_w, hi_w);
            for (int s = 1; s <= 3; s++) begin
                if (ld[s]) begin
                    sat_q[s] <= sat_q[s-1];
                    neg_q[s] <= neg_q[s-1];
                end
            end
        end

        // The decode's promises to the stages after it: a non-zero product comes only
        // from the normal range (k in [22, 84], no saturation flag), so 2^(k-1) and the
        // shift by k stay inside A.
        `ACCEL_ASSERT(a_product_in_range,
                      valid_q[1] && a1_q != '0 |-> k1_q >= 7'd22 && k1_q <= 7'(PW) && !sat_q[1],
                      clk_i, rst_i)

        assign q_o[8*j +: 8] = q5_q;
    end

    // 2^(k-1) (std::round's half) plus, when the double drops d > 0 bits, 2^(d-1) (half
    // its unit). The two bits are distinct unless R saturates anyway (d >= k).
    function automatic logic [PW-1:0] rounding(input logic [6:0] k, input logic [4:0] d);
        rounding = (PW'(1) << (k - 7'd1)) | (d != '0 ? PW'(1) << (d - 5'd1) : '0);
    endfunction

    function automatic logic [7:0] clamp(input logic signed [31:0] v,
                                         input logic signed [31:0] lo,
                                         input logic signed [31:0] hi);
        clamp = v < lo ? lo[7:0] : v > hi ? hi[7:0] : v[7:0];
    endfunction
endmodule

`default_nettype wire
