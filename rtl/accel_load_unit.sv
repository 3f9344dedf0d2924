// Load unit: executes LOAD instructions (docs/isa.md) from the head of its queue, a
// 3-D strided DMA from DRAM into INP, WGT or PRM that inserts padding on the fly.
// Two engines run independently once an instruction starts:
//   accel_load_burst_gen  issues the AXI read bursts of the data rows, running
//                   ahead of the data by up to MAX_OUTSTANDING bursts to hide DRAM
//                   latency;
//   accel_load_dst_walk + accel_load_writer  walk the destination in buffer order and
//                   write one entry per cycle: padding at once, data as its beats arrive;
//   accel_load_pack  packs the channels of consecutive INP entries into one (pack_taps).
// The instruction completes (insn_done_o, and next_push_o if push_next) in the cycle
// of its last SRAM write, once every burst's last beat has arrived. A beat with a
// non-OKAY response raises BUS_ERROR and halts the unit for good (until reset); the
// beats still outstanding are accepted and discarded.
`include "accel_assert.svh"
`default_nettype none

module accel_load_unit #(
    parameter int BATCH           = 1,     // images per INP entry
    parameter int BLOCK_IN        = 16,    // input channels per entry
    parameter int BLOCK_OUT       = 16,    // output channels per WGT / PRM entry
    parameter int BEAT_BYTES      = 8,     // AXI data bytes: a power of two dividing every entry
    parameter int INP_DEPTH       = 2048,  // INP entries (2..65536)
    parameter int WGT_DEPTH       = 1024,  // WGT entries (2..65536)
    parameter int PRM_DEPTH       = 64,    // PRM entries (2..65536)
    parameter int MAX_OUTSTANDING = 8,     // read bursts in flight at most (>= 1)
    localparam int INP_W   = accel_isa_pkg::inp_entry_w(BATCH, BLOCK_IN),
    localparam int WGT_W   = accel_isa_pkg::wgt_entry_w(BLOCK_IN, BLOCK_OUT),
    localparam int BIAS_W  = accel_isa_pkg::bias_entry_w(BLOCK_OUT),
    localparam int QUANT_W = accel_isa_pkg::quant_entry_w(BLOCK_OUT),
    localparam int DW      = 8 * BEAT_BYTES,
    localparam int INP_AW  = accel_isa_pkg::index_w(INP_DEPTH),
    localparam int WGT_AW  = accel_isa_pkg::index_w(WGT_DEPTH),
    localparam int PRM_AW  = accel_isa_pkg::index_w(PRM_DEPTH)
) (
    input  wire logic               clk_i,
    input  wire logic               rst_i,
    input  wire logic               insn_valid_i,
    input  wire logic [accel_isa_pkg::INSN_BITS-1:0] insn_i,
    // What accel_load_segment_head worked out of insn_i as it entered the queue: its
    // entries lie apart (a segment per entry), its segment's beats saturated.
    input  wire logic               seg_apart_i,
    input  wire logic [$clog2(accel_isa_pkg::AXI_MAX_BURST_BEATS + 2)-1:0] seg_head_i,
    output logic                    insn_done_o,
    // Tokens with the next unit (compute): cp2ld is popped, ld2cp pushed.
    input  wire logic               next_avail_i,
    output logic                    next_pop_o,
    output logic                    next_push_o,
    // AXI read port: INCR bursts of full beats (accel_axi_read_arbiter adds ARID,
    // accel_top ties the size and burst type).
    output logic                    ar_valid_o,
    input  wire logic               ar_ready_i,
    output logic      [31:0]        ar_addr_o,
    output logic      [7:0]         ar_len_o,
    input  wire logic               r_valid_i,
    output logic                    r_ready_o,
    input  wire logic [DW-1:0]      r_data_i,
    input  wire logic [1:0]         r_resp_i,
    input  wire logic               r_last_i,
    // SRAM write ports.
    output logic                    inp_we_o,
    output logic      [INP_AW-1:0]  inp_waddr_o,
    output logic      [INP_W-1:0]   inp_wdata_o,
    output logic                    wgt_we_o,
    output logic      [WGT_AW-1:0]  wgt_waddr_o,
    output logic      [WGT_W-1:0]   wgt_wdata_o,
    output logic                    bias_we_o,
    output logic      [PRM_AW-1:0]  bias_waddr_o,
    output logic      [BIAS_W-1:0]  bias_wdata_o,
    output logic                    quant_we_o,
    output logic      [PRM_AW-1:0]  quant_waddr_o,
    output logic      [QUANT_W-1:0] quant_wdata_o,
    // Status.
    output logic [accel_isa_pkg::UNIT_STATE_W-1:0] state_o,  // unit_state_e
    output logic                    quiet_o,
    output logic      [accel_isa_pkg::ERR_W-1:0] err_o
);
    localparam int INP_EB  = BATCH * BLOCK_IN;    // entry bytes per buffer
    localparam int WGT_EB  = BLOCK_OUT * BLOCK_IN;
    localparam int PRM_EB  = accel_isa_pkg::prm_entry_bytes(BLOCK_OUT);
    localparam int INP_BPE = INP_EB / BEAT_BYTES; // beats per entry
    localparam int WGT_BPE = WGT_EB / BEAT_BYTES;
    localparam int PRM_BPE = PRM_EB / BEAT_BYTES;
    localparam int MAX_BPE = (INP_BPE > WGT_BPE)
                           ? ((INP_BPE > PRM_BPE) ? INP_BPE : PRM_BPE)
                           : ((WGT_BPE > PRM_BPE) ? WGT_BPE : PRM_BPE);
    localparam int BI_W    = accel_isa_pkg::index_w(MAX_BPE);
    localparam int RB_W    = $clog2(65535 * MAX_BPE + 1);  // beats in a row of x_size entries
    localparam int DST_AW  = (INP_AW > WGT_AW)
                           ? ((INP_AW > PRM_AW) ? INP_AW : PRM_AW)
                           : ((WGT_AW > PRM_AW) ? WGT_AW : PRM_AW);

    if (BATCH < 1 || BLOCK_IN < 1 || BLOCK_OUT < 1) begin : g_bad_core
        $error("accel_load_unit: BATCH, BLOCK_IN, BLOCK_OUT must be >= 1");
    end
    if (BEAT_BYTES < 1 || BEAT_BYTES > 256 || (BEAT_BYTES & (BEAT_BYTES - 1)) != 0)
    begin : g_bad_beat
        $error("accel_load_unit: BEAT_BYTES must be a power of two in 1..256, got %0d", BEAT_BYTES);
    end
    if (INP_EB % BEAT_BYTES != 0 || WGT_EB % BEAT_BYTES != 0 || PRM_EB % BEAT_BYTES != 0)
    begin : g_bad_entry
        $error("accel_load_unit: BEAT_BYTES (%0d) must divide every entry size (%0d, %0d, %0d)",
               BEAT_BYTES, INP_EB, WGT_EB, PRM_EB);
    end
    if (INP_DEPTH < 2 || INP_DEPTH > 65536 || WGT_DEPTH < 2 || WGT_DEPTH > 65536
        || PRM_DEPTH < 2 || PRM_DEPTH > 65536) begin : g_bad_depth
        $error("accel_load_unit: buffer depths must be in 2..65536");
    end
    if (MAX_OUTSTANDING < 1) begin : g_bad_outstanding
        $error("accel_load_unit: MAX_OUTSTANDING must be >= 1, got %0d", MAX_OUTSTANDING);
    end

    // The unit's states are the codes it reports in UNIT_STATE.
    localparam accel_isa_pkg::unit_state_e S_IDLE = accel_isa_pkg::UNIT_IDLE,
                                           S_WAIT = accel_isa_pkg::UNIT_WAITING,
                                           S_BUSY = accel_isa_pkg::UNIT_BUSY,
                                           S_HALT = accel_isa_pkg::UNIT_HALTED;
    localparam logic [1:0] BUF_INP = 2'd0, BUF_WGT = 2'd1;

    // ---- Instruction fields (the instruction stays at the queue head until done).
    logic [1:0]  f_buffer;
    logic        f_pop_next, f_push_next;
    logic [15:0] f_x_size;
    accel_isa_pkg::load_insn_t ld;  // the head instruction, decoded
    assign ld          = insn_i;
    assign f_buffer    = ld.buffer;
    assign f_pop_next  = ld.pop_next;
    assign f_push_next = ld.push_next;
    assign f_x_size    = ld.x_size;

    logic            unused_insn;  // fields checked by fetch or used by other units
    assign unused_insn = ^ld;

    // A row is read as one segment when its entries are contiguous in DRAM, else as one
    // segment per entry (seg_apart_i; docs/isa.md, LOAD). The product reaches the burst
    // generator's registers only; its first burst starts from seg_head_i.
    logic [RB_W-1:0] entry_beats, seg_beats;
    logic [15:0]     seg_count;
    always_comb begin
        unique case (f_buffer)
            BUF_INP: entry_beats = RB_W'(INP_BPE);
            BUF_WGT: entry_beats = RB_W'(WGT_BPE);
            default: entry_beats = RB_W'(PRM_BPE);
        endcase
        seg_beats = seg_apart_i ? entry_beats : RB_W'(f_x_size) * entry_beats;
        seg_count = seg_apart_i ? f_x_size : 16'd1;
    end
    logic [BI_W-1:0] bpe_last;
    assign bpe_last = BI_W'(entry_beats - RB_W'(1));

    // ---- Control.
    accel_isa_pkg::unit_state_e state_q;
    logic [1:0] buf_q;
    logic [7:0] pad_value_q;
    logic       push_q;
    logic       start, err_beat, done;
    logic       gen_idle, walk_active, beat_ready;

    always_comb begin
        start = 1'b0;
        if (state_q == S_IDLE) start = insn_valid_i && (!f_pop_next || next_avail_i);
        if (state_q == S_WAIT) start = next_avail_i;
    end
    assign err_beat = (state_q == S_BUSY) && r_valid_i && r_ready_o && (r_resp_i != 2'd0);
    assign done     = (state_q == S_BUSY) && !walk_active && gen_idle;

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            state_q <= S_IDLE;
        end else begin
            unique case (state_q)
                S_IDLE:  if (start) state_q <= S_BUSY;
                         else if (insn_valid_i) state_q <= S_WAIT;
                S_WAIT:  if (start) state_q <= S_BUSY;
                S_BUSY:  if (err_beat) state_q <= S_HALT;
                         else if (done) state_q <= S_IDLE;
                default: state_q <= S_HALT;
            endcase
        end
    end

    always_ff @(posedge clk_i) begin
        if (start) begin
            buf_q       <= f_buffer;
            pad_value_q <= ld.pad_value;
            push_q      <= f_push_next;
        end
    end

    always_ff @(posedge clk_i) begin
        if (rst_i) err_o <= '0;
        else       err_o <= err_beat ? accel_isa_pkg::ERR_BUS_ERROR : '0;
    end

    assign next_pop_o  = start && f_pop_next;
    assign insn_done_o = done;
    assign next_push_o = done && push_q;
    assign state_o     = state_q;
    assign quiet_o     = ((state_q == S_IDLE) && !insn_valid_i)
                      || ((state_q == S_WAIT) && !next_avail_i)
                      || ((state_q == S_HALT) && gen_idle);

    // ---- Read requests.
    logic halt, r_last_fire;
    assign halt        = err_beat || (state_q == S_HALT);
    assign r_last_fire = r_valid_i && r_ready_o && r_last_i;

    accel_load_burst_gen #(
        .BEAT_BYTES      (BEAT_BYTES),
        .MAX_OUTSTANDING (MAX_OUTSTANDING),
        .ROW_BEATS_W     (RB_W)
    ) u_burst_gen (
        .clk_i       (clk_i),
        .rst_i       (rst_i),
        .start_i     (start),
        .base_i      (ld.dram_base),
        .z_size_i    (ld.z_size),
        .y_size_i    (ld.y_size),
        .z_stride_i  (ld.dram_z_stride),
        .y_stride_i  (ld.dram_y_stride),
        .x_stride_i  (ld.dram_x_stride),
        .seg_count_i (seg_count),
        .seg_beats_i (seg_beats),
        .seg_head_i  (seg_head_i),
        .halt_i      (halt),
        .ar_valid_o  (ar_valid_o),
        .ar_ready_i  (ar_ready_i),
        .ar_addr_o   (ar_addr_o),
        .ar_len_o    (ar_len_o),
        .r_last_i    (r_last_fire),
        .idle_o      (gen_idle)
    );
`ifdef ACCEL_ASSERT_ON
    // AXI: the generator's read requests stay unchanged until accepted, a halt included.
    accel_prim_valid_ready_check #(.WIDTH(40)) u_ar_check (
        .clk_i, .rst_i, .valid_i(ar_valid_o), .ready_i(ar_ready_i),
        .payload_i({ar_addr_o, ar_len_o}));
`endif
    // The queue's segment flag is the instruction's (its head beats: a_head_saturates in
    // the generator).
`ifdef ACCEL_ASSERT_ON
    logic [31:0] entry_bytes;
    assign entry_bytes = 32'((f_buffer == BUF_INP) ? INP_EB : (f_buffer == BUF_WGT) ? WGT_EB
                                                                                   : PRM_EB);
`endif
    `ACCEL_ASSERT(a_seg_apart, start |-> seg_apart_i == (ld.dram_x_stride != '0
                  && ld.dram_x_stride != entry_bytes), clk_i, rst_i)
    // Reads belong to an instruction: issued while it runs, or still held when it halted.
    `ACCEL_ASSERT(a_ar_while_running, ar_valid_o |-> state_q == S_BUSY || state_q == S_HALT,
                  clk_i, rst_i)

    // ---- Destination walk and entry writes.
    logic                  walk_data, walk_keep, step, we, pad;
    logic [DST_AW-1:0]     walk_addr, waddr;
    logic [MAX_BPE*DW-1:0] entry;

    accel_load_dst_walk #(
        .AW (DST_AW)
    ) u_dst_walk (
        .clk_i        (clk_i),
        .rst_i        (rst_i),
        .start_i      (start),
        .sram_base_i  (ld.sram_base[DST_AW-1:0]),
        .z_size_i     (ld.z_size),
        .y_size_i     (ld.y_size),
        .x_size_i     (f_x_size),
        .pad_top_i    (ld.pad_top),
        .pad_bottom_i (ld.pad_bottom),
        .pad_left_i   (ld.pad_left),
        .pad_right_i  (ld.pad_right),
        .skip_i       (ld.pack_taps == 8'd0 ? 8'd0 : ld.pack_taps - 8'd1),
        .halt_i       (halt),
        .step_i       (step),
        .active_o     (walk_active),
        .is_data_o    (walk_data),
        .keep_o       (walk_keep),
        .addr_o       (walk_addr)
    );

    accel_load_writer #(
        .BEAT_BYTES (BEAT_BYTES),
        .MAX_BPE    (MAX_BPE),
        .AW         (DST_AW)
    ) u_writer (
        .clk_i        (clk_i),
        .rst_i        (rst_i),
        .start_i      (start),
        .bpe_last_i   (bpe_last),
        .halt_i       (halt),
        .cur_valid_i  (walk_active),
        .cur_data_i   (walk_data),
        .cur_addr_i   (walk_addr),
        .step_o       (step),
        .beat_valid_i (r_valid_i && (r_resp_i == 2'd0) && (state_q == S_BUSY)),
        .beat_data_i  (r_data_i),
        .beat_ready_o (beat_ready),
        .we_o         (we),
        .waddr_o      (waddr),
        .pad_o        (pad),
        .entry_o      (entry)
    );

    // Halted, every beat still outstanding is taken and dropped.
    assign r_ready_o = (state_q == S_HALT) || ((state_q == S_BUSY) && beat_ready);

    // ---- SRAM ports: the write goes to the buffer of the current instruction.
    accel_load_pack #(
        .BATCH    (BATCH),
        .BLOCK_IN (BLOCK_IN)
    ) u_pack (
        .clk_i   (clk_i),
        .start_i (start),
        .taps_i  (ld.pack_taps),
        .bytes_i (ld.pack_bytes),
        .keep_i  (walk_keep),
        .take_i  (we && (buf_q == BUF_INP)),
        .entry_i (pad ? {INP_EB{pad_value_q}} : entry[INP_W-1:0]),
        .we_o    (inp_we_o),
        .wdata_o (inp_wdata_o)
    );
    assign inp_waddr_o   = waddr[INP_AW-1:0];
    assign wgt_we_o      = we && (buf_q == BUF_WGT);
    assign wgt_waddr_o   = waddr[WGT_AW-1:0];
    assign wgt_wdata_o   = entry[WGT_W-1:0];
    assign bias_we_o     = we && (buf_q != BUF_INP) && (buf_q != BUF_WGT);
    assign bias_waddr_o  = waddr[PRM_AW-1:0];
    assign quant_we_o    = bias_we_o;
    assign quant_waddr_o = waddr[PRM_AW-1:0];

    // ---- Handshakes with the queue, the tokens and the SRAMs.
    // A token is popped only when there is one, the instruction only once it is done
    // (it stays at the queue head until then); one SRAM entry is written per cycle, into
    // the instruction's buffer, and only while it runs: a halted unit writes nothing.
    `ACCEL_ASSERT(a_pop_has_token, next_pop_o |-> next_avail_i, clk_i, rst_i)
    `ACCEL_ASSERT(a_done_has_insn, insn_done_o |-> insn_valid_i, clk_i, rst_i)
    `ACCEL_ASSERT(a_one_write, $onehot0({inp_we_o, wgt_we_o, bias_we_o}), clk_i, rst_i)
    `ACCEL_ASSERT(a_write_while_busy, inp_we_o || wgt_we_o || bias_we_o |-> state_q == S_BUSY,
                  clk_i, rst_i)
    `ACCEL_ASSERT(a_halt_for_good, state_q == S_HALT |=> state_q == S_HALT, clk_i, rst_i)
    `ACCEL_ASSERT_KNOWN(a_handshakes_known, {ar_valid_o, r_ready_o, insn_done_o, next_pop_o,
                                             next_push_o, inp_we_o, wgt_we_o, bias_we_o,
                                             quant_we_o, state_o}, clk_i, rst_i)

    // A PRM entry in DRAM: bias[BO], multiplier[BO], shift[BO], int32 little-endian.
    // QUANT keeps each channel's two words as they are, {shift, multiplier}: the drain
    // reads them either as accel_requant's multiplier and shift or as a double scale.
    for (genvar o = 0; o < BLOCK_OUT; o++) begin : g_prm_lane
        assign bias_wdata_o[32 * o +: 32] = entry[32 * o +: 32];
        assign quant_wdata_o[64 * o +: 64] = {entry[32 * (2 * BLOCK_OUT + o) +: 32],
                                              entry[32 * (BLOCK_OUT + o) +: 32]};
    end
endmodule

`default_nettype wire
