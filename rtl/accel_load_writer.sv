// Write side of the load unit: assembles R beats into entries and writes one entry
// per cycle at the walker's cursor (accel_load_dst_walk). A padding entry is written at
// once; a data entry is written in the cycle after its last beat lands. The entry
// register doubles as the write-data register: the next entry's first beat lands at
// the same edge at which the SRAM takes the finished entry, so a beat per cycle
// streams through with no second copy of the entry. The last beat of an entry is
// refused (ready low) while the cursor is on padding; earlier beats of the entry are
// taken meanwhile, so padding overlaps the beats of entries longer than one beat.
`include "accel_assert.svh"
`default_nettype none

module accel_load_writer #(
    parameter int BEAT_BYTES = 8,  // bytes per AXI beat (>= 1)
    parameter int MAX_BPE    = 32, // beats of the largest entry (>= 1)
    parameter int AW         = 16, // bits of the destination address
    localparam int DW   = 8 * BEAT_BYTES,
    localparam int BI_W = accel_isa_pkg::index_w(MAX_BPE)
) (
    input  wire logic                  clk_i,
    input  wire logic                  rst_i,
    input  wire logic                  start_i,      // a new instruction (cursor at its start)
    input  wire logic [BI_W-1:0]       bpe_last_i,   // its beats per entry - 1 (at start_i)
    input  wire logic                  halt_i,       // write nothing more
    // Cursor of accel_load_dst_walk.
    input  wire logic                  cur_valid_i,
    input  wire logic                  cur_data_i,
    input  wire logic [AW-1:0]         cur_addr_i,
    output logic                       step_o,       // the cursor's entry is written
    // Data beats (in order, error beats already removed).
    input  wire logic                  beat_valid_i,
    input  wire logic [DW-1:0]         beat_data_i,
    output logic                       beat_ready_o,
    // Write port, registered: entry_o byte k = entry byte k (padding: see pad_o).
    output logic                       we_o,
    output logic      [AW-1:0]         waddr_o,
    output logic                       pad_o,        // write the pad value, not entry_o
    output logic      [MAX_BPE*DW-1:0] entry_o
);
    if (BEAT_BYTES < 1 || MAX_BPE < 1) begin : g_bad_params
        $error("accel_load_writer: BEAT_BYTES and MAX_BPE must be >= 1, got %0d, %0d",
               BEAT_BYTES, MAX_BPE);
    end

    logic [BI_W-1:0]       beat_q, bpe_last_q;  // next beat's slot in the entry
    logic [MAX_BPE*DW-1:0] entry_q;
    logic                  we_q, pad_q;
    logic [AW-1:0]         waddr_q;

    // Whether the next beat is the entry's last is a register (last_q), worked out as
    // beat_q moves: the writer's step, which the walker's registers follow, then starts
    // from flags (docs/fpga.md, timing).
    logic last_q, one_beat_q;   // beat_q == bpe_last_q; entries of one beat
    logic [BI_W-1:0] bpe_m2_q;  // bpe_last_q - 1: the beat before the last
    logic last_beat, beat_fire;
    assign last_beat    = last_q;
    assign beat_ready_o = cur_valid_i && (!last_beat || cur_data_i);
    assign beat_fire    = beat_valid_i && beat_ready_o;
    assign step_o       = cur_valid_i && !halt_i && (!cur_data_i || (beat_fire && last_beat));

    always_ff @(posedge clk_i) begin
        if (start_i) begin
            beat_q     <= '0;
            bpe_last_q <= bpe_last_i;
            bpe_m2_q   <= bpe_last_i - BI_W'(1);
            one_beat_q <= bpe_last_i == '0;
            last_q     <= bpe_last_i == '0;
        end else if (beat_fire) begin
            beat_q <= last_beat ? '0 : beat_q + BI_W'(1);
            last_q <= last_beat ? one_beat_q : beat_q == bpe_m2_q;
        end
    end

    // beat_q also one-hot, moving with it: a slot's load enable is one gate of
    // beat_fire and a register bit, not a decoder (docs/fpga.md, timing).
    logic [MAX_BPE-1:0] slot_oh_q;
    always_ff @(posedge clk_i) begin
        if (start_i || (beat_fire && last_beat)) slot_oh_q <= MAX_BPE'(1);
        else if (beat_fire) slot_oh_q <= slot_oh_q << 1;
    end
    always_ff @(posedge clk_i) begin
        for (int k = 0; k < MAX_BPE; k++) begin
            if (beat_fire && slot_oh_q[k]) entry_q[k*DW +: DW] <= beat_data_i;
        end
    end
    `ACCEL_ASSERT(a_slot_one_hot, cur_valid_i |-> slot_oh_q == MAX_BPE'(1) << beat_q, clk_i, rst_i)

    always_ff @(posedge clk_i) begin
        if (rst_i) we_q <= 1'b0;
        else       we_q <= step_o;
        waddr_q <= cur_addr_i;
        pad_q   <= !cur_data_i;
    end

    assign we_o    = we_q;
    assign waddr_o = waddr_q;
    assign pad_o   = pad_q;
    assign entry_o = entry_q;

    // A beat lands in a slot of the entry, and once halted nothing more is written.
    `ACCEL_ASSERT(a_beat_in_entry, beat_fire |-> beat_q <= bpe_last_q, clk_i, rst_i)
    `ACCEL_ASSERT(a_last_flag, cur_valid_i |-> last_q == (beat_q == bpe_last_q), clk_i, rst_i)
    `ACCEL_ASSERT(a_halt_stops_writes, halt_i |=> !we_o, clk_i, rst_i)
    `ACCEL_ASSERT_KNOWN(a_handshakes_known, {beat_ready_o, step_o, we_o}, clk_i, rst_i)
endmodule

`default_nettype wire
