// The static checks fetch applies to an instruction before dispatching it (docs/isa.md,
// "Errors"), exactly as sw/hw/isa.cpp (decode) and sw/hw/isa_check.cpp (check) do:
//
//   illegal_o      unknown opcode; a bit set outside the opcode's fields (FINISH: any bit
//                  but the opcode); a token flag the unit does not have; LOAD buffer 3;
//                  padding or a pad value on a non-INP LOAD; a zero extent; DRAIN
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

module insn_check #(
    parameter int BEAT_BYTES = 8,     // AXI beat bytes: DRAM addresses/strides must be multiples
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
        $error("insn_check: BEAT_BYTES must be a power of two");
    end
    if (INP_DEPTH < 1 || INP_DEPTH > 65536 || WGT_DEPTH < 1 || WGT_DEPTH > 65536 ||
        ACC_DEPTH < 1 || ACC_DEPTH > 65536 || PRM_DEPTH < 1 || PRM_DEPTH > 65536) begin : g_bad_depth
        $error("insn_check: every depth must be in 1..65536 (16-bit SRAM addresses)");
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

    // LOAD (isa_check.cpp, check_load): {illegal, out of range}.
    function automatic logic [1:0] load_check(input logic [accel_isa_pkg::INSN_BITS-1:0] insn);
        logic [63:0] l_buffer, l_sram_base, l_dram_base, l_z, l_y, l_x, l_dz, l_dy;
        logic [63:0] l_pt, l_pb, l_pl, l_pr, l_pv;
        logic load_illegal, load_range;
        logic [16:0] l_rows, l_cols;  // pads (8 bits) + extent (16 bits) + pads
        logic [63:0] l_depth;
        logic [32:0] l_zr;       // z * rows: 16 x 17 bits
        logic [33:0] l_entries;  // (z * rows, saturated to 17 bits) * cols: 17 x 17 bits
        logic l_huge;

        l_buffer    = 64'(insn[accel_isa_pkg::LOAD_BUFFER_LO +: accel_isa_pkg::LOAD_BUFFER_W]);
        l_sram_base = 64'(insn[accel_isa_pkg::LOAD_SRAM_BASE_LO +: accel_isa_pkg::LOAD_SRAM_BASE_W]);
        l_dram_base = 64'(insn[accel_isa_pkg::LOAD_DRAM_BASE_LO +: accel_isa_pkg::LOAD_DRAM_BASE_W]);
        l_z         = 64'(insn[accel_isa_pkg::LOAD_Z_SIZE_LO +: accel_isa_pkg::LOAD_Z_SIZE_W]);
        l_y         = 64'(insn[accel_isa_pkg::LOAD_Y_SIZE_LO +: accel_isa_pkg::LOAD_Y_SIZE_W]);
        l_x         = 64'(insn[accel_isa_pkg::LOAD_X_SIZE_LO +: accel_isa_pkg::LOAD_X_SIZE_W]);
        l_dz        = 64'(insn[accel_isa_pkg::LOAD_DRAM_Z_STRIDE_LO +: accel_isa_pkg::LOAD_DRAM_Z_STRIDE_W]);
        l_dy        = 64'(insn[accel_isa_pkg::LOAD_DRAM_Y_STRIDE_LO +: accel_isa_pkg::LOAD_DRAM_Y_STRIDE_W]);
        l_pt        = 64'(insn[accel_isa_pkg::LOAD_PAD_TOP_LO +: accel_isa_pkg::LOAD_PAD_TOP_W]);
        l_pb        = 64'(insn[accel_isa_pkg::LOAD_PAD_BOTTOM_LO +: accel_isa_pkg::LOAD_PAD_BOTTOM_W]);
        l_pl        = 64'(insn[accel_isa_pkg::LOAD_PAD_LEFT_LO +: accel_isa_pkg::LOAD_PAD_LEFT_W]);
        l_pr        = 64'(insn[accel_isa_pkg::LOAD_PAD_RIGHT_LO +: accel_isa_pkg::LOAD_PAD_RIGHT_W]);
        l_pv        = 64'(insn[accel_isa_pkg::LOAD_PAD_VALUE_LO +: accel_isa_pkg::LOAD_PAD_VALUE_W]);

        load_illegal = insn[accel_isa_pkg::LOAD_POP_PREV_LO] || insn[accel_isa_pkg::LOAD_PUSH_PREV_LO] ||
                       l_buffer > BUF_PRM || l_z == '0 || l_y == '0 || l_x == '0 ||
                       (l_buffer != BUF_INP &&
                        (l_pt != '0 || l_pb != '0 || l_pl != '0 || l_pr != '0 || l_pv != '0)) ||
                       misaligned(l_dram_base) || misaligned(l_dz) || misaligned(l_dy);
        l_rows    = 17'(l_pt) + 17'(l_y) + 17'(l_pb);
        l_cols    = 17'(l_pl) + 17'(l_x) + 17'(l_pr);
        // entries = z * rows * cols, in two products that each fit one 18x18 multiplier
        // (two chained wide products were the FPGA's longest path): when z * rows alone
        // exceeds 65536, the largest depth, the load is out of range whatever cols (>= 1
        // when legal) is, so the first product is saturated to 17 bits.
        l_zr      = 33'(l_z) * 33'(l_rows);
        l_huge    = l_zr > 33'd65536;
        l_entries = 34'(l_zr[16:0]) * 34'(l_cols);
        if (l_buffer == BUF_INP) l_depth = INP_D;
        else if (l_buffer == BUF_WGT) l_depth = WGT_D;
        else l_depth = PRM_D;
        // largest address sram_base + entries - 1 < depth
        load_range = l_huge || (l_sram_base + 64'(l_entries)) > l_depth;
        load_check = {load_illegal, load_range};
    endfunction

    // GEMM (isa_check.cpp, check_gemm): {illegal, out of range}.
    function automatic logic [1:0] gemm_check(input logic [accel_isa_pkg::INSN_BITS-1:0] insn);
        logic [63:0] g_acc_base, g_inp_base, g_wgt_base, g_prm_base;
        logic [63:0] g_acc_kb, g_acc_oy, g_acc_ox, g_inp_oy, g_inp_ox, g_inp_r, g_inp_s, g_inp_cb;
        logic [63:0] g_wgt_kb, g_wgt_r, g_wgt_s, g_wgt_cb;
        logic [accel_isa_pkg::GEMM_N_KB_W-1:0] g_n_kb_m1;
        logic [accel_isa_pkg::GEMM_N_OY_W-1:0] g_n_oy_m1;
        logic [accel_isa_pkg::GEMM_N_OX_W-1:0] g_n_ox_m1;
        logic [accel_isa_pkg::GEMM_N_R_W-1:0]  g_n_r_m1;
        logic [accel_isa_pkg::GEMM_N_S_W-1:0]  g_n_s_m1;
        logic [accel_isa_pkg::GEMM_N_CB_W-1:0] g_n_cb_m1;
        logic gemm_illegal, gemm_range;
        logic [63:0] g_acc_max, g_inp_max, g_wgt_max, g_prm_max;

        g_acc_base = 64'(insn[accel_isa_pkg::GEMM_ACC_BASE_LO +: accel_isa_pkg::GEMM_ACC_BASE_W]);
        g_inp_base = 64'(insn[accel_isa_pkg::GEMM_INP_BASE_LO +: accel_isa_pkg::GEMM_INP_BASE_W]);
        g_wgt_base = 64'(insn[accel_isa_pkg::GEMM_WGT_BASE_LO +: accel_isa_pkg::GEMM_WGT_BASE_W]);
        g_prm_base = 64'(insn[accel_isa_pkg::GEMM_PRM_BASE_LO +: accel_isa_pkg::GEMM_PRM_BASE_W]);
        g_acc_kb   = 64'(insn[accel_isa_pkg::GEMM_ACC_KB_LO +: accel_isa_pkg::GEMM_ACC_KB_W]);
        g_acc_oy   = 64'(insn[accel_isa_pkg::GEMM_ACC_OY_LO +: accel_isa_pkg::GEMM_ACC_OY_W]);
        g_acc_ox   = 64'(insn[accel_isa_pkg::GEMM_ACC_OX_LO +: accel_isa_pkg::GEMM_ACC_OX_W]);
        g_inp_oy   = 64'(insn[accel_isa_pkg::GEMM_INP_OY_LO +: accel_isa_pkg::GEMM_INP_OY_W]);
        g_inp_ox   = 64'(insn[accel_isa_pkg::GEMM_INP_OX_LO +: accel_isa_pkg::GEMM_INP_OX_W]);
        g_inp_r    = 64'(insn[accel_isa_pkg::GEMM_INP_R_LO +: accel_isa_pkg::GEMM_INP_R_W]);
        g_inp_s    = 64'(insn[accel_isa_pkg::GEMM_INP_S_LO +: accel_isa_pkg::GEMM_INP_S_W]);
        g_inp_cb   = 64'(insn[accel_isa_pkg::GEMM_INP_CB_LO +: accel_isa_pkg::GEMM_INP_CB_W]);
        g_wgt_kb   = 64'(insn[accel_isa_pkg::GEMM_WGT_KB_LO +: accel_isa_pkg::GEMM_WGT_KB_W]);
        g_wgt_r    = 64'(insn[accel_isa_pkg::GEMM_WGT_R_LO +: accel_isa_pkg::GEMM_WGT_R_W]);
        g_wgt_s    = 64'(insn[accel_isa_pkg::GEMM_WGT_S_LO +: accel_isa_pkg::GEMM_WGT_S_W]);
        g_wgt_cb   = 64'(insn[accel_isa_pkg::GEMM_WGT_CB_LO +: accel_isa_pkg::GEMM_WGT_CB_W]);

        // Extents, and extent - 1 computed in the field's own width (so that synthesis sees
        // a narrow multiplier operand; a zero extent wraps, but is illegal anyway).
        g_n_kb_m1 = insn[accel_isa_pkg::GEMM_N_KB_LO +: accel_isa_pkg::GEMM_N_KB_W] + '1;
        g_n_oy_m1 = insn[accel_isa_pkg::GEMM_N_OY_LO +: accel_isa_pkg::GEMM_N_OY_W] + '1;
        g_n_ox_m1 = insn[accel_isa_pkg::GEMM_N_OX_LO +: accel_isa_pkg::GEMM_N_OX_W] + '1;
        g_n_r_m1  = insn[accel_isa_pkg::GEMM_N_R_LO +: accel_isa_pkg::GEMM_N_R_W] + '1;
        g_n_s_m1  = insn[accel_isa_pkg::GEMM_N_S_LO +: accel_isa_pkg::GEMM_N_S_W] + '1;
        g_n_cb_m1 = insn[accel_isa_pkg::GEMM_N_CB_LO +: accel_isa_pkg::GEMM_N_CB_W] + '1;

        gemm_illegal =
            insn[accel_isa_pkg::GEMM_N_KB_LO +: accel_isa_pkg::GEMM_N_KB_W] == '0 ||
            insn[accel_isa_pkg::GEMM_N_OY_LO +: accel_isa_pkg::GEMM_N_OY_W] == '0 ||
            insn[accel_isa_pkg::GEMM_N_OX_LO +: accel_isa_pkg::GEMM_N_OX_W] == '0 ||
            insn[accel_isa_pkg::GEMM_N_R_LO +: accel_isa_pkg::GEMM_N_R_W] == '0 ||
            insn[accel_isa_pkg::GEMM_N_S_LO +: accel_isa_pkg::GEMM_N_S_W] == '0 ||
            insn[accel_isa_pkg::GEMM_N_CB_LO +: accel_isa_pkg::GEMM_N_CB_W] == '0;
        g_acc_max = g_acc_base + reach(64'(g_n_kb_m1), g_acc_kb) + reach(64'(g_n_oy_m1), g_acc_oy) +
                    reach(64'(g_n_ox_m1), g_acc_ox);
        g_inp_max = g_inp_base + reach(64'(g_n_oy_m1), g_inp_oy) + reach(64'(g_n_ox_m1), g_inp_ox) +
                    reach(64'(g_n_r_m1), g_inp_r) + reach(64'(g_n_s_m1), g_inp_s) +
                    reach(64'(g_n_cb_m1), g_inp_cb);
        g_wgt_max = g_wgt_base + reach(64'(g_n_kb_m1), g_wgt_kb) + reach(64'(g_n_r_m1), g_wgt_r) +
                    reach(64'(g_n_s_m1), g_wgt_s) + reach(64'(g_n_cb_m1), g_wgt_cb);
        // PRM is checked whether or not init is set (docs/isa.md)
        g_prm_max = g_prm_base + 64'(g_n_kb_m1);
        gemm_range = g_acc_max >= ACC_D || g_inp_max >= INP_D || g_wgt_max >= WGT_D ||
                     g_prm_max >= PRM_D;
        gemm_check = {gemm_illegal, gemm_range};
    endfunction

    // DRAIN (isa_check.cpp, check_drain): {illegal, out of range}.
    function automatic logic [1:0] drain_check(input logic [accel_isa_pkg::INSN_BITS-1:0] insn);
        logic [63:0] d_acc_base, d_prm_base, d_acc_kb, d_acc_y, d_acc_x;
        logic [63:0] d_dram_base, d_dram_kb, d_dram_y, d_dram_x, d_dram_b;
        logic signed [accel_isa_pkg::DRAIN_ACT_MIN_W-1:0] d_act_min;
        logic signed [accel_isa_pkg::DRAIN_ACT_MAX_W-1:0] d_act_max;
        logic [accel_isa_pkg::DRAIN_N_KB_W-1:0] d_n_kb_m1;
        logic [accel_isa_pkg::DRAIN_N_Y_W-1:0]  d_n_y_m1;
        logic [accel_isa_pkg::DRAIN_N_X_W-1:0]  d_n_x_m1;
        logic drain_illegal, drain_range;
        logic [63:0] d_acc_max, d_prm_max;

        d_acc_base  = 64'(insn[accel_isa_pkg::DRAIN_ACC_BASE_LO +: accel_isa_pkg::DRAIN_ACC_BASE_W]);
        d_prm_base  = 64'(insn[accel_isa_pkg::DRAIN_PRM_BASE_LO +: accel_isa_pkg::DRAIN_PRM_BASE_W]);
        d_acc_kb    = 64'(insn[accel_isa_pkg::DRAIN_ACC_KB_LO +: accel_isa_pkg::DRAIN_ACC_KB_W]);
        d_acc_y     = 64'(insn[accel_isa_pkg::DRAIN_ACC_Y_LO +: accel_isa_pkg::DRAIN_ACC_Y_W]);
        d_acc_x     = 64'(insn[accel_isa_pkg::DRAIN_ACC_X_LO +: accel_isa_pkg::DRAIN_ACC_X_W]);
        d_dram_base = 64'(insn[accel_isa_pkg::DRAIN_DRAM_BASE_LO +: accel_isa_pkg::DRAIN_DRAM_BASE_W]);
        d_dram_kb   = 64'(insn[accel_isa_pkg::DRAIN_DRAM_KB_LO +: accel_isa_pkg::DRAIN_DRAM_KB_W]);
        d_dram_y    = 64'(insn[accel_isa_pkg::DRAIN_DRAM_Y_LO +: accel_isa_pkg::DRAIN_DRAM_Y_W]);
        d_dram_x    = 64'(insn[accel_isa_pkg::DRAIN_DRAM_X_LO +: accel_isa_pkg::DRAIN_DRAM_X_W]);
        d_dram_b    = 64'(insn[accel_isa_pkg::DRAIN_DRAM_B_LO +: accel_isa_pkg::DRAIN_DRAM_B_W]);
        d_act_min   = insn[accel_isa_pkg::DRAIN_ACT_MIN_LO +: accel_isa_pkg::DRAIN_ACT_MIN_W];
        d_act_max   = insn[accel_isa_pkg::DRAIN_ACT_MAX_LO +: accel_isa_pkg::DRAIN_ACT_MAX_W];

        d_n_kb_m1 = insn[accel_isa_pkg::DRAIN_N_KB_LO +: accel_isa_pkg::DRAIN_N_KB_W] + '1;
        d_n_y_m1  = insn[accel_isa_pkg::DRAIN_N_Y_LO +: accel_isa_pkg::DRAIN_N_Y_W] + '1;
        d_n_x_m1  = insn[accel_isa_pkg::DRAIN_N_X_LO +: accel_isa_pkg::DRAIN_N_X_W] + '1;

        drain_illegal =
            insn[accel_isa_pkg::DRAIN_POP_NEXT_LO] || insn[accel_isa_pkg::DRAIN_PUSH_NEXT_LO] ||
            insn[accel_isa_pkg::DRAIN_N_KB_LO +: accel_isa_pkg::DRAIN_N_KB_W] == '0 ||
            insn[accel_isa_pkg::DRAIN_N_Y_LO +: accel_isa_pkg::DRAIN_N_Y_W] == '0 ||
            insn[accel_isa_pkg::DRAIN_N_X_LO +: accel_isa_pkg::DRAIN_N_X_W] == '0 ||
            d_act_min > d_act_max ||
            misaligned(d_dram_base) || misaligned(d_dram_kb) || misaligned(d_dram_y) ||
            misaligned(d_dram_x) || misaligned(d_dram_b);
        d_acc_max = d_acc_base + reach(64'(d_n_kb_m1), d_acc_kb) + reach(64'(d_n_y_m1), d_acc_y) +
                    reach(64'(d_n_x_m1), d_acc_x);
        d_prm_max = d_prm_base + 64'(d_n_kb_m1);
        drain_range = d_acc_max >= ACC_D || d_prm_max >= PRM_D;
        drain_check = {drain_illegal, drain_range};
    endfunction

    // The verdict on one instruction: opcode and reserved bits (isa::decode), then the
    // opcode's own checks.
    function automatic logic [1:0] verdict(input logic [accel_isa_pkg::INSN_BITS-1:0] insn);
        logic [accel_isa_pkg::OPCODE_W-1:0] opcode;
        logic is_load, is_gemm, is_drain, is_finish;
        logic [accel_isa_pkg::INSN_BITS-1:0] used_bits;
        logic bad_opcode, reserved_set;
        logic illegal, range_error;
        logic [1:0] load_v, gemm_v, drain_v;

        opcode    = insn[accel_isa_pkg::OPCODE_LO +: accel_isa_pkg::OPCODE_W];
        is_load   = (opcode == accel_isa_pkg::OP_LOAD);
        is_gemm   = (opcode == accel_isa_pkg::OP_GEMM);
        is_drain  = (opcode == accel_isa_pkg::OP_DRAIN);
        is_finish = (opcode == accel_isa_pkg::OP_FINISH);
        if (is_load) used_bits = accel_isa_pkg::LOAD_USED_BITS;
        else if (is_gemm) used_bits = accel_isa_pkg::GEMM_USED_BITS;
        else if (is_drain) used_bits = accel_isa_pkg::DRAIN_USED_BITS;
        else used_bits = FINISH_USED_BITS;
        bad_opcode   = !(is_load || is_gemm || is_drain || is_finish);
        reserved_set = (insn & ~used_bits) != '0;

        load_v  = load_check(insn);
        gemm_v  = gemm_check(insn);
        drain_v = drain_check(insn);

        illegal = bad_opcode || reserved_set || (is_load && load_v[1]) ||
                  (is_gemm && gemm_v[1]) || (is_drain && drain_v[1]);
        range_error = !illegal &&
                      ((is_load && load_v[0]) || (is_gemm && gemm_v[0]) || (is_drain && drain_v[0]));
        verdict = {illegal, range_error};
    endfunction
    // Evaluated only in the cycle fetch asks for it (check_i), so an idle checker
    // costs the simulator nothing; the verdict holds until the next check.
    always_ff @(posedge clk_i) begin
        if (check_i) {illegal_o, range_error_o} <= verdict(insn_i);
    end
endmodule

`default_nettype wire
