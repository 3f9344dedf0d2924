// The static checks fetch applies to an instruction before dispatching it (docs/isa.md,
// "Errors"), exactly as sw/hw/isa.cpp (decode) and sw/hw/isa_check.cpp (check) do:
//
//   illegal_o      unknown opcode; a bit set outside the opcode's fields (FINISH: any bit
//                  but the opcode); a token flag the unit does not have; LOAD buffer 3;
//                  padding or a pad value on a non-INP LOAD; LOAD packing that is not
//                  INP, has no bytes, overflows BLOCK_IN or a padded row; a zero extent; DRAIN
//                  act_min > act_max (int8); a DRAM address or stride not a multiple of
//                  BEAT_BYTES.
//   range_error_o  a legal instruction whose largest SRAM address, base + sum of
//                  (extent-1)*stride over its loop nest, is not below the buffer's depth.
//                  Never set together with illegal_o (illegal wins).
//
// A pipeline off fetch's dispatch path: an instruction taken with valid_i has its verdict
// on valid_o/illegal_o/range_error_o LATENCY cycles later, one instruction per cycle;
// flush_i drops every instruction in flight. Each stage is one step of the arithmetic, so
// that no path carries a product into a sum into a comparison:
//   1  the instruction registered as it comes (fetch selects it from its slots: the
//      selection and the decode are one stage each)
//   2  decoded: the checks that need no arithmetic (illegal_o's, but LOAD packing's
//      product), and the operands of the reach products (extent-1)*stride, on one bank
//      of 17x17 multipliers that the three opcodes share (they never need them at once)
//   3  each product as four sums of shifted partial products (quarters of the
//      multiplier's bits)
//   4  the products' quarters summed
//   5  LOAD: entries = (z*rows)*cols, the one product of a product, in quarters;
//      GEMM/DRAIN: the terms of each buffer's largest address summed in pairs
//   6, 7  the pairs summed again, down to one largest address per buffer (LOAD: two)
//   8  the largest addresses against the depths, and the verdict
// The multipliers are built of logic, not DSPs: the check runs once per instruction,
// and the FPGA's DSPs are the MAC array's (docs/fpga.md).
// Sums are 36 bits: at most 6 terms of < 2^32 (16x16-bit products) and a 16-bit base
// lie below 2^35, so no sum wraps and the verdict equals the software's uint64
// arithmetic.
`default_nettype none

module accel_insn_check #(
    parameter int BEAT_BYTES = 8,     // AXI beat bytes: DRAM addresses/strides must be multiples
    parameter int BLOCK_IN   = 16,    // input channels per INP entry: LOAD packing's limit
    parameter int INP_DEPTH  = 2048,  // input buffer entries (1..65536)
    parameter int WGT_DEPTH  = 1024,  // weight buffer entries (1..65536)
    parameter int ACC_DEPTH  = 2048,  // accumulator entries (1..65536)
    parameter int PRM_DEPTH  = 64,    // parameter table entries (1..65536)
    parameter int TAG_W      = 1      // bits carried alongside each instruction
) (
    input  wire logic                                clk_i,
    input  wire logic                                rst_i,
    input  wire logic                                flush_i,   // drop what is in flight
    input  wire logic                                valid_i,   // check insn_i
    input  wire logic [accel_isa_pkg::INSN_BITS-1:0] insn_i,
    input  wire logic [TAG_W-1:0]                    tag_i,
    output logic                                     valid_o,   // a verdict, LATENCY
    output logic                                     illegal_o, // cycles after its valid_i
    output logic                                     range_error_o,
    output logic      [TAG_W-1:0]                    tag_o
);
    localparam int LATENCY = 8;  // cycles from valid_i to valid_o (the stages above)
    localparam int AW = 36;      // address sums (above)
    localparam int NP = 12;      // shared multipliers: GEMM's reach products

    if (BEAT_BYTES < 1 || (BEAT_BYTES & (BEAT_BYTES - 1)) != 0) begin : g_bad_beat
        $error("accel_insn_check: BEAT_BYTES must be a power of two");
    end
    if (INP_DEPTH < 1 || INP_DEPTH > 65536 || WGT_DEPTH < 1 || WGT_DEPTH > 65536 ||
        ACC_DEPTH < 1 || ACC_DEPTH > 65536 || PRM_DEPTH < 1 || PRM_DEPTH > 65536) begin : g_bad_depth
        $error("accel_insn_check: every depth must be in 1..65536 (16-bit SRAM addresses)");
    end

    localparam logic [31:0] BEAT_MASK = 32'(BEAT_BYTES) - 32'd1;
    localparam logic [AW-1:0] INP_D = AW'(INP_DEPTH);
    localparam logic [AW-1:0] WGT_D = AW'(WGT_DEPTH);
    localparam logic [AW-1:0] ACC_D = AW'(ACC_DEPTH);
    localparam logic [AW-1:0] PRM_D = AW'(PRM_DEPTH);
    // FINISH uses nothing but the opcode.
    localparam logic [accel_isa_pkg::INSN_BITS-1:0] FINISH_USED_BITS =
        {{(accel_isa_pkg::INSN_BITS - accel_isa_pkg::OPCODE_W){1'b0}},
         {accel_isa_pkg::OPCODE_W{1'b1}}} << accel_isa_pkg::OPCODE_LO;
    // LOAD buffer codes (docs/isa.md).
    localparam logic [1:0] BUF_INP = 2'd0, BUF_WGT = 2'd1, BUF_PRM = 2'd2;

    function automatic logic misaligned(input logic [31:0] v);
        misaligned = (v & BEAT_MASK) != '0;
    endfunction

    // a * b's partial products of b's bits [lo, lo + n), n <= 5, summed in a balanced
    // tree (three levels of adds): a quarter of a multiplier in logic (shifts and adds,
    // which synthesis keeps out of the DSPs).
    // One partial product: a * 2^(lo + j) if b's bit lo + j is set, and j < n (the index
    // stays inside b even for the terms a part does not have).
    function automatic logic [33:0] term(input logic [16:0] a, input logic [16:0] b,
                                         input int lo, input int n, input int j);
        term = (j < n && b[(lo + j) % 17]) ? 34'(a) << (lo + j) : '0;
    endfunction

    function automatic logic [33:0] product_part(input logic [16:0] a, input logic [16:0] b,
                                                 input int lo, input int n);
        product_part = ((term(a, b, lo, n, 0) + term(a, b, lo, n, 1)) +
                        (term(a, b, lo, n, 2) + term(a, b, lo, n, 3))) + term(a, b, lo, n, 4);
    endfunction

    // ------------------------------------------------------------ valid chain
    logic [LATENCY-1:0] valid_q;   // stage s+1 holds an instruction
    logic [LATENCY-1:0] ld;        // stage s+1 loads this cycle
    (* mem2reg *) logic [TAG_W-1:0] tag_q [LATENCY];
    always_ff @(posedge clk_i) begin
        if (rst_i || flush_i) valid_q <= '0;
        else valid_q <= {valid_q[LATENCY-2:0], valid_i};
    end
    assign ld = {valid_q[LATENCY-2:0], valid_i};
    always_ff @(posedge clk_i) begin
        if (ld[0]) tag_q[0] <= tag_i;
        for (int s = 1; s < LATENCY; s++) if (ld[s]) tag_q[s] <= tag_q[s-1];
    end
    assign valid_o = valid_q[LATENCY-1];
    assign tag_o   = tag_q[LATENCY-1];

    // ------------------------------------------------------------ stage 1: the instruction
    logic [accel_isa_pkg::INSN_BITS-1:0] insn;
    always_ff @(posedge clk_i) if (ld[0]) insn <= insn_i;

    // ------------------------------------------------------------ decode (stage 2's inputs)
    // The instruction decoded as each opcode (the generated structs of accel_isa_pkg).
    accel_isa_pkg::load_insn_t  ld_i;
    accel_isa_pkg::gemm_insn_t  g;
    accel_isa_pkg::drain_insn_t d;
    assign ld_i = insn;
    assign g    = insn;
    assign d    = insn;
    // What the checks below do not read: the opcode and the reserved bits (checked on
    // insn against the USED_BITS masks), the flags every unit may use, init, the values.
    logic unused_fields;
    assign unused_fields = ^ld_i ^ ^g ^ ^d;

    logic [accel_isa_pkg::OPCODE_W-1:0] opcode;
    logic is_load, is_gemm, is_drain, is_finish;
    logic [accel_isa_pkg::INSN_BITS-1:0] used_bits;
    assign opcode    = insn[accel_isa_pkg::OPCODE_LO +: accel_isa_pkg::OPCODE_W];
    assign is_load   = (opcode == accel_isa_pkg::OP_LOAD);
    assign is_gemm   = (opcode == accel_isa_pkg::OP_GEMM);
    assign is_drain  = (opcode == accel_isa_pkg::OP_DRAIN);
    assign is_finish = (opcode == accel_isa_pkg::OP_FINISH);
    always_comb begin
        if (is_load) used_bits = accel_isa_pkg::LOAD_USED_BITS;
        else if (is_gemm) used_bits = accel_isa_pkg::GEMM_USED_BITS;
        else if (is_drain) used_bits = accel_isa_pkg::DRAIN_USED_BITS;
        else used_bits = FINISH_USED_BITS;
    end

    // LOAD (isa_check.cpp, check_load): everything but the products.
    logic [16:0] l_rows, l_padded_w, l_cols;  // pads (8 bits) + extent (16 bits) + pads
    logic l_padded, l_packs, load_illegal;
    always_comb begin
        l_padded = ld_i.pad_top != '0 || ld_i.pad_bottom != '0 || ld_i.pad_left != '0 ||
                   ld_i.pad_right != '0 || ld_i.pad_value != '0;
        l_padded_w = 17'(ld_i.pad_left) + 17'(ld_i.x_size) + 17'(ld_i.pad_right);
        l_rows     = 17'(ld_i.pad_top) + 17'(ld_i.y_size) + 17'(ld_i.pad_bottom);
        l_packs    = ld_i.pack_taps != '0;
        // entries written per row (isa::load_row_entries): packing drops pack_taps - 1
        l_cols = l_packs ? l_padded_w + 17'd1 - 17'(ld_i.pack_taps) : l_padded_w;
        // packing's product against BLOCK_IN waits for stage 5
        load_illegal = ld_i.pop_prev || ld_i.push_prev || ld_i.buffer > BUF_PRM ||
                       ld_i.z_size == '0 || ld_i.y_size == '0 || ld_i.x_size == '0 ||
                       (ld_i.buffer != BUF_INP && l_padded) ||
                       misaligned(32'(ld_i.dram_base)) || misaligned(32'(ld_i.dram_z_stride)) ||
                       misaligned(32'(ld_i.dram_y_stride)) || misaligned(32'(ld_i.dram_x_stride)) ||
                       (l_packs ? (ld_i.buffer != BUF_INP || ld_i.pack_bytes == '0 ||
                                   l_padded_w < 17'(ld_i.pack_taps))
                                : ld_i.pack_bytes != '0);
    end

    // GEMM and DRAIN (check_gemm, check_drain): the illegal cases.
    logic gemm_illegal, drain_illegal;
    assign gemm_illegal = g.n_kb == '0 || g.n_oy == '0 || g.n_ox == '0 || g.n_r == '0 ||
                          g.n_s == '0 || g.n_cb == '0;
    assign drain_illegal = d.pop_next || d.push_next || d.n_kb == '0 || d.n_y == '0 ||
                           d.n_x == '0 || $signed(d.act_min) > $signed(d.act_max) ||
                           misaligned(32'(d.dram_base)) || misaligned(32'(d.dram_kb)) ||
                           misaligned(32'(d.dram_y)) || misaligned(32'(d.dram_x)) ||
                           misaligned(32'(d.dram_b)) || (d.add && d.double_scale) ||
                           (d.round_up && d.double_scale);

    // Extents - 1, in the field's own width (a zero extent wraps, but is illegal anyway).
    logic [accel_isa_pkg::GEMM_N_KB_W-1:0]  g_n_kb_m1;
    logic [accel_isa_pkg::GEMM_N_OY_W-1:0]  g_n_oy_m1;
    logic [accel_isa_pkg::GEMM_N_OX_W-1:0]  g_n_ox_m1;
    logic [accel_isa_pkg::GEMM_N_R_W-1:0]   g_n_r_m1;
    logic [accel_isa_pkg::GEMM_N_S_W-1:0]   g_n_s_m1;
    logic [accel_isa_pkg::GEMM_N_CB_W-1:0]  g_n_cb_m1;
    logic [accel_isa_pkg::DRAIN_N_KB_W-1:0] d_n_kb_m1;
    logic [accel_isa_pkg::DRAIN_N_Y_W-1:0]  d_n_y_m1;
    logic [accel_isa_pkg::DRAIN_N_X_W-1:0]  d_n_x_m1;
    assign g_n_kb_m1 = g.n_kb + '1;
    assign g_n_oy_m1 = g.n_oy + '1;
    assign g_n_ox_m1 = g.n_ox + '1;
    assign g_n_r_m1  = g.n_r + '1;
    assign g_n_s_m1  = g.n_s + '1;
    assign g_n_cb_m1 = g.n_cb + '1;
    assign d_n_kb_m1 = d.n_kb + '1;
    assign d_n_y_m1  = d.n_y + '1;
    assign d_n_x_m1  = d.n_x + '1;

    // The shared multipliers' operands, 17 bits each.
    //   GEMM  0-2 ACC (kb, oy, ox), 3-7 INP (oy, ox, r, s, cb), 8-11 WGT (kb, r, s, cb)
    //   DRAIN 0-2 ACC (kb, y, x)
    //   LOAD  0 z * rows, 1 pack_taps * pack_bytes
    (* mem2reg *) logic [16:0] mul_a [NP];
    (* mem2reg *) logic [16:0] mul_b [NP];
    always_comb begin
        for (int k = 0; k < NP; k++) begin
            mul_a[k] = '0;
            mul_b[k] = '0;
        end
        if (is_load) begin
            mul_a[0] = 17'(ld_i.z_size);     mul_b[0] = l_rows;
            mul_a[1] = 17'(ld_i.pack_taps);  mul_b[1] = 17'(ld_i.pack_bytes);
        end else if (is_drain) begin
            mul_a[0] = 17'(d_n_kb_m1);   mul_b[0] = 17'(d.acc_kb);
            mul_a[1] = 17'(d_n_y_m1);    mul_b[1] = 17'(d.acc_y);
            mul_a[2] = 17'(d_n_x_m1);    mul_b[2] = 17'(d.acc_x);
        end else begin
            mul_a[0]  = 17'(g_n_kb_m1);  mul_b[0]  = 17'(g.acc_kb);
            mul_a[1]  = 17'(g_n_oy_m1);  mul_b[1]  = 17'(g.acc_oy);
            mul_a[2]  = 17'(g_n_ox_m1);  mul_b[2]  = 17'(g.acc_ox);
            mul_a[3]  = 17'(g_n_oy_m1);  mul_b[3]  = 17'(g.inp_oy);
            mul_a[4]  = 17'(g_n_ox_m1);  mul_b[4]  = 17'(g.inp_ox);
            mul_a[5]  = 17'(g_n_r_m1);   mul_b[5]  = 17'(g.inp_r);
            mul_a[6]  = 17'(g_n_s_m1);   mul_b[6]  = 17'(g.inp_s);
            mul_a[7]  = 17'(g_n_cb_m1);  mul_b[7]  = 17'(g.inp_cb);
            mul_a[8]  = 17'(g_n_kb_m1);  mul_b[8]  = 17'(g.wgt_kb);
            mul_a[9]  = 17'(g_n_r_m1);   mul_b[9]  = 17'(g.wgt_r);
            mul_a[10] = 17'(g_n_s_m1);   mul_b[10] = 17'(g.wgt_s);
            mul_a[11] = 17'(g_n_cb_m1);  mul_b[11] = 17'(g.wgt_cb);
        end
    end

    // ------------------------------------------------------------ stage 2: decoded
    typedef enum logic [1:0] {K_OTHER, K_LOAD, K_GEMM, K_DRAIN} kind_e;
    // What stages 2-4 carry beside the products, from the decode.
    typedef struct packed {
        kind_e       kind;
        logic        illegal;     // every illegal case but LOAD packing's product
        logic        l_packs;
        logic [1:0]  l_buffer;
        logic [16:0] l_cols;
        logic [AW-1:0] prm_max;   // GEMM/DRAIN: prm_base + n_kb - 1
    } side_t;
    side_t           s1;
    (* mem2reg *) logic [AW-1:0] s1_base [3]; // GEMM: ACC, INP, WGT bases; DRAIN: ACC base + acc_add;
                                        // LOAD: sram_base in 0
    (* mem2reg *) logic [16:0] s1_mul_a [NP];  // the multipliers' operands
    (* mem2reg *) logic [16:0] s1_mul_b [NP];
    always_ff @(posedge clk_i) begin
        if (ld[1]) begin
            s1.kind <= is_load ? K_LOAD : is_gemm ? K_GEMM : is_drain ? K_DRAIN : K_OTHER;
            s1.illegal <= !(is_load || is_gemm || is_drain || is_finish) ||
                          (insn & ~used_bits) != '0 || (is_load && load_illegal) ||
                          (is_gemm && gemm_illegal) || (is_drain && drain_illegal);
            s1.l_packs  <= l_packs;
            s1.l_buffer <= ld_i.buffer;
            s1.l_cols   <= l_cols;
            if (is_load) begin
                s1_base[0] <= AW'(ld_i.sram_base);
                s1_base[1] <= '0;
                s1_base[2] <= '0;
            end else if (is_drain) begin
                // in add mode the second operands lie acc_add entries past the first
                s1_base[0] <= AW'(d.acc_base) + (d.add ? AW'(d.acc_add) : '0);
                s1_base[1] <= '0;
                s1_base[2] <= '0;
            end else begin
                s1_base[0] <= AW'(g.acc_base);
                s1_base[1] <= AW'(g.inp_base);
                s1_base[2] <= AW'(g.wgt_base);
            end
            // PRM is checked whether or not init is set (docs/isa.md)
            s1.prm_max <= is_drain ? AW'(d.prm_base) + AW'(d_n_kb_m1)
                                   : AW'(g.prm_base) + AW'(g_n_kb_m1);
            for (int k = 0; k < NP; k++) begin
                s1_mul_a[k] <= mul_a[k];
                s1_mul_b[k] <= mul_b[k];
            end
        end
    end

    // ------------------------------------------------------------ stage 3: the quarters
    side_t           s1q;
    (* mem2reg *) logic [AW-1:0] s1q_base [3];
    // The products' quarters: b's bits 0-4, 5-8, 9-12 and 13-16.
    (* mem2reg *) logic [33:0] s1_q0 [NP];
    (* mem2reg *) logic [33:0] s1_q1 [NP];
    (* mem2reg *) logic [33:0] s1_q2 [NP];
    (* mem2reg *) logic [33:0] s1_q3 [NP];
    always_ff @(posedge clk_i) begin
        if (ld[2]) begin
            s1q <= s1;
            for (int r = 0; r < 3; r++) s1q_base[r] <= s1_base[r];
            for (int k = 0; k < NP; k++) begin
                s1_q0[k] <= product_part(s1_mul_a[k], s1_mul_b[k], 0, 5);
                s1_q1[k] <= product_part(s1_mul_a[k], s1_mul_b[k], 5, 4);
                s1_q2[k] <= product_part(s1_mul_a[k], s1_mul_b[k], 9, 4);
                s1_q3[k] <= product_part(s1_mul_a[k], s1_mul_b[k], 13, 4);
            end
        end
    end

    // ------------------------------------------------------------ stage 4: the products
    side_t           s1b;
    (* mem2reg *) logic [AW-1:0] s1b_base [3];
    (* mem2reg *) logic [33:0] s1_p [NP];
    always_ff @(posedge clk_i) begin
        if (ld[3]) begin
            s1b <= s1q;
            for (int r = 0; r < 3; r++) s1b_base[r] <= s1q_base[r];
            for (int k = 0; k < NP; k++) s1_p[k] <= (s1_q0[k] + s1_q1[k]) + (s1_q2[k] + s1_q3[k]);
        end
    end

    // ------------------------------------------------------------ stage 5
    // LOAD: entries = z * rows * cols, the first product saturated to 17 bits: when z *
    // rows alone exceeds 65536, the largest depth, the load is out of range whatever
    // cols (>= 1 when legal) is; its quarters go to t[1..4]. GEMM/DRAIN: terms summed in
    // pairs.
    kind_e         s2_kind;
    logic          s2_illegal, s2_l_huge;
    logic [1:0]    s2_l_buffer;
    logic [AW-1:0] s2_prm_max;
    (* mem2reg *) logic [AW-1:0] s2_t [8];  // ACC 0-1, INP 2-4, WGT 5-7; LOAD: sram_base 0,
                                             // entries 1-2
    always_ff @(posedge clk_i) begin
        if (ld[4]) begin
            s2_kind     <= s1b.kind;
            s2_illegal  <= s1b.illegal ||
                           (s1b.kind == K_LOAD && s1b.l_packs && s1_p[1] > 34'(BLOCK_IN));
            s2_l_huge   <= s1_p[0] > 34'd65536;
            s2_l_buffer <= s1b.l_buffer;
            s2_prm_max  <= s1b.prm_max;
            if (s1b.kind == K_LOAD) begin
                s2_t[0] <= s1b_base[0];
                // entries in quarters, summed by stages 6 and 7 as INP's terms are
                s2_t[1] <= AW'(product_part(s1_p[0][16:0], s1b.l_cols, 0, 5));
                s2_t[2] <= AW'(product_part(s1_p[0][16:0], s1b.l_cols, 5, 4));
                s2_t[3] <= AW'(product_part(s1_p[0][16:0], s1b.l_cols, 9, 4));
                s2_t[4] <= AW'(product_part(s1_p[0][16:0], s1b.l_cols, 13, 4));
                for (int k = 5; k < 8; k++) s2_t[k] <= '0;
            end else begin
                s2_t[0] <= s1b_base[0] + AW'(s1_p[0]);
                s2_t[1] <= AW'(s1_p[1]) + AW'(s1_p[2]);
                s2_t[2] <= s1b_base[1] + AW'(s1_p[3]);
                s2_t[3] <= AW'(s1_p[4]) + AW'(s1_p[5]);
                s2_t[4] <= AW'(s1_p[6]) + AW'(s1_p[7]);
                s2_t[5] <= s1b_base[2] + AW'(s1_p[8]);
                s2_t[6] <= AW'(s1_p[9]) + AW'(s1_p[10]);
                s2_t[7] <= AW'(s1_p[11]);
            end
        end
    end

    // ------------------------------------------------------------ stage 6
    kind_e         s3_kind;
    logic          s3_illegal, s3_l_huge;
    logic [1:0]    s3_l_buffer;
    logic [AW-1:0] s3_prm_max;
    (* mem2reg *) logic [AW-1:0] s3_t [5];  // ACC 0, INP 1-2, WGT 3-4
    always_ff @(posedge clk_i) begin
        if (ld[5]) begin
            s3_kind     <= s2_kind;
            s3_illegal  <= s2_illegal;
            s3_l_huge   <= s2_l_huge;
            s3_l_buffer <= s2_l_buffer;
            s3_prm_max  <= s2_prm_max;
            s3_t[0] <= s2_t[0] + s2_t[1];
            s3_t[1] <= s2_t[2] + s2_t[3];
            s3_t[2] <= s2_t[4];
            s3_t[3] <= s2_t[5] + s2_t[6];
            s3_t[4] <= s2_t[7];
        end
    end

    // ------------------------------------------------------------ stage 7
    kind_e         s4_kind;
    logic          s4_illegal, s4_l_huge;
    logic [1:0]    s4_l_buffer;
    logic [AW-1:0] s4_prm_max, s4_acc_max, s4_inp_max, s4_wgt_max;
    always_ff @(posedge clk_i) begin
        if (ld[6]) begin
            s4_kind     <= s3_kind;
            s4_illegal  <= s3_illegal;
            s4_l_huge   <= s3_l_huge;
            s4_l_buffer <= s3_l_buffer;
            s4_prm_max  <= s3_prm_max;
            // LOAD: sram_base + entries, one past its largest address, is the sum of
            // these two
            s4_acc_max  <= s3_t[0];
            s4_inp_max  <= s3_t[1] + s3_t[2];
            s4_wgt_max  <= s3_t[3] + s3_t[4];
        end
    end

    // ------------------------------------------------------------ stage 8: the verdict
    logic [AW-1:0] l_depth;
    logic          range_error;
    always_comb begin
        if (s4_l_buffer == BUF_INP) l_depth = INP_D;
        else if (s4_l_buffer == BUF_WGT) l_depth = WGT_D;
        else l_depth = PRM_D;
        unique case (s4_kind)
            K_LOAD:  range_error = s4_l_huge || s4_acc_max + s4_inp_max > l_depth;
            K_GEMM:  range_error = s4_acc_max >= ACC_D || s4_inp_max >= INP_D ||
                                   s4_wgt_max >= WGT_D || s4_prm_max >= PRM_D;
            K_DRAIN: range_error = s4_acc_max >= ACC_D || s4_prm_max >= PRM_D;
            default: range_error = 1'b0;
        endcase
    end
    always_ff @(posedge clk_i) begin
        if (ld[7]) begin
            illegal_o     <= s4_illegal;
            range_error_o <= !s4_illegal && range_error;
        end
    end
endmodule

`default_nettype wire
