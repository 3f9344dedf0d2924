// The AXI write side of the drain unit: turns a stream of beat addresses (one per
// reserved beat, in order) and, some cycles later, the stream of their data beats into
// INCR bursts on AW/W/B.
//
// - Coalescing: a beat whose address follows the open burst's last beat joins it,
//   unless the burst already has AXI_MAX_BURST_BEATS (16) beats or the beat starts an
//   AXI_PAGE_BYTES (4 KiB) page (accel_isa_pkg, from sw/hw/dram_bus.hpp); otherwise
//   the open burst closes and the beat opens a new one. flush_i closes the open burst
//   (end of an instruction). Addresses must be beat aligned (fetch checks this).
// - A closed burst goes to AW (at most MAX_OUTSTANDING bursts awaiting B) and its
//   length to the W side, which sends its beats with w_last on the last. W never waits
//   for the AW handshake (AXI: the master must not wait for AWREADY before WVALID),
//   only for the burst's length to be known.
// - Data beats wait in a BUF_DEPTH-beat buffer (accel_prim_sram_1r1w). addr_ready_o
//   reserves a slot for each address accepted, so the data side (beat_valid_i) never
//   needs a ready: the caller may run a pipeline of any length between the two.
// - A B response with an error code: err_o pulses (once), no more addresses are
//   accepted, the bursts already closed still complete on the bus (so no slave is left
//   with half a burst), and bus_quiet_o tells when nothing is owed any more.
`include "accel_assert.svh"
`default_nettype none

module accel_drain_burst_writer #(
    parameter int BEAT_BYTES = 8,        // AXI data bytes per beat, power of two, <= 128
    parameter int MAX_OUTSTANDING = 8,   // bursts awaiting B (>= 1)
    parameter int BUF_DEPTH = 32,        // data beats buffered; power of two, above the
                                         // longest burst so that one still open never blocks
    parameter int CMD_DEPTH = 4,         // closed bursts waiting for AW (>= 1)
    localparam int DW = 8 * BEAT_BYTES
) (
    input  wire logic          clk_i,
    input  wire logic          rst_i,
    // beat addresses, in data order; each accepted one reserves a buffer slot
    input  wire logic          addr_valid_i,
    input  wire logic [31:0]   addr_i,
    output logic               addr_ready_o,
    input  wire logic          flush_i,       // close the open burst
    // data beats, in address order, any time after their address was accepted
    input  wire logic          beat_valid_i,
    input  wire logic [DW-1:0] beat_i,
    // AXI4 write channels (INCR, full beats; the top ties size, burst and strobes)
    output logic               aw_valid_o,
    input  wire logic          aw_ready_i,
    output logic      [31:0]   aw_addr_o,
    output logic      [7:0]    aw_len_o,
    output logic               w_valid_o,
    input  wire logic          w_ready_i,
    output logic      [DW-1:0] w_data_o,
    output logic               w_last_o,
    input  wire logic          b_valid_i,
    output logic               b_ready_o,
    input  wire logic [1:0]    b_resp_i,
    // status
    output logic               err_o,         // pulse: the first B with an error
    output logic               idle_o,        // nothing reserved, open, queued or owed
    output logic               bus_quiet_o    // no burst left to issue, send or answer
);
    localparam int BAW = $clog2(BUF_DEPTH);          // buffer address bits
    localparam int RW = $clog2(BUF_DEPTH + 1);       // reservation count bits
    localparam int OW = $clog2(MAX_OUTSTANDING + 1); // outstanding count bits
    localparam int WLEN_DEPTH = CMD_DEPTH + MAX_OUTSTANDING;  // closed, W not done
    localparam logic [31:0] BEAT = 32'(BEAT_BYTES);
    localparam int MAX_BURST = accel_isa_pkg::AXI_MAX_BURST_BEATS;
    localparam int LEN_W = $clog2(MAX_BURST);                     // an AXI length: beats - 1
    localparam int BLEN_W = $clog2(MAX_BURST + 1);                // a burst's beats
    localparam int PAGE_LG = $clog2(accel_isa_pkg::AXI_PAGE_BYTES);
    localparam int CMD_W = 32 + LEN_W;                            // {address, len - 1}

    if (BEAT_BYTES < 1 || BEAT_BYTES > 128 || (BEAT_BYTES & (BEAT_BYTES - 1)) != 0)
    begin : g_bad_beat
        $error("accel_drain_burst_writer: BEAT_BYTES must be a power of two up to 128");
    end
    if (MAX_OUTSTANDING < 1) begin : g_bad_outstanding
        $error("accel_drain_burst_writer: MAX_OUTSTANDING must be at least 1");
    end
    if (BUF_DEPTH <= MAX_BURST || (BUF_DEPTH & (BUF_DEPTH - 1)) != 0) begin : g_bad_buf
        $error("accel_drain_burst_writer: BUF_DEPTH must be a power of two above %0d", MAX_BURST);
    end
    if (CMD_DEPTH < 1) begin : g_bad_cmd
        $error("accel_drain_burst_writer: CMD_DEPTH must be at least 1");
    end

    logic err_q;
    logic cmd_full, cmd_empty, wlen_full, wlen_empty;
    logic [CMD_W-1:0] cmd_head;  // {address, len - 1}
    logic [LEN_W-1:0] wlen_head;
    logic [RW-1:0] resv_q;
    logic room_q;  // resv_q < BUF_DEPTH, kept beside it: addr_ready_o is then one gate of
                   // registers, and the drain's fire follows it (docs/fpga.md, timing)
    logic [OW-1:0] out_q;

    // ---------------------------------------------------------------- coalescing
    logic              open_q;
    logic [31:0]       bstart_q, bnext_q;  // first beat, and the address that would extend
    logic [BLEN_W-1:0] blen_q;             // beats in the open burst, 1..MAX_BURST
    logic              addr_fire, extend, close;
    logic [LEN_W-1:0]  blen_m1;            // AXI length field of the open burst (16 -> 15)
    logic [CMD_W-1:0]  cmd_push;           // {address, len - 1}
    assign blen_m1 = blen_q[LEN_W-1:0] - LEN_W'(1);
    assign cmd_push = {bstart_q, blen_m1};

    assign addr_ready_o = !err_q && room_q && !cmd_full && !wlen_full;
    assign addr_fire = addr_valid_i && addr_ready_o;
    assign extend = open_q && (addr_i == bnext_q) && (blen_q != BLEN_W'(MAX_BURST)) &&
                    (addr_i[PAGE_LG-1:0] != '0);
    assign close = open_q && (addr_fire ? !extend
                                        : (flush_i && !err_q && !cmd_full && !wlen_full));

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            open_q <= 1'b0;
        end else if (addr_fire) begin
            open_q <= 1'b1;
            if (extend) begin
                blen_q  <= blen_q + BLEN_W'(1);
                bnext_q <= bnext_q + BEAT;
            end else begin
                bstart_q <= addr_i;
                blen_q   <= BLEN_W'(1);
                bnext_q  <= addr_i + BEAT;
            end
        end else if (close) begin
            open_q <= 1'b0;
        end
    end

    // ---------------------------------------------------------------- AW
    logic aw_fire;
    accel_prim_fifo_sync #(.WIDTH(CMD_W), .DEPTH(CMD_DEPTH)) u_cmd (
        .clk_i, .rst_i, .push_i(close), .wdata_i(cmd_push),
        .full_o(cmd_full), .pop_i(aw_fire), .rdata_o(cmd_head), .empty_o(cmd_empty));

    // Valid stays up until the handshake: the head stays, out_q only falls meanwhile.
    assign aw_valid_o = !cmd_empty && (out_q < OW'(MAX_OUTSTANDING));
    assign aw_addr_o  = cmd_head[CMD_W-1:LEN_W];
    assign aw_len_o   = 8'(cmd_head[LEN_W-1:0]);
    assign aw_fire    = aw_valid_o && aw_ready_i;

    // ---------------------------------------------------------------- beat buffer
    // The SRAM's read register is the W data register: head_v_q says it holds the
    // oldest beat not yet sent; it is refilled in the cycle that beat goes out.
    logic [BAW-1:0] wp_q, rp_q;
    logic [BAW:0]   mem_cnt_q;  // beats written and not yet read out
    logic           head_v_q, rd, w_fire;

    assign rd = (mem_cnt_q != '0) && (!head_v_q || w_fire);

    accel_prim_sram_1r1w #(.WIDTH(DW), .DEPTH(BUF_DEPTH)) u_buf (
        .clk_i, .we_i(beat_valid_i), .waddr_i(wp_q), .wdata_i(beat_i),
        .re_i(rd), .raddr_i(rp_q), .rdata_o(w_data_o));

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            wp_q      <= '0;
            rp_q      <= '0;
            mem_cnt_q <= '0;
            head_v_q  <= 1'b0;
        end else begin
            if (beat_valid_i) wp_q <= wp_q + BAW'(1);
            if (rd) rp_q <= rp_q + BAW'(1);
            mem_cnt_q <= mem_cnt_q + (BAW+1)'(beat_valid_i) - (BAW+1)'(rd);
            if (rd) head_v_q <= 1'b1;
            else if (w_fire) head_v_q <= 1'b0;
        end
    end

    // ---------------------------------------------------------------- W
    logic [LEN_W-1:0] wcnt_q;  // beat of the current W burst
    accel_prim_fifo_sync #(.WIDTH(LEN_W), .DEPTH(WLEN_DEPTH)) u_wlen (
        .clk_i, .rst_i, .push_i(close), .wdata_i(blen_m1),
        .full_o(wlen_full), .pop_i(w_fire && w_last_o), .rdata_o(wlen_head),
        .empty_o(wlen_empty));

    assign w_valid_o = !wlen_empty && head_v_q;
    assign w_last_o  = (wcnt_q == wlen_head);
    assign w_fire    = w_valid_o && w_ready_i;

    always_ff @(posedge clk_i) begin
        if (rst_i) wcnt_q <= '0;
        else if (w_fire) wcnt_q <= w_last_o ? '0 : wcnt_q + LEN_W'(1);
    end

    // ---------------------------------------------------------------- B and counts
    assign b_ready_o = 1'b1;
    assign err_o = b_valid_i && (b_resp_i != 2'b00) && !err_q;

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            err_q  <= 1'b0;
            resv_q <= '0;
            room_q <= 1'b1;
            out_q  <= '0;
        end else begin
            if (err_o) err_q <= 1'b1;
            resv_q <= resv_q + RW'(addr_fire) - RW'(w_fire);
            if (addr_fire && !w_fire) room_q <= resv_q < RW'(BUF_DEPTH - 1);
            else if (w_fire && !addr_fire) room_q <= 1'b1;
            out_q  <= out_q + OW'(aw_fire) - OW'(b_valid_i && out_q != '0);
        end
    end

    assign bus_quiet_o = cmd_empty && wlen_empty && (out_q == '0);
    assign idle_o = bus_quiet_o && !open_q && (resv_q == '0);
    `ACCEL_ASSERT(a_room_flag, room_q == (resv_q < RW'(BUF_DEPTH)), clk_i, rst_i)
endmodule

`default_nettype wire
