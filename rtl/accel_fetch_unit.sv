// Fetch (docs/isa.md, docs/architecture.md): reads the instruction stream from DRAM,
// checks each instruction in program order and dispatches it to the LOAD, GEMM or DRAIN
// queue.
//
// A run starts on start_i (ignored while a run is under way): insn_count_i instructions
// of 64 bytes from insn_addr_i (its low 6 bits are ignored: instructions are read from
// 64-byte aligned addresses, so no burst crosses a 4 KiB boundary). Each instruction is
// one INCR burst of BEATS full beats. Up to SLOTS instructions are read ahead into
// registers; the R beats of the fetch ID come back in order, so slot k of the ring holds
// the k-th outstanding instruction.
//
// Each instruction is checked once all its beats are in, in program order, by
// accel_insn_check's pipeline (its LATENCY cycles, one instruction a cycle), while earlier
// ones wait in their slots: the verdict is kept with the slot, so the dispatch path sees
// only registered bits and no arithmetic. The checker takes its copy of the instruction
// from a register of its own that the beats fill as they fill the slot, not from the
// slots through a multiplexer (whose select, fanned out to 512 bits, was the FPGA's
// longest path; docs/fpga.md): the cycle after its last beat, as the R beats of the run
// come back in program order and the checker takes one instruction a cycle. The head instruction is processed once its
// verdict is in, in order of precedence:
//   a beat of it came back with RRESP != OKAY  -> err_o BUS_ERROR, stop
//   illegal                                    -> err_o ILLEGAL_INSTRUCTION, stop
//   SRAM range error                           -> err_o SRAM_RANGE, stop
//   FINISH                                     -> finished_o (level until the next start), stop
//   LOAD / GEMM / DRAIN                        -> insn_o + <unit>_push_o once <unit>_full_i is low
// After insn_count_i instructions without a FINISH: err_o NO_FINISH, stop (at once for a
// count of 0). A bus error is only reported when its instruction is reached, so a
// prefetch past the end of the program never raises one. err_o is a one-cycle pulse,
// visible in the first cycle in which the unit is stopped.
//
// After a stop no more reads are issued (an AR already shown on the bus is kept until
// accepted, as AXI requires) and the R beats of reads still outstanding are accepted and
// discarded; a new run may start meanwhile and its beats are told apart by order.
//
// state_o: idle (stopped), waiting (the next instruction waits for a full queue), busy.
// quiet_o: no read outstanding, and stopped or waiting for a full queue.
`include "accel_assert.svh"
`default_nettype none

module accel_fetch_unit #(
    parameter int BEAT_BYTES = 8,     // AXI data bytes per beat (power of two, 4..128)
    parameter int BLOCK_IN   = 16,    // input channels per INP entry, for the LOAD check
    parameter int INP_DEPTH  = 2048,  // input buffer entries, for the range check
    parameter int WGT_DEPTH  = 1024,  // weight buffer entries
    parameter int ACC_DEPTH  = 2048,  // accumulator entries
    parameter int PRM_DEPTH  = 64,    // parameter table entries
    localparam int DW = 8 * BEAT_BYTES
) (
    input  wire logic                                 clk_i,
    input  wire logic                                 rst_i,
    // control
    input  wire logic                                 start_i,
    input  wire logic [31:0]                          insn_addr_i,
    input  wire logic [31:0]                          insn_count_i,
    // AXI read port: INCR bursts of full beats (accel_axi_read_arbiter adds ARID,
    // accel_top ties the size and burst type)
    output logic                                      ar_valid_o,
    input  wire logic                                 ar_ready_i,
    output logic      [31:0]                          ar_addr_o,
    output logic      [7:0]                           ar_len_o,
    input  wire logic                                 r_valid_i,
    output logic                                      r_ready_o,
    input  wire logic [DW-1:0]                        r_data_i,
    input  wire logic [1:0]                           r_resp_i,
    input  wire logic                                 r_last_i,
    // dispatch: insn_o is valid with the push
    output logic      [accel_isa_pkg::INSN_BITS-1:0]  insn_o,
    output logic                                      load_push_o,
    output logic                                      gemm_push_o,
    output logic                                      drain_push_o,
    input  wire logic                                 load_full_i,
    input  wire logic                                 gemm_full_i,
    input  wire logic                                 drain_full_i,
    // status
    output logic                                      finished_o,
    output logic      [accel_isa_pkg::ERR_W-1:0]            err_o,
    output logic      [accel_isa_pkg::UNIT_STATE_W-1:0] state_o,  // unit_state_e
    output logic                                      quiet_o
);
    localparam int IB = accel_isa_pkg::INSN_BITS;              // bits per instruction
    localparam int INSN_BYTES = IB / 8;                        // 64
    localparam int BEATS = (BEAT_BYTES >= INSN_BYTES) ? 1 : INSN_BYTES / BEAT_BYTES;
    localparam int BTW = accel_isa_pkg::index_w(BEATS);  // beat index bits
    localparam int SLOTS = accel_isa_pkg::FETCH_SLOTS;         // instructions read ahead
    localparam int SW = $clog2(SLOTS);                         // slot index bits
    localparam int CW = $clog2(SLOTS + 1);                     // slot/burst count bits
    localparam int OB = $clog2(INSN_BYTES);                    // address bits within an instruction

    if (BEAT_BYTES < 4 || BEAT_BYTES > 128 || (BEAT_BYTES & (BEAT_BYTES - 1)) != 0) begin : g_bad_beat
        $error("accel_fetch_unit: BEAT_BYTES must be a power of two in 4..128 (at most 16 beats per instruction)");
    end

    // What UNIT_STATE reports for fetch: stopped, waiting for room in a unit's queue, busy.
    localparam accel_isa_pkg::unit_state_e ST_IDLE = accel_isa_pkg::UNIT_IDLE,
                                           ST_WAIT_QUEUE = accel_isa_pkg::UNIT_WAITING,
                                           ST_BUSY = accel_isa_pkg::UNIT_BUSY;

    // ---------------- registers ----------------
    logic            run_q, finished_q;
    logic [accel_isa_pkg::ERR_W-1:0] err_q;
    logic [31:0]     issue_left_q;   // instructions of this run not yet requested
    logic [31:0]     proc_left_q;    // instructions of this run not yet processed
    // Whether proc_left_q / issue_left_q is 0, in registers that follow them: the
    // dispatch decision and the AR request then start from flags, not from 32-bit
    // comparisons (docs/fpga.md, timing).
    logic            proc_none_q, issue_none_q;
    logic [31:0]     next_addr_q;    // address of the next request
    logic            ar_valid_q;
    logic [31:0]     ar_addr_q;
    logic [CW-1:0]   used_q;         // slots held by this run (requested, not yet processed)
    logic [CW-1:0]   bursts_q;       // bursts requested and not yet complete, all runs
    logic [CW-1:0]   discard_q;      // of those, the oldest ones, from stopped runs
    logic [SW-1:0]   tail_q;         // next slot to request into
    logic [SW-1:0]   wr_q;           // slot the next R beat of this run goes to
    logic [SW-1:0]   head_q;         // next slot to process
    logic [BTW-1:0]  beat_q;         // beat index within the current burst
    // The read-ahead slots: registers (mem2reg), indexed as an array so that the
    // simulator reads the head by index, not by a wide shift.
    (* mem2reg *) logic [IB-1:0] slot_data_q [SLOTS];
    logic [SLOTS-1:0] slot_err_q;    // a beat came back with an error response
    logic [SLOTS-1:0] slot_chk_q;    // its verdict is in: slot_ill_q, slot_rng_q
    logic [SLOTS-1:0] slot_ill_q, slot_rng_q;
    logic [IB-1:0]   chk_insn_q;     // the instruction whose beats came in last
    logic            chk_new_q;      // ... all of them, in the cycle before, into the
                                     // slot before wr_q (which moved on with its last beat)

    // ---------------- the checker: slots in order, verdicts kept per slot ----------------
    logic          chk_go, chk_done, chk_illegal, chk_range, stop;
    logic [SW-1:0] chk_slot;
    assign chk_go = run_q && chk_new_q;

    accel_insn_check #(
        .BEAT_BYTES(BEAT_BYTES),
        .BLOCK_IN  (BLOCK_IN),
        .INP_DEPTH (INP_DEPTH),
        .WGT_DEPTH (WGT_DEPTH),
        .ACC_DEPTH (ACC_DEPTH),
        .PRM_DEPTH (PRM_DEPTH),
        .TAG_W     (SW)
    ) u_check (
        .clk_i        (clk_i),
        .rst_i        (rst_i),
        .flush_i      (stop),  // a stopped run's verdicts are never wanted
        .valid_i      (chk_go),
        .insn_i       (chk_insn_q),
        .tag_i        (wr_q - SW'(1)),
        .valid_o      (chk_done),
        .illegal_o    (chk_illegal),
        .range_error_o(chk_range),
        .tag_o        (chk_slot)
    );

    // ---------------- the head instruction ----------------
    logic [IB-1:0] head_insn;
    logic [accel_isa_pkg::OPCODE_W-1:0] head_op;
    assign head_insn = slot_data_q[head_q];
    assign head_op   = head_insn[accel_isa_pkg::OPCODE_LO +: accel_isa_pkg::OPCODE_W];

    // ---------------- next state ----------------
    logic r_fire, r_disc, r_cur, r_end;
    logic ar_new, act, dispatch, waiting;
    logic target_full;
    logic [accel_isa_pkg::ERR_W-1:0] err_d;

    assign r_ready_o = 1'b1;  // a slot is reserved for every read of the run; discards are free
    assign r_fire    = r_valid_i;
    assign r_disc    = (discard_q != '0);
    assign r_cur     = r_fire && !r_disc && run_q;
    assign r_end     = r_fire && r_last_i && (bursts_q != '0);

    assign ar_new = run_q && !issue_none_q && (32'(used_q) + 32'(discard_q) < SLOTS) &&
                    (!ar_valid_q || ar_ready_i);

    always_comb begin
        unique case (head_op)
            accel_isa_pkg::OP_LOAD: target_full = load_full_i;
            accel_isa_pkg::OP_GEMM: target_full = gemm_full_i;
            default:                target_full = drain_full_i;
        endcase
    end

    assign act = run_q && !proc_none_q && slot_chk_q[head_q];
    always_comb begin
        err_d    = '0;
        stop     = 1'b0;
        dispatch = 1'b0;
        waiting  = 1'b0;
        if (run_q && proc_none_q) begin
            err_d = accel_isa_pkg::ERR_NO_FINISH;
            stop  = 1'b1;
        end else if (act) begin
            if (slot_err_q[head_q]) err_d = accel_isa_pkg::ERR_BUS_ERROR;
            else if (slot_ill_q[head_q]) err_d = accel_isa_pkg::ERR_ILLEGAL_INSTRUCTION;
            else if (slot_rng_q[head_q]) err_d = accel_isa_pkg::ERR_SRAM_RANGE;
            if (err_d != '0 || head_op == accel_isa_pkg::OP_FINISH) stop = 1'b1;
            else if (target_full) waiting = 1'b1;
            else dispatch = 1'b1;
        end
    end

    assign insn_o       = head_insn;
    assign load_push_o  = dispatch && head_op == accel_isa_pkg::OP_LOAD;
    assign gemm_push_o  = dispatch && head_op == accel_isa_pkg::OP_GEMM;
    assign drain_push_o = dispatch && head_op == accel_isa_pkg::OP_DRAIN;

    assign ar_valid_o = ar_valid_q;
    assign ar_addr_o  = ar_addr_q;
    assign ar_len_o   = 8'(BEATS - 1);
`ifdef ACCEL_ASSERT_ON
    // AXI: a read request stays unchanged until accepted, whatever stops fetch meanwhile.
    accel_prim_valid_ready_check #(.WIDTH(40)) u_ar_check (
        .clk_i, .rst_i, .valid_i(ar_valid_o), .ready_i(ar_ready_i),
        .payload_i({ar_addr_o, ar_len_o}));
`endif
    assign finished_o = finished_q;
    assign err_o      = err_q;
    assign state_o    = !run_q ? ST_IDLE : waiting ? ST_WAIT_QUEUE : ST_BUSY;
    assign quiet_o    = (bursts_q == '0) && (!run_q || waiting);

    logic [CW-1:0] bursts_d;
    assign bursts_d = bursts_q + CW'(ar_new) - CW'(r_end);

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            run_q        <= 1'b0;
            finished_q   <= 1'b0;
            err_q        <= '0;
            issue_left_q <= '0;
            proc_left_q  <= '0;
            issue_none_q <= 1'b1;
            proc_none_q  <= 1'b1;
            next_addr_q  <= '0;
            ar_valid_q   <= 1'b0;
            ar_addr_q    <= '0;
            used_q       <= '0;
            bursts_q     <= '0;
            discard_q    <= '0;
            tail_q       <= '0;
            wr_q         <= '0;
            head_q       <= '0;
            beat_q       <= '0;
            slot_err_q   <= '0;
            slot_chk_q   <= '0;
            chk_new_q    <= 1'b0;
        end else begin
            err_q    <= err_d;
            bursts_q <= bursts_d;

            // AR channel: a request stays on the bus until accepted, run or no run.
            if (ar_new) begin
                ar_valid_q   <= 1'b1;
                ar_addr_q    <= next_addr_q;
                next_addr_q  <= next_addr_q + 32'(INSN_BYTES);
                issue_left_q <= issue_left_q - 32'd1;
                issue_none_q <= issue_left_q == 32'd1;
                tail_q       <= tail_q + SW'(1);
                slot_err_q[tail_q]  <= 1'b0;
                slot_chk_q[tail_q]  <= 1'b0;
            end else if (ar_ready_i) begin
                ar_valid_q <= 1'b0;
            end

            // R channel
            if (r_fire) beat_q <= r_last_i ? '0 : beat_q + BTW'(1);
            if (r_cur) begin
                if (r_resp_i != 2'b00) slot_err_q[wr_q] <= 1'b1;
                if (r_last_i) wr_q <= wr_q + SW'(1);
            end

            // the checker: the instruction whose last beat just came in
            chk_new_q <= r_cur && r_last_i;
            if (chk_done) begin
                slot_chk_q[chk_slot] <= 1'b1;
                slot_ill_q[chk_slot] <= chk_illegal;
                slot_rng_q[chk_slot] <= chk_range;
            end

            // the head
            if (dispatch) begin
                head_q      <= head_q + SW'(1);
                proc_left_q <= proc_left_q - 32'd1;
                proc_none_q <= proc_left_q == 32'd1;
                slot_chk_q[head_q]  <= 1'b0;
            end
            used_q <= used_q + CW'(ar_new) - CW'(dispatch);

            if (stop) begin
                // everything still outstanding now belongs to a stopped run
                run_q     <= 1'b0;
                used_q    <= '0;
                discard_q <= bursts_d;
                if (err_d == '0) finished_q <= 1'b1;  // stopped on FINISH
            end else if (r_fire && r_last_i && r_disc) begin
                discard_q <= discard_q - CW'(1);
            end

            if (start_i && !run_q) begin
                run_q        <= 1'b1;
                finished_q   <= 1'b0;
                issue_left_q <= insn_count_i;
                proc_left_q  <= insn_count_i;
                issue_none_q <= insn_count_i == '0;
                proc_none_q  <= insn_count_i == '0;
                next_addr_q  <= {insn_addr_i[31:OB], OB'(0)};
                used_q       <= '0;
                tail_q       <= '0;
                wr_q         <= '0;
                head_q       <= '0;
                slot_chk_q   <= '0;
            end
        end
    end

    // Instruction storage: beat b of the burst for slot s lands in bits
    // [s*IB + b*DW +: DW]; with beats wider than an instruction, the instruction is the
    // 64-byte lane its address selects.
    if (BEATS > 1) begin : g_narrow
        // One write enable per (slot, beat): constant offsets, so synthesis builds no
        // shifter across the 512-bit entry.
        // (wr_q, beat_q) also as one-hot registers that move with them: each enable is
        // then one gate of r_cur and two register bits, not a decoder of both counts
        // (docs/fpga.md, timing).
        logic [SLOTS-1:0] slot_oh_q;
        logic [BEATS-1:0] beat_oh_q;
        always_ff @(posedge clk_i) begin
            if (rst_i) begin
                slot_oh_q <= SLOTS'(1);
                beat_oh_q <= BEATS'(1);
            end else begin
                if (r_fire) beat_oh_q <= r_last_i ? BEATS'(1)
                                                  : {beat_oh_q[BEATS-2:0], beat_oh_q[BEATS-1]};
                if (start_i && !run_q) slot_oh_q <= SLOTS'(1);
                else if (r_cur && r_last_i) slot_oh_q <= {slot_oh_q[SLOTS-2:0], slot_oh_q[SLOTS-1]};
            end
        end
        `ACCEL_ASSERT(a_one_hot_pointers, slot_oh_q == SLOTS'(1) << wr_q &&
                      beat_oh_q == BEATS'(1) << beat_q, clk_i, rst_i)
        for (genvar s = 0; s < SLOTS; s++) begin : g_slot
            for (genvar b = 0; b < BEATS; b++) begin : g_beat
                always_ff @(posedge clk_i) begin
                    if (r_cur && slot_oh_q[s] && beat_oh_q[b]) begin
                        slot_data_q[s][b*DW +: DW] <= r_data_i;
                    end
                end
            end
        end
        for (genvar b = 0; b < BEATS; b++) begin : g_chk_beat
            always_ff @(posedge clk_i) begin
                if (r_cur && beat_oh_q[b]) chk_insn_q[b*DW +: DW] <= r_data_i;
            end
        end
        logic unused_addr_bits;  // instructions are 64-byte aligned
        assign unused_addr_bits = ^insn_addr_i[OB-1:0];
    end else begin : g_wide
        localparam int LANES = BEAT_BYTES / INSN_BYTES;
        localparam int LW = accel_isa_pkg::index_w(LANES);
        logic [LW-1:0] lane_q;  // the lane of the next instruction of this run to come back
        logic [IB-1:0] lane_data;
        if (LANES > 1) begin : g_lanes
            always_ff @(posedge clk_i) begin
                if (start_i && !run_q) lane_q <= insn_addr_i[OB +: LW];
                else if (r_cur && r_last_i) lane_q <= lane_q + LW'(1);
            end
            assign lane_data = r_data_i[lane_q*IB +: IB];
        end else begin : g_one_lane
            assign lane_q    = '0;
            assign lane_data = r_data_i;
        end
        always_ff @(posedge clk_i) begin
            if (r_cur) begin
                slot_data_q[wr_q] <= lane_data;
                chk_insn_q        <= lane_data;
            end
        end
        logic unused_bits;  // instructions are 64-byte aligned; a single-beat burst has no index
        assign unused_bits = ^{insn_addr_i[OB-1:0], beat_q, lane_q};
    end

    `ACCEL_ASSERT(a_none_flags_follow_counts,
                  proc_none_q == (proc_left_q == '0) && issue_none_q == (issue_left_q == '0),
                  clk_i, rst_i)
endmodule

`default_nettype wire
