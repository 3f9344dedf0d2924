// The drain unit: executes DRAIN instructions (docs/isa.md "DRAIN"). For each
// (kb, y, x) entry of ACC and each image b it requantizes BLOCK_OUT accumulators with
// PRM[prm_base + kb] and writes the BLOCK_OUT int8 results to
// dram_base + kb*dram_kb + y*dram_y + x*dram_x + b*dram_b.
//
// Datapath, one AXI beat (BEAT_BYTES outputs) per cycle:
//   sequencer --(ACC + QUANT read, beat address)--> accel_requant (LANES = BEAT_BYTES)
//             --> accel_drain_burst_writer (burst coalescing, beat buffer, AW/W/B)
// The sequencer reads the ACC entry (and its QUANT entry) once per beat and keeps only
// that beat's lanes, instead of holding a whole entry in registers. A read happens
// only in cycles where acc_gnt_i is high (compute has priority on the ACC port); the
// writer reserves a buffer slot for every beat read, so nothing downstream stalls.
//
// Add mode (the instruction's `add` bit): each beat reads two ACC entries, a and
// a + acc_add, on two granted reads; accel_add_operands rescales each as it arrives (with QUANT
// lanes 0 and 1, through one MBQM lane per lane) and sums them, and the sum goes
// through the same accel_requant, with lane 2, broadcast. The
// writer sees the same beats as in the plain mode. An instruction's beats are all of one
// mode, and the next starts only once they are written, so the two paths never meet.
//
// QUANT holds each channel's PRM multiplier and shift words unchanged; the drain makes
// accel_requant's lanes of them ({round_up, left, amount, multiplier}, the shift clamped
// to [PRM_SHIFT_MIN, PRM_SHIFT_MAX], round_up the instruction's). Double-scale mode (the
// `double_scale` bit) reads the two words as a double's bits instead, and its beats go
// through accel_double_requant_serial beside accel_requant. That pipeline takes a lane a
// cycle, so a double-scale beat is read BEAT_BYTES times, the last read's data going on,
// before the sequencer moves on; the writer takes whichever pipeline's result.
//
// Tokens: pop_prev is taken in the start cycle; push_prev is given with insn_done_o,
// after every B response of the instruction arrived. A B response with an error pulses
// err_o (BUS_ERROR), stops reading, lets the bursts already formed finish on the bus,
// then halts (state 3) until reset; that instruction never completes.
`include "accel_assert.svh"
`default_nettype none

module accel_drain_unit #(
    parameter int BATCH = 1,            // images per ACC entry
    parameter int BLOCK_OUT = 16,       // output channels per entry: bytes per image
    parameter int BEAT_BYTES = 8,       // AXI data bytes per beat; divides BLOCK_OUT
    parameter int ACC_DEPTH = 2048,     // ACC entries (<= 65536)
    parameter int PRM_DEPTH = 64,       // PRM entries (<= 256: prm_base is 8 bits)
    parameter int MAX_OUTSTANDING = 8,  // write bursts awaiting B
    localparam int ACC_W = accel_isa_pkg::acc_entry_w(BATCH, BLOCK_OUT),
    localparam int QUANT_W = accel_isa_pkg::quant_entry_w(BLOCK_OUT),
    localparam int DW = 8 * BEAT_BYTES,
    localparam int ACC_AW = accel_isa_pkg::index_w(ACC_DEPTH),
    localparam int PRM_AW = accel_isa_pkg::index_w(PRM_DEPTH)
) (
    input  wire logic               clk_i,
    input  wire logic               rst_i,
    input  wire logic               insn_valid_i,
    input  wire logic [accel_isa_pkg::INSN_BITS-1:0] insn_i,
    output logic                    insn_done_o,
    output logic [accel_isa_pkg::UNIT_STATE_W-1:0] state_o,  // unit_state_e
    output logic                    quiet_o,
    // tokens with compute
    input  wire logic               prev_avail_i,
    output logic                    prev_pop_o,
    output logic                    prev_push_o,
    // ACC read port (shared, compute wins) and QUANT read port
    output logic                    acc_re_o,
    output logic [ACC_AW-1:0]       acc_raddr_o,
    input  wire logic               acc_gnt_i,
    input  wire logic [ACC_W-1:0]   acc_rdata_i,
    output logic                    quant_re_o,
    output logic [PRM_AW-1:0]       quant_raddr_o,
    input  wire logic [QUANT_W-1:0] quant_rdata_i,
    // AXI4 write channels: INCR bursts of full beats (accel_top ties size, burst and
    // strobes)
    output logic                    aw_valid_o,
    input  wire logic               aw_ready_i,
    output logic      [31:0]        aw_addr_o,
    output logic      [7:0]         aw_len_o,
    output logic                    w_valid_o,
    input  wire logic               w_ready_i,
    output logic      [DW-1:0]      w_data_o,
    output logic                    w_last_o,
    input  wire logic               b_valid_i,
    output logic                    b_ready_o,
    input  wire logic [1:0]         b_resp_i,
    output logic [accel_isa_pkg::ERR_W-1:0] err_o
);
    localparam int BPC = BLOCK_OUT / BEAT_BYTES;   // beats per chunk (one image's bytes)
    localparam int BPE = BATCH * BPC;              // beats per ACC entry
    localparam int QL = accel_isa_pkg::QUANT_LANE_W;    // accel_requant's lane
    localparam int QWL = accel_isa_pkg::QUANT_WORDS_W;  // a QUANT lane: {shift, multiplier}
    localparam int QUANT_BEAT_W = QWL * BEAT_BYTES;      // a beat's lanes
    localparam int CW = accel_isa_pkg::index_w(BPC);
    localparam int BW = accel_isa_pkg::index_w(BATCH);
    localparam int TW = accel_isa_pkg::index_w(BPE);
    localparam logic [31:0] BEAT = 32'(BEAT_BYTES);
    // beat buffer: a whole burst (AXI_MAX_BURST_BEATS) and the read pipelines (up to 23
    // cycles), rounded up to a power of two
    localparam int BUF_DEPTH = 64;

    if (BATCH < 1 || BLOCK_OUT < 1) begin : g_bad_core
        $error("accel_drain_unit: BATCH and BLOCK_OUT must be at least 1");
    end
    if (BEAT_BYTES < 1 || BLOCK_OUT % BEAT_BYTES != 0) begin : g_bad_beat
        $error("accel_drain_unit: BEAT_BYTES must divide BLOCK_OUT");
    end
    if (BLOCK_OUT < 3) begin : g_bad_add_lanes
        $error("accel_drain_unit: add mode takes its three rescalings from QUANT lanes 0-2");
    end
    if (ACC_DEPTH < 1 || ACC_DEPTH > 65536 || PRM_DEPTH < 1 || PRM_DEPTH > 256)
    begin : g_bad_depth
        $error("accel_drain_unit: ACC_DEPTH must be in [1, 65536] and PRM_DEPTH in [1, 256]");
    end

    // ---------------------------------------------------------------- instruction
    logic        pop_prev, push_prev;
    logic [15:0]       n_kb, n_y, n_x;
    logic [ACC_AW-1:0] acc_base, acc_kb, acc_y, acc_x;  // ACC addresses wrap at 2^ACC_AW
    logic [PRM_AW-1:0] prm_base;
    logic [31:0] dram_base, dram_kb, dram_y, dram_x, dram_b;
    logic [7:0]  zy, act_min, act_max;
    logic        add_mode, double_mode, round_up;
    logic [ACC_AW-1:0] acc_add;
    logic [accel_isa_pkg::DRAIN_ADD_SHIFT_W-1:0] add_shift;

    accel_isa_pkg::drain_insn_t d;  // the head instruction, decoded
    assign d         = insn_i;
    assign pop_prev  = d.pop_prev;
    assign push_prev = d.push_prev;
    assign acc_base  = d.acc_base[ACC_AW-1:0];
    assign prm_base  = d.prm_base[PRM_AW-1:0];
    assign n_kb      = d.n_kb;
    assign n_y       = d.n_y;
    assign n_x       = d.n_x;
    assign acc_kb    = d.acc_kb[ACC_AW-1:0];
    assign acc_y     = d.acc_y[ACC_AW-1:0];
    assign acc_x     = d.acc_x[ACC_AW-1:0];
    assign dram_base = d.dram_base;
    assign dram_kb   = d.dram_kb;
    assign dram_y    = d.dram_y;
    assign dram_x    = d.dram_x;
    assign dram_b    = d.dram_b;
    assign zy        = d.zy;
    assign act_min   = d.act_min;
    assign act_max   = d.act_max;
    assign add_mode  = d.add;
    assign double_mode = d.double_scale;
    assign round_up    = d.round_up;
    assign acc_add   = d.acc_add[ACC_AW-1:0];
    assign add_shift = d.add_shift;

    // The opcode, the flags drain has no use for and the reserved bits (fetch checked
    // them), and the ACC/PRM address bits above the buffers' sizes (range checked).
    logic unused_insn;
    assign unused_insn = ^d;

    // ---------------------------------------------------------------- control
    localparam logic [2:0] S_IDLE   = 3'd0,  // no instruction, or waiting for its token
                           S_RUN    = 3'd1,  // reading beats
                           S_FINISH = 3'd2,  // all beats read: close the last burst, wait B
                           S_ABORT  = 3'd3,  // bus error: wait for the bus to go quiet
                           S_HALT   = 3'd4;  // halted after a bus error

    logic [2:0] state_q;
    logic start, fire, last_beat;
    logic wr_addr_ready, wr_err, wr_idle, wr_bus_quiet;

    assign start = (state_q == S_IDLE) && insn_valid_i && (!pop_prev || prev_avail_i);
    assign prev_pop_o = start && pop_prev;
    assign insn_done_o = (state_q == S_FINISH) && wr_idle;
    assign prev_push_o = insn_done_o && push_prev;
    assign err_o = wr_err ? accel_isa_pkg::ERR_BUS_ERROR : '0;

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            state_q <= S_IDLE;
        end else begin
            unique case (state_q)
                S_IDLE:   if (start) state_q <= S_RUN;
                S_RUN:    if (wr_err) state_q <= S_ABORT;
                          else if (fire && last_beat) state_q <= S_FINISH;
                S_FINISH: if (wr_err) state_q <= S_ABORT;
                          else if (wr_idle) state_q <= S_IDLE;
                S_ABORT:  if (wr_bus_quiet) state_q <= S_HALT;
                default:  state_q <= S_HALT;
            endcase
        end
    end

    always_comb begin
        unique case (state_q)
            S_IDLE:  state_o = !insn_valid_i ? accel_isa_pkg::UNIT_IDLE
                             : start ? accel_isa_pkg::UNIT_BUSY : accel_isa_pkg::UNIT_WAITING;
            S_HALT:  state_o = accel_isa_pkg::UNIT_HALTED;
            default: state_o = accel_isa_pkg::UNIT_BUSY;
        endcase
    end
    assign quiet_o = ((state_q == S_IDLE) && !start) || (state_q == S_HALT);

    // ---------------------------------------------------------------- sequencer
    // Loop counters kb, y, x (entries), b (image), c (beat of the image's chunk), and
    // t = b*BPC + c (beat of the entry); running ACC/PRM/DRAM addresses, so no
    // multipliers: d_*_q is the DRAM address of the current kb / y / x / b / beat.
    // kb, y and x count in accel_prim_count_last, whose last-value flags are registers:
    // the beat's fire, which every counter follows, starts from flags, not from
    // comparisons against the instruction (docs/fpga.md, timing).
    logic [BW-1:0]     b_q;
    logic [CW-1:0]     c_q;
    logic [TW-1:0]     t_q;
    logic [ACC_AW-1:0] a_kb_q, a_y_q, a_x_q;
    logic [PRM_AW-1:0] prm_q;
    logic [31:0]       d_kb_q, d_y_q, d_x_q, d_b_q, d_beat_q;
    logic last_c, last_b, last_x, last_y, last_kb;
    logic step_x, step_y, step_kb;      // the beat's fire moves x, y, kb
    logic [15:0] x_idx, y_idx, kb_idx;  // (the addresses run alongside instead)

    assign last_c  = (c_q == CW'(BPC - 1));
    assign last_b  = (b_q == BW'(BATCH - 1));
    assign last_beat = last_c && last_b && last_x && last_y && last_kb;
    assign step_x  = fire && last_c && last_b;
    assign step_y  = step_x && last_x;
    assign step_kb = step_y && last_y;
    accel_prim_count_last u_x (.clk_i, .rst_i, .load_i(start), .count_i(n_x),
                               .step_i(step_x), .value_o(x_idx), .last_o(last_x));
    accel_prim_count_last u_y (.clk_i, .rst_i, .load_i(start), .count_i(n_y),
                               .step_i(step_y), .value_o(y_idx), .last_o(last_y));
    accel_prim_count_last u_kb (.clk_i, .rst_i, .load_i(start), .count_i(n_kb),
                                .step_i(step_kb), .value_o(kb_idx), .last_o(last_kb));
    logic unused_idx;
    assign unused_idx = ^{x_idx, y_idx, kb_idx};

    // A beat's reads: one, two in add mode (its operands), BEAT_BYTES in double-scale
    // mode (the cycles its pipeline takes). A beat fires (the sequencer moves on and the
    // writer reserves its slot) on its last read; whether the next read is the last is a
    // register, as the fire fans out to every counter. second_q: in add mode, the next
    // read is the beat's second operand.
    localparam int RW = accel_isa_pkg::index_w(BEAT_BYTES);
    logic [RW-1:0] read_q;         // the beat's reads so far (double-scale mode)
    logic [RW-1:0] read_last_q;    // the instruction's reads per beat, minus one
    logic          final_read_q;   // the next read is the beat's last
    logic          one_read_q;     // ... always (one read per beat)
    logic          second_q, granted;
    assign acc_re_o      = (state_q == S_RUN) && wr_addr_ready;
    assign quant_re_o    = acc_re_o;  // QUANT is drain's alone: read alongside, always
    assign acc_raddr_o   = second_q ? a_x_q + acc_add : a_x_q;
    assign quant_raddr_o = prm_q;
    assign granted       = acc_re_o && acc_gnt_i;
    assign fire          = granted && final_read_q;

    logic [RW-1:0] reads_m1;  // the head instruction's reads per beat, minus one
    assign reads_m1 = add_mode ? RW'(1) : double_mode ? RW'(BEAT_BYTES - 1) : '0;
    always_ff @(posedge clk_i) begin
        if (rst_i || start) begin
            read_q       <= '0;
            read_last_q  <= reads_m1;
            final_read_q <= reads_m1 == '0;
            one_read_q   <= reads_m1 == '0;
            second_q     <= 1'b0;
        end else if (granted) begin
            read_q       <= final_read_q ? '0 : read_q + RW'(1);
            final_read_q <= final_read_q ? one_read_q : read_q + RW'(1) == read_last_q;
            second_q     <= add_mode && !second_q;
        end
    end

    // Next addresses one level up: a new kb, y or x restarts every level below it.
    logic [31:0]       d_kb_n, d_y_n, d_x_n;
    logic [ACC_AW-1:0] a_kb_n, a_y_n;
    assign d_kb_n = d_kb_q + dram_kb;
    assign d_y_n  = d_y_q + dram_y;
    assign d_x_n  = d_x_q + dram_x;
    assign a_kb_n = a_kb_q + acc_kb;
    assign a_y_n  = a_y_q + acc_y;

    always_ff @(posedge clk_i) begin
        if (start) begin
            {b_q, c_q, t_q} <= '0;
            {a_kb_q, a_y_q, a_x_q} <= {3{acc_base}};
            prm_q <= prm_base;
            {d_kb_q, d_y_q, d_x_q, d_b_q, d_beat_q} <= {5{dram_base}};
        end else if (fire) begin
            if (!last_c) begin
                c_q <= c_q + CW'(1);
                t_q <= t_q + TW'(1);
                d_beat_q <= d_beat_q + BEAT;
            end else if (!last_b) begin
                c_q <= '0;
                b_q <= b_q + BW'(1);
                t_q <= t_q + TW'(1);
                d_b_q <= d_b_q + dram_b;
                d_beat_q <= d_b_q + dram_b;
            end else begin
                {b_q, c_q, t_q} <= '0;
                if (!last_x) begin
                    a_x_q <= a_x_q + acc_x;
                    {d_x_q, d_b_q, d_beat_q} <= {3{d_x_n}};
                end else if (!last_y) begin
                    {a_y_q, a_x_q} <= {2{a_y_n}};
                    {d_y_q, d_x_q, d_b_q, d_beat_q} <= {4{d_y_n}};
                end else if (!last_kb) begin
                    prm_q <= prm_q + PRM_AW'(1);
                    {a_kb_q, a_y_q, a_x_q} <= {3{a_kb_n}};
                    {d_kb_q, d_y_q, d_x_q, d_b_q, d_beat_q} <= {5{d_kb_n}};
                end
            end
        end
    end

    // ---------------------------------------------------------------- requantize
    // The read data arrives the cycle after a granted read; the tag says which beat of
    // the entry (t) and which lanes of QUANT (c) it was for.
    // rd_op_q: the data is an add-mode operand, rd_second_q: the beat's second.
    logic          rd_v_q, rd_op_q, rd_second_q;
    logic [TW-1:0] rd_t_q;
    logic [CW-1:0] rd_c_q;
    always_ff @(posedge clk_i) begin
        if (rst_i) {rd_v_q, rd_op_q} <= '0;
        else {rd_v_q, rd_op_q} <= {fire, granted && add_mode};
        rd_second_q <= second_q;
        rd_t_q <= t_q;
        rd_c_q <= c_q;
    end

    logic [32*BEAT_BYTES-1:0] beat_acc;  // the beat's lanes of the entry read
    assign beat_acc = acc_rdata_i[32*BEAT_BYTES*rd_t_q +: 32*BEAT_BYTES];

    // accel_requant's lane of a QUANT lane: the shift, clamped, as a direction and an
    // amount.
    localparam int EW = accel_isa_pkg::QUANT_AMOUNT_W;
    function automatic logic [QL-1:0] quant_lane(input logic [QWL-1:0] words, input logic up);
        logic signed [31:0] shift;
        logic               left;
        logic [EW-1:0]      amount;
        shift  = signed'(words[63:32]);
        left   = shift > 0;
        amount = (shift > accel_isa_pkg::PRM_SHIFT_MAX) ? EW'(accel_isa_pkg::PRM_SHIFT_MAX)
               : (shift < accel_isa_pkg::PRM_SHIFT_MIN) ? EW'(-accel_isa_pkg::PRM_SHIFT_MIN)
               : left ? EW'(shift) : EW'(-shift);
        quant_lane = '0;
        quant_lane[31:0] = words[31:0];
        quant_lane[accel_isa_pkg::QUANT_AMOUNT_LO +: EW] = amount;
        quant_lane[accel_isa_pkg::QUANT_LEFT_LO] = left;
        quant_lane[accel_isa_pkg::QUANT_ROUND_UP_LO] = up;
    endfunction

    logic [QUANT_BEAT_W-1:0]  beat_words;  // the beat's QUANT lanes, as stored
    assign beat_words = quant_rdata_i[QUANT_BEAT_W*rd_c_q +: QUANT_BEAT_W];

    // Two register stages between the SRAMs and the pipelines (docs/fpga.md, timing): the
    // first takes the beat's lanes as read, so that no logic follows a block RAM's output
    // in the same cycle; the second makes accel_requant's lanes of the QUANT words.
    logic                     r2_plain, r2_double, r2_op, r2_second;
    logic [32*BEAT_BYTES-1:0] r2_acc;
    logic [QUANT_BEAT_W-1:0]  r2_words;
    logic [3*QWL-1:0]         r2_add_words;  // add mode: QUANT lanes 0-2, as stored
    logic                     r3_plain, r3_double, r3_op, r3_second;
    logic [32*BEAT_BYTES-1:0] r3_acc;
    logic [QUANT_BEAT_W-1:0]  r3_words;      // double-scale mode: the scale words
    logic [QL*BEAT_BYTES-1:0] r3_quant;      // the beat's lanes as accel_requant's
    logic [QL-1:0]            r3_op_quant;   // add mode: the operand's rescaling (lane 0 or 1)
    logic [QL-1:0]            r3_out_quant;  //           the output's (lane 2)
    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            {r2_plain, r2_double, r2_op, r3_plain, r3_double, r3_op} <= '0;
        end else begin
            r2_plain  <= rd_v_q && !add_mode && !double_mode;
            r2_double <= rd_v_q && double_mode;
            r2_op     <= rd_op_q;
            {r3_plain, r3_double, r3_op} <= {r2_plain, r2_double, r2_op};
        end
    end
    always_ff @(posedge clk_i) begin
        if (rd_v_q || rd_op_q) begin
            r2_second    <= rd_second_q;
            r2_acc       <= beat_acc;
            r2_words     <= beat_words;
            r2_add_words <= quant_rdata_i[0 +: 3*QWL];
        end
        if (r2_plain || r2_double || r2_op) begin
            r3_second    <= r2_second;
            r3_acc       <= r2_acc;
            r3_words     <= r2_words;
            r3_op_quant  <= quant_lane(r2_add_words[(r2_second ? QWL : 0) +: QWL], round_up);
            r3_out_quant <= quant_lane(r2_add_words[2*QWL +: QWL], round_up);
        end
    end
    for (genvar j = 0; j < BEAT_BYTES; j++) begin : g_beat_quant
        always_ff @(posedge clk_i) begin
            if (r2_plain) r3_quant[QL*j +: QL] <= quant_lane(r2_words[QWL*j +: QWL], round_up);
        end
    end

    logic                     sum_valid;
    logic [32*BEAT_BYTES-1:0] sum;
    logic [QL-1:0]            sum_quant;  // the output's rescaling, lane 2
    accel_add_operands #(.LANES(BEAT_BYTES), .TAG_W(QL)) u_add_operands (
        .clk_i, .rst_i, .valid_i(r3_op), .second_i(r3_second), .acc_i(r3_acc),
        .quant_i(r3_op_quant), .shift_i(add_shift),
        .tag_i(r3_out_quant), .valid_o(sum_valid), .sum_o(sum), .tag_o(sum_quant));

    logic          rq_valid;
    logic [DW-1:0] rq_q;
    accel_requant #(.LANES(BEAT_BYTES)) u_requant (
        .clk_i, .rst_i, .en_i(1'b1),
        .valid_i(r3_plain || sum_valid),
        .acc_i(sum_valid ? sum : r3_acc),
        .quant_i(sum_valid ? {BEAT_BYTES{sum_quant}} : r3_quant),
        .zy_i(zy), .act_min_i(act_min), .act_max_i(act_max),
        .valid_o(rq_valid), .q_o(rq_q));

    logic          dq_valid;
    logic [DW-1:0] dq_q;
    accel_double_requant_serial #(.LANES(BEAT_BYTES)) u_double_requant (
        .clk_i, .rst_i, .valid_i(r3_double),
        .acc_i(r3_acc), .scale_i(r3_words),
        .zy_i(zy), .act_min_i(act_min), .act_max_i(act_max),
        .valid_o(dq_valid), .q_o(dq_q));

    // The modes never overlap: one pipeline's results at a time reach the writer.
    `ACCEL_ASSERT(a_one_pipeline_at_a_time, !(rq_valid && dq_valid), clk_i, rst_i)

    // ---------------------------------------------------------------- AXI write
    accel_drain_burst_writer #(.BEAT_BYTES(BEAT_BYTES), .MAX_OUTSTANDING(MAX_OUTSTANDING),
                         .BUF_DEPTH(BUF_DEPTH)) u_writer (
        .clk_i, .rst_i,
        .addr_valid_i(fire), .addr_i(d_beat_q), .addr_ready_o(wr_addr_ready),
        .flush_i(state_q == S_FINISH),
        .beat_valid_i(rq_valid || dq_valid), .beat_i(dq_valid ? dq_q : rq_q),
        .aw_valid_o, .aw_ready_i, .aw_addr_o, .aw_len_o,
        .w_valid_o, .w_ready_i, .w_data_o, .w_last_o,
        .b_valid_i, .b_ready_o, .b_resp_i,
        .err_o(wr_err), .idle_o(wr_idle), .bus_quiet_o(wr_bus_quiet));
endmodule

`default_nettype wire
