// The accelerator: fetch, load, compute and drain units around their SRAMs, the
// dependency-token queues, run control (start, done, error mask) and the performance
// counters, behind an AXI4-Lite control slave and an AXI4 memory master.
// Sizes default to the generated package of the hardware config it is built for.
`include "accel_assert.svh"
`default_nettype none

module accel_top #(
    parameter int BATCH = accel_cfg_pkg::BATCH,              // images per GEMM row
    parameter int BLOCK_IN = accel_cfg_pkg::BLOCK_IN,        // dot-product length
    parameter int BLOCK_OUT = accel_cfg_pkg::BLOCK_OUT,      // dot products per cycle
    parameter int BEAT_BYTES = accel_cfg_pkg::BEAT_BYTES,    // AXI data width in bytes
    parameter int INP_DEPTH = accel_cfg_pkg::INP_DEPTH,      // SRAM entries
    parameter int WGT_DEPTH = accel_cfg_pkg::WGT_DEPTH,
    parameter int ACC_DEPTH = accel_cfg_pkg::ACC_DEPTH,
    parameter int PRM_DEPTH = accel_cfg_pkg::PRM_DEPTH,
    parameter int MAX_OUTSTANDING = accel_cfg_pkg::DRAM_MAX_OUTSTANDING,  // bursts per unit
    parameter int QUEUE_DEPTH = accel_cfg_pkg::UNIT_QUEUE_DEPTH,  // instructions per unit
    parameter int TOKEN_MAX = accel_cfg_pkg::TOKEN_MAX,
    localparam int DW = 8 * BEAT_BYTES,
    localparam int INSN_BITS = accel_isa_pkg::INSN_BITS
) (
    input  wire logic          clk_i,
    input  wire logic          rst_i,
    // AXI4-Lite control/status slave
    input  wire logic [11:0]   s_axil_awaddr,
    input  wire logic          s_axil_awvalid,
    output logic               s_axil_awready,
    input  wire logic [31:0]   s_axil_wdata,
    input  wire logic [3:0]    s_axil_wstrb,
    input  wire logic          s_axil_wvalid,
    output logic               s_axil_wready,
    output logic [1:0]         s_axil_bresp,
    output logic               s_axil_bvalid,
    input  wire logic          s_axil_bready,
    input  wire logic [11:0]   s_axil_araddr,
    input  wire logic          s_axil_arvalid,
    output logic               s_axil_arready,
    output logic [31:0]        s_axil_rdata,
    output logic [1:0]         s_axil_rresp,
    output logic               s_axil_rvalid,
    input  wire logic          s_axil_rready,
    // AXI4 memory master
    output logic [0:0]         m_axi_arid,
    output logic [31:0]        m_axi_araddr,
    output logic [7:0]         m_axi_arlen,
    output logic [2:0]         m_axi_arsize,
    output logic [1:0]         m_axi_arburst,
    output logic               m_axi_arvalid,
    input  wire logic          m_axi_arready,
    input  wire logic [0:0]    m_axi_rid,
    input  wire logic [DW-1:0] m_axi_rdata,
    input  wire logic [1:0]    m_axi_rresp,
    input  wire logic          m_axi_rlast,
    input  wire logic          m_axi_rvalid,
    output logic               m_axi_rready,
    output logic [31:0]        m_axi_awaddr,
    output logic [7:0]         m_axi_awlen,
    output logic [2:0]         m_axi_awsize,
    output logic [1:0]         m_axi_awburst,
    output logic               m_axi_awvalid,
    input  wire logic          m_axi_awready,
    output logic [DW-1:0]      m_axi_wdata,
    output logic [DW/8-1:0]    m_axi_wstrb,
    output logic               m_axi_wlast,
    output logic               m_axi_wvalid,
    input  wire logic          m_axi_wready,
    input  wire logic [1:0]    m_axi_bresp,
    input  wire logic          m_axi_bvalid,
    output logic               m_axi_bready,
    // level: the last run is done
    output logic               irq_o
);
    localparam int INP_W = accel_isa_pkg::inp_entry_w(BATCH, BLOCK_IN);
    localparam int WGT_W = accel_isa_pkg::wgt_entry_w(BLOCK_IN, BLOCK_OUT);
    localparam int ACC_W = accel_isa_pkg::acc_entry_w(BATCH, BLOCK_OUT);
    localparam int BIAS_W = accel_isa_pkg::bias_entry_w(BLOCK_OUT);
    localparam int QUANT_W = accel_isa_pkg::quant_entry_w(BLOCK_OUT);
    localparam int INP_AW = $clog2(INP_DEPTH);
    localparam int WGT_AW = $clog2(WGT_DEPTH);
    localparam int ACC_AW = $clog2(ACC_DEPTH);
    localparam int PRM_AW = $clog2(PRM_DEPTH);
    localparam int NUM_COUNTERS = 14;

    // ---------------------------------------------------------------- run control
    logic start;                 // CSR start pulse
    logic start_q;               // fetch starts the cycle after the units' reset
    logic unit_rst;              // every unit, queue and token starts a run from reset
    logic running_q, done_q;
    logic [accel_isa_pkg::ERR_W-1:0] err_q;
    logic [31:0] insn_addr, insn_count;
    logic quiet_all, quiet_q, clean_finish;
    logic [accel_isa_pkg::ERR_W-1:0] unit_err;

    assign unit_rst = rst_i | start;
    always_ff @(posedge clk_i) start_q <= start & ~rst_i;

    // Done once everything has been quiet for two cycles (a push or dispatch in the
    // first quiet cycle would show up in the second).
    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            running_q <= 1'b0;
            done_q <= 1'b0;
            err_q <= '0;
            quiet_q <= 1'b0;
        end else if (start) begin
            running_q <= 1'b1;
            done_q <= 1'b0;
            err_q <= '0;
            quiet_q <= 1'b0;
        end else if (running_q) begin
            err_q <= err_q | unit_err;
            quiet_q <= quiet_all;
            if (quiet_all && quiet_q) begin
                running_q <= 1'b0;
                done_q <= 1'b1;
                if (!clean_finish && (err_q | unit_err) == '0) err_q <= accel_isa_pkg::ERR_DEADLOCK;
            end
        end
    end
    assign irq_o = done_q;

    // ---------------------------------------------------------------- queues and tokens
    logic [INSN_BITS-1:0] dispatch_insn;
    logic load_push, gemm_push, drain_push;
    logic load_full, gemm_full, drain_full;
    logic load_empty, gemm_empty, drain_empty;
    logic [INSN_BITS-1:0] load_insn, gemm_insn, drain_insn;
    logic load_done, gemm_done, drain_done;

    // A LOAD enters its queue with its segments' head (timing: the load unit's first
    // burst starts from registers).
    localparam int SEG_HEAD_W = $clog2(accel_isa_pkg::AXI_MAX_BURST_BEATS + 2);
    logic                  dispatch_seg_apart, load_seg_apart;
    logic [SEG_HEAD_W-1:0] dispatch_seg_head, load_seg_head;
    accel_load_segment_head #(.BATCH(BATCH), .BLOCK_IN(BLOCK_IN), .BLOCK_OUT(BLOCK_OUT),
                              .BEAT_BYTES(BEAT_BYTES)) u_load_segment_head (
        .insn_i(dispatch_insn), .apart_o(dispatch_seg_apart), .head_o(dispatch_seg_head));
    accel_prim_fifo_sync #(.WIDTH(INSN_BITS + 1 + SEG_HEAD_W), .DEPTH(QUEUE_DEPTH),
                           .PUSH_STAGE(1)) u_load_queue (
        .clk_i, .rst_i(unit_rst), .push_i(load_push),
        .wdata_i({dispatch_seg_apart, dispatch_seg_head, dispatch_insn}),
        .full_o(load_full), .pop_i(load_done),
        .rdata_o({load_seg_apart, load_seg_head, load_insn}), .empty_o(load_empty));
    // A GEMM enters its queue with the flags of its loop extents that are 1 (timing: the
    // compute unit's first step reads them from registers).
    logic [5:0] dispatch_gemm_ones, gemm_ones;
    logic [95:0] dispatch_extents_unused;
    accel_gemm_extents u_gemm_extents (.insn_i(dispatch_insn), .extent_o(dispatch_extents_unused),
                                       .one_o(dispatch_gemm_ones));
    accel_prim_fifo_sync #(.WIDTH(INSN_BITS + 6), .DEPTH(QUEUE_DEPTH), .PUSH_STAGE(1)) u_gemm_queue (
        .clk_i, .rst_i(unit_rst), .push_i(gemm_push), .wdata_i({dispatch_gemm_ones, dispatch_insn}),
        .full_o(gemm_full), .pop_i(gemm_done), .rdata_o({gemm_ones, gemm_insn}),
        .empty_o(gemm_empty));
    accel_prim_fifo_sync #(.WIDTH(INSN_BITS), .DEPTH(QUEUE_DEPTH), .PUSH_STAGE(1)) u_drain_queue (
        .clk_i, .rst_i(unit_rst), .push_i(drain_push), .wdata_i(dispatch_insn),
        .full_o(drain_full), .pop_i(drain_done), .rdata_o(drain_insn), .empty_o(drain_empty));

    // ld2cp: load -> compute (data ready); cp2ld: compute -> load (buffer free);
    // cp2dr: compute -> drain (results ready); dr2cp: drain -> compute (acc free).
    logic ld2cp_push, ld2cp_pop, ld2cp_avail, ld2cp_overflow;
    logic cp2ld_push, cp2ld_pop, cp2ld_avail, cp2ld_overflow;
    logic cp2dr_push, cp2dr_pop, cp2dr_avail, cp2dr_overflow;
    logic dr2cp_push, dr2cp_pop, dr2cp_avail, dr2cp_overflow;

    accel_token_queue #(.MAX(TOKEN_MAX)) u_ld2cp (.clk_i, .rst_i(unit_rst), .clear_i(1'b0),
        .push_i(ld2cp_push), .pop_i(ld2cp_pop), .avail_o(ld2cp_avail), .overflow_o(ld2cp_overflow));
    accel_token_queue #(.MAX(TOKEN_MAX)) u_cp2ld (.clk_i, .rst_i(unit_rst), .clear_i(1'b0),
        .push_i(cp2ld_push), .pop_i(cp2ld_pop), .avail_o(cp2ld_avail), .overflow_o(cp2ld_overflow));
    accel_token_queue #(.MAX(TOKEN_MAX)) u_cp2dr (.clk_i, .rst_i(unit_rst), .clear_i(1'b0),
        .push_i(cp2dr_push), .pop_i(cp2dr_pop), .avail_o(cp2dr_avail), .overflow_o(cp2dr_overflow));
    accel_token_queue #(.MAX(TOKEN_MAX)) u_dr2cp (.clk_i, .rst_i(unit_rst), .clear_i(1'b0),
        .push_i(dr2cp_push), .pop_i(dr2cp_pop), .avail_o(dr2cp_avail), .overflow_o(dr2cp_overflow));

    // ---------------------------------------------------------------- AXI read side
    // The R channel enters through a register slice: the beat, its valid and RREADY are
    // registers at the boundary, so that no path runs from the memory's logic into
    // fetch's and load's wide enables, nor from load's ready back out (docs/fpga.md,
    // timing). Reads take one cycle more for it (the cost model's kReadSlice).
    logic [0:0]    r_id;
    logic [DW-1:0] r_data;
    logic [1:0]    r_resp;
    logic          r_last, r_valid, r_ready;
    accel_prim_reg_slice #(.WIDTH(1 + DW + 2 + 1)) u_r_slice (
        .clk_i, .rst_i,
        .s_valid_i(m_axi_rvalid), .s_ready_o(m_axi_rready),
        .s_data_i({m_axi_rid, m_axi_rdata, m_axi_rresp, m_axi_rlast}),
        .m_valid_o(r_valid), .m_ready_i(r_ready), .m_data_o({r_id, r_data, r_resp, r_last}));

    // Fetch and load share the read channel; both see every R beat (r_{data,resp,last})
    // and take those whose r_valid the arbiter raises for them.
    logic fetch_ar_valid, fetch_ar_ready, fetch_r_valid, fetch_r_ready;
    logic [31:0] fetch_ar_addr;
    logic [7:0] fetch_ar_len;
    logic load_ar_valid, load_ar_ready, load_r_valid, load_r_ready;
    logic [31:0] load_ar_addr;
    logic [7:0] load_ar_len;

    accel_axi_read_arbiter u_read_arbiter (
        .clk_i, .rst_i,
        .s_ar_valid_i({load_ar_valid, fetch_ar_valid}),
        .s_ar_ready_o({load_ar_ready, fetch_ar_ready}),
        .s_ar_addr_i({load_ar_addr, fetch_ar_addr}), .s_ar_len_i({load_ar_len, fetch_ar_len}),
        .s_r_valid_o({load_r_valid, fetch_r_valid}), .s_r_ready_i({load_r_ready, fetch_r_ready}),
        .m_arid_o(m_axi_arid), .m_araddr_o(m_axi_araddr), .m_arlen_o(m_axi_arlen),
        .m_arvalid_o(m_axi_arvalid), .m_arready_i(m_axi_arready),
        .m_rid_i(r_id), .m_rvalid_i(r_valid), .m_rready_o(r_ready));
    assign m_axi_arsize = 3'($clog2(BEAT_BYTES));
    assign m_axi_arburst = 2'b01;  // INCR
    assign m_axi_awsize = 3'($clog2(BEAT_BYTES));
    assign m_axi_awburst = 2'b01;
    assign m_axi_wstrb = '1;       // units move whole beats

    // ---------------------------------------------------------------- SRAMs
    logic inp_we, inp_re, wgt_we, wgt_re, bias_we, bias_re, quant_we, quant_re;
    logic acc_we, cp_acc_re, dr_acc_re, acc_re;
    logic [INP_AW-1:0] inp_waddr, inp_raddr;
    logic [WGT_AW-1:0] wgt_waddr, wgt_raddr;
    logic [PRM_AW-1:0] bias_waddr, bias_raddr, quant_waddr, quant_raddr;
    logic [ACC_AW-1:0] acc_waddr, cp_acc_raddr, dr_acc_raddr, acc_raddr;
    logic [INP_W-1:0] inp_wdata, inp_rdata;
    logic [WGT_W-1:0] wgt_wdata, wgt_rdata;
    logic [BIAS_W-1:0] bias_wdata, bias_rdata;
    logic [QUANT_W-1:0] quant_wdata, quant_rdata;
    logic [ACC_W-1:0] acc_wdata, acc_rdata;

    accel_prim_sram_1r1w #(.WIDTH(INP_W), .DEPTH(INP_DEPTH)) u_inp (.clk_i, .we_i(inp_we),
        .waddr_i(inp_waddr), .wdata_i(inp_wdata), .re_i(inp_re), .raddr_i(inp_raddr),
        .rdata_o(inp_rdata));
    accel_prim_sram_1r1w #(.WIDTH(WGT_W), .DEPTH(WGT_DEPTH)) u_wgt (.clk_i, .we_i(wgt_we),
        .waddr_i(wgt_waddr), .wdata_i(wgt_wdata), .re_i(wgt_re), .raddr_i(wgt_raddr),
        .rdata_o(wgt_rdata));
    accel_prim_sram_1r1w #(.WIDTH(BIAS_W), .DEPTH(PRM_DEPTH)) u_bias (.clk_i, .we_i(bias_we),
        .waddr_i(bias_waddr), .wdata_i(bias_wdata), .re_i(bias_re), .raddr_i(bias_raddr),
        .rdata_o(bias_rdata));
    accel_prim_sram_1r1w #(.WIDTH(QUANT_W), .DEPTH(PRM_DEPTH)) u_quant (.clk_i, .we_i(quant_we),
        .waddr_i(quant_waddr), .wdata_i(quant_wdata), .re_i(quant_re), .raddr_i(quant_raddr),
        .rdata_o(quant_rdata));
    accel_prim_sram_1r1w #(.WIDTH(ACC_W), .DEPTH(ACC_DEPTH)) u_acc (.clk_i, .we_i(acc_we),
        .waddr_i(acc_waddr), .wdata_i(acc_wdata), .re_i(acc_re), .raddr_i(acc_raddr),
        .rdata_o(acc_rdata));

    // Compute and drain share the ACC read port; compute always wins.
    assign acc_re = cp_acc_re | dr_acc_re;
    assign acc_raddr = cp_acc_re ? cp_acc_raddr : dr_acc_raddr;

    // ---------------------------------------------------------------- units
    logic [accel_isa_pkg::UNIT_STATE_W-1:0] fetch_state, load_state, gemm_state, drain_state;
    logic fetch_quiet, load_quiet, gemm_quiet, drain_quiet, fetch_finished, gemm_step;
    logic [accel_isa_pkg::ERR_W-1:0] fetch_err, load_err, drain_err;

    accel_fetch_unit #(.BEAT_BYTES(BEAT_BYTES), .BLOCK_IN(BLOCK_IN), .INP_DEPTH(INP_DEPTH),
                 .WGT_DEPTH(WGT_DEPTH), .ACC_DEPTH(ACC_DEPTH), .PRM_DEPTH(PRM_DEPTH)) u_fetch (
        .clk_i, .rst_i(unit_rst), .start_i(start_q), .insn_addr_i(insn_addr),
        .insn_count_i(insn_count),
        .ar_valid_o(fetch_ar_valid), .ar_ready_i(fetch_ar_ready), .ar_addr_o(fetch_ar_addr),
        .ar_len_o(fetch_ar_len), .r_valid_i(fetch_r_valid), .r_ready_o(fetch_r_ready),
        .r_data_i(r_data), .r_resp_i(r_resp), .r_last_i(r_last),
        .insn_o(dispatch_insn), .load_push_o(load_push), .gemm_push_o(gemm_push),
        .drain_push_o(drain_push), .load_full_i(load_full), .gemm_full_i(gemm_full),
        .drain_full_i(drain_full), .finished_o(fetch_finished), .err_o(fetch_err),
        .state_o(fetch_state), .quiet_o(fetch_quiet));

    accel_load_unit #(.BATCH(BATCH), .BLOCK_IN(BLOCK_IN), .BLOCK_OUT(BLOCK_OUT),
                .BEAT_BYTES(BEAT_BYTES), .INP_DEPTH(INP_DEPTH), .WGT_DEPTH(WGT_DEPTH),
                .PRM_DEPTH(PRM_DEPTH), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_load (
        .clk_i, .rst_i(unit_rst), .insn_valid_i(!load_empty), .insn_i(load_insn),
        .seg_apart_i(load_seg_apart), .seg_head_i(load_seg_head),
        .insn_done_o(load_done),
        .next_avail_i(cp2ld_avail), .next_pop_o(cp2ld_pop), .next_push_o(ld2cp_push),
        .ar_valid_o(load_ar_valid), .ar_ready_i(load_ar_ready), .ar_addr_o(load_ar_addr),
        .ar_len_o(load_ar_len), .r_valid_i(load_r_valid), .r_ready_o(load_r_ready),
        .r_data_i(r_data), .r_resp_i(r_resp), .r_last_i(r_last),
        .inp_we_o(inp_we), .inp_waddr_o(inp_waddr), .inp_wdata_o(inp_wdata),
        .wgt_we_o(wgt_we), .wgt_waddr_o(wgt_waddr), .wgt_wdata_o(wgt_wdata),
        .bias_we_o(bias_we), .bias_waddr_o(bias_waddr), .bias_wdata_o(bias_wdata),
        .quant_we_o(quant_we), .quant_waddr_o(quant_waddr), .quant_wdata_o(quant_wdata),
        .err_o(load_err), .state_o(load_state), .quiet_o(load_quiet));

    accel_compute_unit #(.BATCH(BATCH), .BLOCK_IN(BLOCK_IN), .BLOCK_OUT(BLOCK_OUT),
                   .INP_DEPTH(INP_DEPTH), .WGT_DEPTH(WGT_DEPTH), .ACC_DEPTH(ACC_DEPTH),
                   .PRM_DEPTH(PRM_DEPTH)) u_compute (
        .clk_i, .rst_i(unit_rst), .insn_valid_i(!gemm_empty), .insn_i(gemm_insn),
        .extent_one_i(gemm_ones),
        .insn_done_o(gemm_done),
        .prev_avail_i(ld2cp_avail), .prev_pop_o(ld2cp_pop), .prev_push_o(cp2ld_push),
        .next_avail_i(dr2cp_avail), .next_pop_o(dr2cp_pop), .next_push_o(cp2dr_push),
        .inp_re_o(inp_re), .inp_raddr_o(inp_raddr), .inp_rdata_i(inp_rdata),
        .wgt_re_o(wgt_re), .wgt_raddr_o(wgt_raddr), .wgt_rdata_i(wgt_rdata),
        .bias_re_o(bias_re), .bias_raddr_o(bias_raddr), .bias_rdata_i(bias_rdata),
        .acc_re_o(cp_acc_re), .acc_raddr_o(cp_acc_raddr), .acc_rdata_i(acc_rdata),
        .acc_we_o(acc_we), .acc_waddr_o(acc_waddr), .acc_wdata_o(acc_wdata),
        .step_o(gemm_step), .state_o(gemm_state), .quiet_o(gemm_quiet));

    accel_drain_unit #(.BATCH(BATCH), .BLOCK_OUT(BLOCK_OUT), .BEAT_BYTES(BEAT_BYTES),
                 .ACC_DEPTH(ACC_DEPTH), .PRM_DEPTH(PRM_DEPTH),
                 .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_drain (
        .clk_i, .rst_i(unit_rst), .insn_valid_i(!drain_empty), .insn_i(drain_insn),
        .insn_done_o(drain_done),
        .prev_avail_i(cp2dr_avail), .prev_pop_o(cp2dr_pop), .prev_push_o(dr2cp_push),
        .acc_re_o(dr_acc_re), .acc_raddr_o(dr_acc_raddr), .acc_gnt_i(!cp_acc_re),
        .acc_rdata_i(acc_rdata),
        .quant_re_o(quant_re), .quant_raddr_o(quant_raddr), .quant_rdata_i(quant_rdata),
        .aw_valid_o(m_axi_awvalid), .aw_ready_i(m_axi_awready), .aw_addr_o(m_axi_awaddr),
        .aw_len_o(m_axi_awlen), .w_valid_o(m_axi_wvalid), .w_ready_i(m_axi_wready),
        .w_data_o(m_axi_wdata), .w_last_o(m_axi_wlast), .b_valid_i(m_axi_bvalid),
        .b_ready_o(m_axi_bready), .b_resp_i(m_axi_bresp),
        .err_o(drain_err), .state_o(drain_state), .quiet_o(drain_quiet));

    assign quiet_all = fetch_quiet & load_quiet & gemm_quiet & drain_quiet;
    assign clean_finish = fetch_finished & load_empty & gemm_empty & drain_empty;
    assign unit_err = fetch_err | load_err | drain_err |
        ((ld2cp_overflow | cp2ld_overflow | cp2dr_overflow | dr2cp_overflow)
             ? accel_isa_pkg::ERR_TOKEN_OVERFLOW : 6'd0);

    // ---------------------------------------------------------------- counters
    // Order and meaning as the CSRs CYCLES .. DRAIN_WAIT (sw/hw/csr.hpp).
    logic [NUM_COUNTERS-1:0] count_en;
    logic [NUM_COUNTERS*64-1:0] counters_q;
    logic r_beat, w_beat;
    assign r_beat = m_axi_rvalid & m_axi_rready;
    assign w_beat = m_axi_wvalid & m_axi_wready;

    always_comb begin
        count_en = '0;
        count_en[0] = running_q;                       // CYCLES
        count_en[1] = gemm_step;                       // GEMM_STEPS
        count_en[2] = r_beat & (m_axi_rid == 1'b1);    // LOAD_BYTES (in beats, scaled below)
        count_en[3] = w_beat;                          // DRAIN_BYTES
        count_en[4] = r_beat & (m_axi_rid == 1'b0);    // FETCH_BYTES
        count_en[5] = load_done;                       // LOAD_INSNS
        count_en[6] = gemm_done;                       // GEMM_INSNS
        count_en[7] = drain_done;                      // DRAIN_INSNS
        count_en[8] = running_q && load_state == accel_isa_pkg::UNIT_BUSY;  // LOAD_BUSY
        count_en[9] = running_q && gemm_state == accel_isa_pkg::UNIT_BUSY;
        count_en[10] = running_q && drain_state == accel_isa_pkg::UNIT_BUSY;
        count_en[11] = running_q && load_state == accel_isa_pkg::UNIT_WAITING;  // LOAD_WAIT
        count_en[12] = running_q && gemm_state == accel_isa_pkg::UNIT_WAITING;
        count_en[13] = running_q && drain_state == accel_isa_pkg::UNIT_WAITING;
    end

    for (genvar k = 0; k < NUM_COUNTERS; k++) begin : g_counter
        // Byte counters advance by a beat's worth of bytes.
        localparam logic [63:0] STEP = (k >= 2 && k <= 4) ? 64'(BEAT_BYTES) : 64'd1;
        always_ff @(posedge clk_i) begin
            if (unit_rst) counters_q[k*64 +: 64] <= '0;
            else if (count_en[k]) counters_q[k*64 +: 64] <= counters_q[k*64 +: 64] + STEP;
        end
    end

    // ---------------------------------------------------------------- control slave
    accel_axil_csr #(.CFG_BATCH(BATCH), .CFG_BLOCK_IN(BLOCK_IN), .CFG_BLOCK_OUT(BLOCK_OUT),
               .CFG_AXI_DATA_BITS(DW), .CFG_INP_DEPTH(INP_DEPTH), .CFG_WGT_DEPTH(WGT_DEPTH),
               .CFG_ACC_DEPTH(ACC_DEPTH)) u_csr (
        .clk_i, .rst_i,
        .s_axil_awaddr, .s_axil_awvalid, .s_axil_awready, .s_axil_wdata, .s_axil_wstrb,
        .s_axil_wvalid, .s_axil_wready, .s_axil_bresp, .s_axil_bvalid, .s_axil_bready,
        .s_axil_araddr, .s_axil_arvalid, .s_axil_arready, .s_axil_rdata, .s_axil_rresp,
        .s_axil_rvalid, .s_axil_rready,
        .start_o(start), .insn_addr_o(insn_addr), .insn_count_o(insn_count),
        .busy_i(running_q), .done_i(done_q), .error_i(err_q),
        .unit_state_i({drain_state, gemm_state, load_state, fetch_state}),
        .counters_i(counters_q));

`ifdef ACCEL_ASSERT_ON
    // AXI rules on the master port: every request channel holds its payload until
    // accepted, and each burst's W beats number its AWLEN + 1, WLAST on the last. W may
    // run ahead of AW (accel_drain_burst_writer), so both sides' bursts queue here.
    accel_prim_valid_ready_check #(.WIDTH(41)) u_ar_check (
        .clk_i, .rst_i, .valid_i(m_axi_arvalid), .ready_i(m_axi_arready),
        .payload_i({m_axi_arid, m_axi_araddr, m_axi_arlen}));
    accel_prim_valid_ready_check #(.WIDTH(40)) u_aw_check (
        .clk_i, .rst_i, .valid_i(m_axi_awvalid), .ready_i(m_axi_awready),
        .payload_i({m_axi_awaddr, m_axi_awlen}));
    accel_prim_valid_ready_check #(.WIDTH(DW + 1)) u_w_check (
        .clk_i, .rst_i, .valid_i(m_axi_wvalid), .ready_i(m_axi_wready),
        .payload_i({m_axi_wdata, m_axi_wlast}));

    int unsigned aw_beats[$];  // beats each accepted AW announced, its W burst not matched
    int unsigned w_beats[$];   // beats of each finished W burst whose AW was not seen yet
    int unsigned w_sent_q;     // beats of the W burst under way
    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            aw_beats.delete();
            w_beats.delete();
            w_sent_q <= 0;
        end else begin
            if (m_axi_awvalid && m_axi_awready) aw_beats.push_back(32'(m_axi_awlen) + 32'd1);
            if (w_beat && m_axi_wlast) w_beats.push_back(w_sent_q + 32'd1);
            while (aw_beats.size() > 0 && w_beats.size() > 0) begin
                a_w_burst_length: assert (aw_beats[0] == w_beats[0])
                    else $error("accel_top: a W burst of %0d beats for AWLEN+1 = %0d",
                                w_beats[0], aw_beats[0]);
                void'(aw_beats.pop_front());
                void'(w_beats.pop_front());
            end
            if (w_beat && !m_axi_wlast && aw_beats.size() > 0) begin
                a_w_within_awlen: assert (w_sent_q + 32'd1 < aw_beats[0])
                    else $error("accel_top: W beat beyond AWLEN without WLAST");
            end
            if (w_beat) w_sent_q <= m_axi_wlast ? 0 : w_sent_q + 32'd1;
        end
    end
`endif
endmodule

`default_nettype wire
