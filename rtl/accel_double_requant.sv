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
// and act_max travel with their lanes. One step of arithmetic a stage:
//   0      the decoded inputs (|acc|, m, k)
//   1      the 32x53 product A as six 16x18 partial products (six 18x18 DSPs on an ECP5):
//          |acc| = ah * 2^16 + al, m = m2 * 2^36 + m1 * 2^18 + m0
//   2-4    A summed: (x*m0 + x*m1 * 2^18) for x = al, ah; + x*m2 * 2^36; al's + ah's * 2^16
//   5      d, the bits the double drops (a priority encoder over A's top bits)
//   6      A plus the rounding constants
//   7, 8   the shift to |R|, by k's multiple of 8 and then by the rest
//   9      the signed int32 R
//   10     zero point added (wrapping)
//   11     clamp
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
    localparam int LATENCY = 12;        // enabled cycles from valid_i to valid_o
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

    // {act_max, act_min, zy} of stage s in bits [24*s +: 24], s = 0..LATENCY-2; the
    // last two stages use them.
    localparam int LAST = 24 * (LATENCY - 2);
    logic [24*(LATENCY-1)-1:0] shared_q;
    always_ff @(posedge clk_i) begin
        if (ld[0]) shared_q[23:0] <= {act_max_i, act_min_i, zy_i};
        for (int s = 1; s <= LATENCY - 2; s++) begin
            if (ld[s]) shared_q[24*s +: 24] <= shared_q[24*(s-1) +: 24];
        end
    end
    logic signed [31:0] zy_w, lo_w, hi_w;  // sign-extended for the last two stages
    assign zy_w = 32'(signed'(shared_q[LAST - 24 +: 8]));
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
        (* mem2reg *) logic [6:0] k_q [7];  // k, stages 0-6
        logic         [8:0] sat_q, neg_q;   // R saturates / acc < 0, stages 0-8
        (* mem2reg *) logic [33:0] pp1_q [2][3];  // stage 1: [x][i] = (x ? ah : al) * m_i
        (* mem2reg *) logic [51:0] lo2_q [2];  // stage 2: x*m0 + x*m1 * 2^18
        (* mem2reg *) logic [33:0] hi2_q [2];  //          x*m2
        (* mem2reg *) logic [69:0] x3_q [2];   // stage 3: x * m
        logic      [PW-1:0] a4_q;           // stage 4: A
        logic      [PW-1:0] a5_q;           // stage 5: A, and
        logic         [4:0] d5_q;           //          the bits the double drops
        logic        [PW:0] a6_q;           // stage 6: A + 2^(k-1) + 2^(d-1)
        logic         [1:0] ovf_q;          //          A >= 2^(k+31), stages 6-7
        logic        [38:0] c7_q;           // stage 7: (A + ...) >> (k & ~7), 39 bits
        logic         [2:0] kf7_q;          //          k & 7
        logic        [31:0] mag8_q;         // stage 8: |R| (2^31 and above saturate)
        logic signed [31:0] r9_q;           // stage 9: R
        logic signed [31:0] y10_q;          // stage 10: zy + R
        logic         [7:0] q11_q;          // stage 11: clamped int8

        assign acc    = acc_i[32*j +: 32];
        assign e_in   = scale_i[64*j + 52 +: 11];
        assign normal = e_in > 11'(E_ZERO_MAX) && e_in < 11'(E_SAT_MIN);
        assign huge   = e_in >= 11'(E_SAT_MIN);

        logic unused_sign;  // scales are magnitudes
        assign unused_sign = scale_i[64*j + 63];

        always_ff @(posedge clk_i) begin
            if (ld[0]) begin
                mag0_q   <= acc[31] ? 32'd0 - acc : acc;
                m0_q     <= normal ? {1'b1, scale_i[64*j +: 52]} : '0;
                k_q[0]   <= normal ? 7'(11'(E_UNIT) - e_in) : 7'(PW);  // any in-range k
                sat_q[0] <= huge && acc != '0;
                neg_q[0] <= acc[31];
            end
            if (ld[1]) begin
                for (int x = 0; x < 2; x++) begin
                    pp1_q[x][0] <= 34'(mag0_q[16*x +: 16]) * 34'(m0_q[17:0]);
                    pp1_q[x][1] <= 34'(mag0_q[16*x +: 16]) * 34'(m0_q[35:18]);
                    pp1_q[x][2] <= 34'(mag0_q[16*x +: 16]) * 34'(m0_q[52:36]);
                end
            end
            if (ld[2]) begin
                for (int x = 0; x < 2; x++) begin
                    lo2_q[x] <= 52'(pp1_q[x][0]) + {pp1_q[x][1], 18'd0};
                    hi2_q[x] <= pp1_q[x][2];
                end
            end
            if (ld[3]) begin
                for (int x = 0; x < 2; x++) x3_q[x] <= 70'(lo2_q[x]) + {hi2_q[x], 36'd0};
            end
            if (ld[4]) a4_q <= PW'(x3_q[0]) + PW'({x3_q[1], 16'd0});
            if (ld[5]) begin
                a5_q <= a4_q;
                d5_q <= dropped(a4_q);
            end
            if (ld[6]) begin
                a6_q     <= (PW+1)'(a5_q) + (PW+1)'(rounding(k_q[5], d5_q));
                // bitlength(A) = d + 53 exceeds k + 31 (d = 0: A < 2^53 <= 2^(k+31)).
                ovf_q[0] <= 7'(d5_q) + 7'd22 > k_q[5];
            end
            // Without overflow A + the constants < 2^(k+31) + 2^k: |R| fits 32 bits, and
            // the coarse shift keeps those bits and the 7 the fine shift may take.
            if (ld[7]) begin
                c7_q     <= 39'(a6_q >> {k_q[6][6:3], 3'd0});
                kf7_q    <= k_q[6][2:0];
                ovf_q[1] <= ovf_q[0];
            end
            if (ld[8]) mag8_q <= ovf_q[1] ? 32'h8000_0000 : 32'(c7_q >> kf7_q);
            if (ld[9]) begin
                if (sat_q[8] || mag8_q[31]) r9_q <= 32'sh8000_0000;
                else r9_q <= neg_q[8] ? -signed'(mag8_q) : signed'(mag8_q);
            end
            if (ld[10]) y10_q <= r9_q + zy_w;  // wraps, as TFLite's int32 addition
            if (ld[11]) q11_q <= clamp(y10_q, lo_w, hi_w);
            for (int s = 1; s <= 6; s++) if (ld[s]) k_q[s] <= k_q[s-1];
            for (int s = 1; s <= 8; s++) begin
                if (ld[s]) begin
                    sat_q[s] <= sat_q[s-1];
                    neg_q[s] <= neg_q[s-1];
                end
            end
        end

        // The decode's promises to the stages after it: a non-zero product comes only
        // from the normal range (k in [22, 84], no saturation flag), so 2^(k-1) and the
        // shift by k stay inside A.
        logic [6:0] k4;  // (Verilator 5.006 takes no array element in a property)
        assign k4 = k_q[4];
        `ACCEL_ASSERT(a_product_in_range,
                      valid_q[4] && a4_q != '0 |-> k4 >= 7'd22 && k4 <= 7'(PW) && !sat_q[4],
                      clk_i, rst_i)

        assign q_o[8*j +: 8] = q11_q;
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
