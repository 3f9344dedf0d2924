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
// The verdict is registered: it is taken in a cycle with check_i high and holds until
// the next one. All address arithmetic is done in 64 bits, wide enough that no sum or
// product can overflow, so the verdict equals the software's uint64 arithmetic;
// synthesis trims the unused width.
`default_nettype none

module accel_insn_check #(
    parameter int BEAT_BYTES = 8,     // AXI beat bytes: DRAM addresses/strides must be multiples
    parameter int BLOCK_IN   = 16,    // input channels per INP entry: LOAD packing's limit
    parameter int INP_DEPTH  = 2048,  // input buffer entries (1..65536)
    parameter int WGT_DEPTH  = 1024,  // weight buffer entries (1..65536)
    parameter int ACC_DEPTH  = 2048,  // accumulator entries (1..65536)
    parameter int PRM_DEPTH  = 64     // parameter table entries (1..65536)
) (
    input  wire logic                                clk_i,
    input  wire logic                                check_i,        // check insn_i this cycle
    input  wire logic [accel_isa_pkg::INSN_BITS-1:0] insn_i,
    output logic                                     illegal_o,      // the last check's verdict,
    output logic                                     range_error_o   // from the next cycle on
);
    if (BEAT_BYTES < 1 || (BEAT_BYTES & (BEAT_BYTES - 1)) != 0) begin : g_bad_beat
        $error("accel_insn_check: BEAT_BYTES must be a power of two");
    end
    if (INP_DEPTH < 1 || INP_DEPTH > 65536 || WGT_DEPTH < 1 || WGT_DEPTH > 65536 ||
        ACC_DEPTH < 1 || ACC_DEPTH > 65536 || PRM_DEPTH < 1 || PRM_DEPTH > 65536) begin : g_bad_depth
        $error("accel_insn_check: every depth must be in 1..65536 (16-bit SRAM addresses)");
    end

    localparam logic [63:0] BEAT_MASK = 64'(BEAT_BYTES) - 64'd1;
    localparam logic [63:0] INP_D = 64'(INP_DEPTH);
    localparam logic [63:0] WGT_D = 64'(WGT_DEPTH);
    localparam logic [63:0] ACC_D = 64'(ACC_DEPTH);
    localparam logic [63:0] PRM_D = 64'(PRM_DEPTH);
    // FINISH uses nothing but the opcode.
    localparam logic [accel_isa_pkg::INSN_BITS-1:0] FINISH_USED_BITS =
        {{(accel_isa_pkg::INSN_BITS - accel_isa_pkg::OPCODE_W){1'b0}},
         {accel_isa_pkg::OPCODE_W{1'b1}}} << accel_isa_pkg::OPCODE_LO;
    // LOAD buffer codes (docs/isa.md).
    localparam logic [63:0] BUF_INP = 64'd0, BUF_WGT = 64'd1, BUF_PRM = 64'd2;

    // (extent - 1) * stride, the reach of one loop of a nest; the caller passes extent-1.
    function automatic logic [63:0] reach(input logic [63:0] extent_m1, input logic [63:0] stride);
        reach = extent_m1 * stride;
    endfunction

    function automatic logic misaligned(input logic [63:0] v);
        misaligned = (v & BEAT_MASK) != '0;
    endfunction

    // The instruction decoded as each opcode (the generated structs of accel_isa_pkg).
    accel_isa_pkg::load_insn_t  ld;
    accel_isa_pkg::gemm_insn_t  g;
    accel_isa_pkg::drain_insn_t d;
    assign ld = insn_i;
    assign g  = insn_i;
    assign d  = insn_i;
    // What the checks below do not read: the opcode and the reserved bits (checked on
    // insn_i against the USED_BITS masks), the flags every unit may use, init, the values.
    logic unused_fields;
    assign unused_fields = ^ld ^ ^g ^ ^d;

    // LOAD (isa_check.cpp, check_load).
    logic load_illegal, load_range;
    logic [16:0] l_rows, l_cols;  // pads (8 bits) + extent (16 bits) + pads
    logic [63:0] l_depth;
    logic [32:0] l_zr;       // z * rows: 16 x 17 bits
    logic [33:0] l_entries;  // (z * rows, saturated to 17 bits) * cols: 17 x 17 bits
    logic [16:0] l_padded_w;  // entries per padded row
    logic l_huge, l_padded, l_packs, l_pack_bad;
    always_comb begin
        l_padded = ld.pad_top != '0 || ld.pad_bottom != '0 || ld.pad_left != '0 ||
                   ld.pad_right != '0 || ld.pad_value != '0;
        l_padded_w = 17'(ld.pad_left) + 17'(ld.x_size) + 17'(ld.pad_right);
        l_packs    = ld.pack_taps != '0;
        l_pack_bad = l_packs ? (64'(ld.buffer) != BUF_INP || ld.pack_bytes == '0 ||
                                16'(ld.pack_taps) * 16'(ld.pack_bytes) > 16'(BLOCK_IN) ||
                                l_padded_w < 17'(ld.pack_taps))
                             : ld.pack_bytes != '0;
        load_illegal = ld.pop_prev || ld.push_prev || 64'(ld.buffer) > BUF_PRM ||
                       ld.z_size == '0 || ld.y_size == '0 || ld.x_size == '0 ||
                       (64'(ld.buffer) != BUF_INP && l_padded) || misaligned(64'(ld.dram_base)) ||
                       misaligned(64'(ld.dram_z_stride)) || misaligned(64'(ld.dram_y_stride)) ||
                       misaligned(64'(ld.dram_x_stride)) || l_pack_bad;
        l_rows = 17'(ld.pad_top) + 17'(ld.y_size) + 17'(ld.pad_bottom);
        // entries written per row (isa::load_row_entries): packing drops pack_taps - 1
        l_cols = l_packs ? l_padded_w + 17'd1 - 17'(ld.pack_taps) : l_padded_w;
        // entries = z * rows * cols, in two products that each fit one 18x18 multiplier
        // (two chained wide products were the FPGA's longest path): when z * rows alone
        // exceeds 65536, the largest depth, the load is out of range whatever cols (>= 1
        // when legal) is, so the first product is saturated to 17 bits.
        l_zr      = 33'(ld.z_size) * 33'(l_rows);
        l_huge    = l_zr > 33'd65536;
        l_entries = 34'(l_zr[16:0]) * 34'(l_cols);
        if (64'(ld.buffer) == BUF_INP) l_depth = INP_D;
        else if (64'(ld.buffer) == BUF_WGT) l_depth = WGT_D;
        else l_depth = PRM_D;
        // largest address sram_base + entries - 1 < depth
        load_range = l_huge || (64'(ld.sram_base) + 64'(l_entries)) > l_depth;
    end

    // GEMM (isa_check.cpp, check_gemm). Extents - 1 are computed in the field's own width
    // (so that synthesis sees a narrow multiplier operand; a zero extent wraps, but is
    // illegal anyway).
    logic gemm_illegal, gemm_range;
    logic [accel_isa_pkg::GEMM_N_KB_W-1:0] g_n_kb_m1;
    logic [accel_isa_pkg::GEMM_N_OY_W-1:0] g_n_oy_m1;
    logic [accel_isa_pkg::GEMM_N_OX_W-1:0] g_n_ox_m1;
    logic [accel_isa_pkg::GEMM_N_R_W-1:0]  g_n_r_m1;
    logic [accel_isa_pkg::GEMM_N_S_W-1:0]  g_n_s_m1;
    logic [accel_isa_pkg::GEMM_N_CB_W-1:0] g_n_cb_m1;
    logic [63:0] g_acc_max, g_inp_max, g_wgt_max, g_prm_max;
    always_comb begin
        g_n_kb_m1 = g.n_kb + '1;
        g_n_oy_m1 = g.n_oy + '1;
        g_n_ox_m1 = g.n_ox + '1;
        g_n_r_m1  = g.n_r + '1;
        g_n_s_m1  = g.n_s + '1;
        g_n_cb_m1 = g.n_cb + '1;
        gemm_illegal = g.n_kb == '0 || g.n_oy == '0 || g.n_ox == '0 || g.n_r == '0 ||
                       g.n_s == '0 || g.n_cb == '0;
        g_acc_max = 64'(g.acc_base) + reach(64'(g_n_kb_m1), 64'(g.acc_kb)) +
                    reach(64'(g_n_oy_m1), 64'(g.acc_oy)) + reach(64'(g_n_ox_m1), 64'(g.acc_ox));
        g_inp_max = 64'(g.inp_base) + reach(64'(g_n_oy_m1), 64'(g.inp_oy)) +
                    reach(64'(g_n_ox_m1), 64'(g.inp_ox)) + reach(64'(g_n_r_m1), 64'(g.inp_r)) +
                    reach(64'(g_n_s_m1), 64'(g.inp_s)) + reach(64'(g_n_cb_m1), 64'(g.inp_cb));
        g_wgt_max = 64'(g.wgt_base) + reach(64'(g_n_kb_m1), 64'(g.wgt_kb)) +
                    reach(64'(g_n_r_m1), 64'(g.wgt_r)) + reach(64'(g_n_s_m1), 64'(g.wgt_s)) +
                    reach(64'(g_n_cb_m1), 64'(g.wgt_cb));
        // PRM is checked whether or not init is set (docs/isa.md)
        g_prm_max = 64'(g.prm_base) + 64'(g_n_kb_m1);
        gemm_range = g_acc_max >= ACC_D || g_inp_max >= INP_D || g_wgt_max >= WGT_D ||
                     g_prm_max >= PRM_D;
    end

    // DRAIN (isa_check.cpp, check_drain).
    logic drain_illegal, drain_range;
    logic [accel_isa_pkg::DRAIN_N_KB_W-1:0] d_n_kb_m1;
    logic [accel_isa_pkg::DRAIN_N_Y_W-1:0]  d_n_y_m1;
    logic [accel_isa_pkg::DRAIN_N_X_W-1:0]  d_n_x_m1;
    logic [63:0] d_acc_max, d_prm_max;
    always_comb begin
        d_n_kb_m1 = d.n_kb + '1;
        d_n_y_m1  = d.n_y + '1;
        d_n_x_m1  = d.n_x + '1;
        drain_illegal = d.pop_next || d.push_next || d.n_kb == '0 || d.n_y == '0 ||
                        d.n_x == '0 || $signed(d.act_min) > $signed(d.act_max) ||
                        misaligned(64'(d.dram_base)) || misaligned(64'(d.dram_kb)) ||
                        misaligned(64'(d.dram_y)) || misaligned(64'(d.dram_x)) ||
                        misaligned(64'(d.dram_b)) || (d.add && d.double_scale);
        // in add mode the second operands lie acc_add entries past the first
        d_acc_max = 64'(d.acc_base) + (d.add ? 64'(d.acc_add) : 64'd0) +
                    reach(64'(d_n_kb_m1), 64'(d.acc_kb)) +
                    reach(64'(d_n_y_m1), 64'(d.acc_y)) + reach(64'(d_n_x_m1), 64'(d.acc_x));
        d_prm_max = 64'(d.prm_base) + 64'(d_n_kb_m1);
        drain_range = d_acc_max >= ACC_D || d_prm_max >= PRM_D;
    end

    // The verdict on one instruction: opcode and reserved bits (isa::decode), then the
    // opcode's own checks.
    logic [accel_isa_pkg::OPCODE_W-1:0] opcode;
    logic is_load, is_gemm, is_drain, is_finish;
    logic [accel_isa_pkg::INSN_BITS-1:0] used_bits;
    logic bad_opcode, reserved_set, illegal, range_error;
    always_comb begin
        opcode    = insn_i[accel_isa_pkg::OPCODE_LO +: accel_isa_pkg::OPCODE_W];
        is_load   = (opcode == accel_isa_pkg::OP_LOAD);
        is_gemm   = (opcode == accel_isa_pkg::OP_GEMM);
        is_drain  = (opcode == accel_isa_pkg::OP_DRAIN);
        is_finish = (opcode == accel_isa_pkg::OP_FINISH);
        if (is_load) used_bits = accel_isa_pkg::LOAD_USED_BITS;
        else if (is_gemm) used_bits = accel_isa_pkg::GEMM_USED_BITS;
        else if (is_drain) used_bits = accel_isa_pkg::DRAIN_USED_BITS;
        else used_bits = FINISH_USED_BITS;
        bad_opcode   = !(is_load || is_gemm || is_drain || is_finish);
        reserved_set = (insn_i & ~used_bits) != '0;
        illegal = bad_opcode || reserved_set || (is_load && load_illegal) ||
                  (is_gemm && gemm_illegal) || (is_drain && drain_illegal);
        range_error = !illegal && ((is_load && load_range) || (is_gemm && gemm_range) ||
                                   (is_drain && drain_range));
    end

    // The verdict is taken only in the cycle fetch asks for it (check_i) and holds until
    // the next check.
    always_ff @(posedge clk_i) begin
        if (check_i) {illegal_o, range_error_o} <= {illegal, range_error};
    end
endmodule

`default_nettype wire
