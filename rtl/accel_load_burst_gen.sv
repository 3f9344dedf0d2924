// AR side of the load unit: walks the data of a LOAD (z outer, then y, then x) as
// segments of seg_beats contiguous beats, seg_count per row (segment x of row y of
// plane z at base + z*z_stride + y*y_stride + x*x_stride, addresses modulo 2^32), and
// issues the AXI INCR bursts that read them. A contiguous row is one segment; a row
// whose entries lie apart is one segment per entry (docs/isa.md, LOAD). A burst has at
// most AXI_MAX_BURST_BEATS (16) beats, never crosses an AXI_PAGE_BYTES (4 KiB) boundary
// (accel_isa_pkg, from sw/hw/dram_bus.hpp) and never spans two segments. At most
// MAX_OUTSTANDING bursts are in flight (AR accepted, last beat not yet arrived).
// The next burst is computed from registers only: a segment's first burst can issue in
// the cycle after the previous one (segments of a single beat stream at a beat per
// cycle), its later bursts every other cycle (they follow a burst of 16 beats, or one
// cut at a page's end).
`include "accel_assert.svh"
`default_nettype none

module accel_load_burst_gen #(
    parameter int BEAT_BYTES      = 8,   // bytes per AXI beat: a power of two, 1..256
    parameter int MAX_OUTSTANDING = 8,   // bursts in flight at most (>= 1)
    parameter int ROW_BEATS_W     = 22   // bits of the beats-per-row count (>= BURST_W)
) (
    input  wire logic                   clk_i,
    input  wire logic                   rst_i,
    // Instruction, latched when start_i pulses (only while idle_o).
    input  wire logic                   start_i,
    input  wire logic [31:0]            base_i,      // byte address of the first row
    input  wire logic [15:0]            z_size_i,    // planes (>= 1)
    input  wire logic [15:0]            y_size_i,    // rows per plane (>= 1)
    input  wire logic [31:0]            z_stride_i,  // bytes between planes
    input  wire logic [31:0]            y_stride_i,  // bytes between rows
    input  wire logic [31:0]            x_stride_i,  // bytes between a row's segments
    input  wire logic [15:0]            seg_count_i, // segments per row (>= 1)
    input  wire logic [ROW_BEATS_W-1:0] seg_beats_i, // beats per segment (>= 1)
    // seg_beats_i saturated at AXI_MAX_BURST_BEATS + 1, for the first burst (its
    // producer works it out without the product that gives seg_beats_i)
    input  wire logic [$clog2(accel_isa_pkg::AXI_MAX_BURST_BEATS + 2)-1:0] seg_head_i,
    // Stop issuing; a pending AR (valid, not yet ready) is still held until accepted.
    input  wire logic                   halt_i,
    // AXI read address channel (INCR, full-beat size).
    output logic                        ar_valid_o,
    input  wire logic                   ar_ready_i,
    output logic      [31:0]            ar_addr_o,
    output logic      [7:0]             ar_len_o,
    input  wire logic                   r_last_i,    // a burst's last beat was taken
    output logic                        idle_o       // nothing to issue, nothing in flight
);
    localparam int BB_LG      = $clog2(BEAT_BYTES);
    localparam int MAX_BURST  = accel_isa_pkg::AXI_MAX_BURST_BEATS;
    localparam int BURST_W    = $clog2(MAX_BURST + 1);              // bits of a burst's beats
    localparam int PAGE_LG    = $clog2(accel_isa_pkg::AXI_PAGE_BYTES);
    localparam int PAGE_BEATS = accel_isa_pkg::AXI_PAGE_BYTES / BEAT_BYTES;  // beats in a page
    localparam int PG_W       = $clog2(PAGE_BEATS + 1);
    localparam int CNT_W      = $clog2(MAX_OUTSTANDING + 1);
    localparam int RB_W       = ROW_BEATS_W;

    if (BEAT_BYTES < 1 || BEAT_BYTES > 256 || (BEAT_BYTES & (BEAT_BYTES - 1)) != 0)
    begin : g_bad_beat
        $error("accel_load_burst_gen: BEAT_BYTES must be a power of two in 1..256, got %0d",
               BEAT_BYTES);
    end
    if (MAX_OUTSTANDING < 1) begin : g_bad_outstanding
        $error("accel_load_burst_gen: MAX_OUTSTANDING must be >= 1, got %0d", MAX_OUTSTANDING);
    end
    if (ROW_BEATS_W < BURST_W) begin : g_bad_row_w
        $error("accel_load_burst_gen: ROW_BEATS_W must be >= %0d, got %0d", BURST_W, ROW_BEATS_W);
    end

    logic             active_q;            // bursts left to issue
    logic [31:0]      addr_q;              // next burst's address
    logic [RB_W-1:0]  left_q;              // beats of the current segment not yet requested
    logic [31:0]      seg_q, row_q, plane_q;  // start of the current segment / row / plane
    logic [31:0]      x_stride_q, y_stride_q, z_stride_q;
    logic [RB_W-1:0]  seg_beats_q;
    logic [CNT_W-1:0] cnt_q;               // bursts in flight

    // The burst at addr_q, min(MAX_BURST, rest of the segment, rest of the page) beats,
    // is computed as addr_q and left_q are loaded and kept in registers (beats_q,
    // seg_end_q, to_page_q), so that the AR channel comes from registers: the memory
    // behind it checks the burst in the cycle it is offered (docs/fpga.md, timing).
    logic [BURST_W-1:0] beats_q;    // beats of the burst at addr_q
    logic               seg_end_q;  // it ends the segment
    logic [PG_W-1:0]    to_page_q;  // beats from addr_q to the end of its page
    // The segment x of row y of plane z, counted in accel_prim_count_last: whether each
    // is at its last value is a register, so the next segment's choice starts from
    // flags (docs/fpga.md, timing).
    logic               x_end, y_end, z_end;
    logic [15:0]        x_idx, y_idx, z_idx;  // (the addresses run alongside instead)
    logic               row_end;
    assign row_end = seg_end_q && x_end;

    // The burst of a segment's beats `left` from an address `to_page` beats before the
    // end of its page.
    function automatic logic [BURST_W:0] burst(input logic [RB_W-1:0] left,
                                               input logic [PG_W-1:0] to_page);
        logic [BURST_W-1:0] b;
        b = BURST_W'(MAX_BURST);
        if (left < RB_W'(MAX_BURST)) b = left[BURST_W-1:0];
        if (to_page < PG_W'(b)) b = to_page[BURST_W-1:0];
        burst = {left == RB_W'(b), b};  // {seg_end, beats}
    endfunction
    // The first burst of a segment: the segment, if it is short (at most MAX_BURST
    // beats) and its page does not end first, else up to the page's end or MAX_BURST.
    // The callers work out the three comparisons side by side, each from what it has in
    // registers, so the page's rest is never computed before them (docs/fpga.md, timing).
    function automatic logic [BURST_W:0] head_burst(input logic short_seg, page_first,
                                                    page_short,
                                                    input logic [BURST_W-1:0] to_page, seg);
        if (short_seg) head_burst = {!page_first, page_first ? to_page : seg};
        else head_burst = {1'b0, page_short ? to_page : BURST_W'(MAX_BURST)};
    endfunction
    // A LOAD's first, from its segment's saturated beats.
    localparam int HC_W = (PG_W > BURST_W + 1) ? PG_W : BURST_W + 1;
    function automatic logic [BURST_W:0] first_burst(input logic [BURST_W:0] head,
                                                     input logic [PG_W-1:0] to_page);
        first_burst = head_burst(head <= (BURST_W+1)'(MAX_BURST),   // head is the segment
                                 HC_W'(to_page) < HC_W'(head),      // the page ends first
                                 to_page < PG_W'(MAX_BURST),
                                 to_page[BURST_W-1:0], head[BURST_W-1:0]);
    endfunction
    // A later segment's, at beat `pb` of its page, from comparisons of pb against
    // registers and constants. seg_short_q: seg_beats_q <= MAX_BURST; page_cut_q:
    // PAGE_BEATS - seg_beats_q when it is (the page ends first, to_page < seg_beats_q,
    // exactly when pb > page_cut_q).
    logic            seg_short_q;
    logic [PG_W-1:0] page_cut_q;
    function automatic logic [BURST_W:0] seg_burst(input logic [PAGE_LG-BB_LG-1:0] pb);
        seg_burst = head_burst(seg_short_q, PG_W'(pb) > page_cut_q,
                               PG_W'(pb) > PG_W'(PAGE_BEATS - MAX_BURST),
                               BURST_W'(PG_W'(PAGE_BEATS) - PG_W'(pb)),  // when below MAX_BURST
                               seg_beats_q[BURST_W-1:0]);
    endfunction
    // (of an address's beat within its page)
    function automatic logic [PG_W-1:0] page_rest(input logic [PAGE_LG-BB_LG-1:0] beat);
        page_rest = PG_W'(PAGE_BEATS) - PG_W'(beat);
    endfunction

    // A segment's later burst is worked out in the cycle after the one before it went
    // out (settle_q), from left_q and to_page_q, not through their subtraction: such
    // bursts are those of a long segment, whose data takes a cycle a beat anyway.
    logic settle_q;
    assign ar_valid_o = active_q && !settle_q && (cnt_q != CNT_W'(MAX_OUTSTANDING));
    assign ar_addr_o  = addr_q;
    assign ar_len_o   = 8'(beats_q) - 8'd1;
    assign idle_o     = !active_q && (cnt_q == '0);

    logic ar_fire;
    assign ar_fire = ar_valid_o && ar_ready_i;

    accel_prim_count_last u_x (.clk_i, .rst_i, .load_i(start_i), .count_i(seg_count_i),
                               .step_i(ar_fire && seg_end_q), .value_o(x_idx), .last_o(x_end));
    accel_prim_count_last u_y (.clk_i, .rst_i, .load_i(start_i), .count_i(y_size_i),
                               .step_i(ar_fire && row_end), .value_o(y_idx), .last_o(y_end));
    accel_prim_count_last u_z (.clk_i, .rst_i, .load_i(start_i), .count_i(z_size_i),
                               .step_i(ar_fire && row_end && y_end), .value_o(z_idx),
                               .last_o(z_end));
    logic unused_idx;
    assign unused_idx = ^{x_idx, y_idx, z_idx};

    // The address after the current segment: the next segment of this row, the next
    // row of this plane or the next plane.
    logic [31:0] next_seg, next_row, next_plane;
    assign next_seg   = seg_q + x_stride_q;
    assign next_row   = row_q + y_stride_q;
    assign next_plane = plane_q + z_stride_q;

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            active_q <= 1'b0;
        end else if (start_i) begin
            active_q <= 1'b1;
        end else begin
            if (ar_fire && row_end && y_end && z_end) active_q <= 1'b0;
            // Halt only when no AR is pending: AXI forbids withdrawing ar_valid.
            if (halt_i && !(ar_valid_o && !ar_ready_i)) active_q <= 1'b0;
        end
    end

    // The next burst: the rest of this segment (its page continues, or the next page
    // starts), or the first burst of the segment at new_seg.
    logic [RB_W-1:0] left_n;
    logic [PG_W-1:0] to_page_n;
    logic [31:0]     new_seg;
    logic [PG_W-1:0] new_to_page, start_to_page;
    assign start_to_page = page_rest(base_i[PAGE_LG-1:BB_LG]);
    assign left_n    = left_q - RB_W'(beats_q);
    assign to_page_n = (to_page_q == PG_W'(beats_q)) ? PG_W'(PAGE_BEATS)
                                                      : to_page_q - PG_W'(beats_q);
    always_comb begin
        if (!row_end) new_seg = next_seg;
        else if (!y_end) new_seg = next_row;
        else new_seg = next_plane;
        new_to_page = page_rest(new_seg[PAGE_LG-1:BB_LG]);
    end

    always_ff @(posedge clk_i) begin
        if (start_i) begin
            addr_q      <= base_i;
            seg_q       <= base_i;
            row_q       <= base_i;
            plane_q     <= base_i;
            left_q      <= seg_beats_i;
            to_page_q   <= start_to_page;
            {seg_end_q, beats_q} <= first_burst((BURST_W+1)'(seg_head_i), start_to_page);
            seg_beats_q <= seg_beats_i;
            seg_short_q <= 32'(seg_head_i) <= MAX_BURST;
            page_cut_q  <= PG_W'(PAGE_BEATS) - PG_W'(seg_head_i);
            x_stride_q  <= x_stride_i;
            y_stride_q  <= y_stride_i;
            z_stride_q  <= z_stride_i;
        end else if (ar_fire) begin
            if (!seg_end_q) begin
                addr_q    <= addr_q + (32'(beats_q) << BB_LG);
                left_q    <= left_n;
                to_page_q <= to_page_n;
            end else begin
                addr_q    <= new_seg;
                left_q    <= seg_beats_q;
                to_page_q <= new_to_page;
                {seg_end_q, beats_q} <= seg_burst(new_seg[PAGE_LG-1:BB_LG]);
                if (!row_end) begin
                    seg_q   <= next_seg;
                end else if (!y_end) begin
                    seg_q   <= next_row;
                    row_q   <= next_row;
                end else begin  // next plane (or past the end: the values are then unused)
                    plane_q <= next_plane;
                    seg_q   <= next_plane;
                    row_q   <= next_plane;
                end
            end
        end else if (settle_q) begin
            {seg_end_q, beats_q} <= burst(left_q, to_page_q);
        end
    end

    always_ff @(posedge clk_i) begin
        if (rst_i || start_i) settle_q <= 1'b0;
        else settle_q <= ar_fire && !seg_end_q;
    end

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            cnt_q <= '0;
        end else if (ar_fire && !r_last_i) begin
            cnt_q <= cnt_q + CNT_W'(1);
        end else if (!ar_fire && r_last_i) begin
            cnt_q <= cnt_q - CNT_W'(1);
        end
    end

    // A LOAD starts only on an idle generator; a burst's last beat only returns for a
    // burst in flight, and no more than MAX_OUTSTANDING are.
    `ACCEL_ASSERT(a_start_idle, start_i |-> idle_o, clk_i, rst_i)
    `ACCEL_ASSERT(a_last_in_flight, r_last_i |-> cnt_q != '0, clk_i, rst_i)
    `ACCEL_ASSERT(a_segment_nonempty, start_i |-> seg_beats_i != '0 && seg_count_i != '0,
                  clk_i, rst_i)
    `ACCEL_ASSERT(a_head_saturates, start_i |-> 32'(seg_head_i) == ((32'(seg_beats_i) > MAX_BURST)
                  ? MAX_BURST + 1 : 32'(seg_beats_i)), clk_i, rst_i)
    `ACCEL_ASSERT(a_outstanding_max, cnt_q <= CNT_W'(MAX_OUTSTANDING), clk_i, rst_i)
    // The AXI rules of every burst shown: 1 to 16 beats, inside one 4 KiB page.
    `ACCEL_ASSERT(a_burst_len, ar_valid_o |-> beats_q != '0 && beats_q <= 5'd16, clk_i, rst_i)
    `ACCEL_ASSERT(a_burst_in_page,
                  ar_valid_o |-> 13'(ar_addr_o[11:BB_LG]) + 13'(ar_len_o) < 13'(PAGE_BEATS),
                  clk_i, rst_i)
    // Every burst shown is what the general rule gives.
    `ACCEL_ASSERT(a_segment_burst, active_q && !settle_q |->
                  {seg_end_q, beats_q} == burst(left_q, to_page_q), clk_i, rst_i)
    `ACCEL_ASSERT_KNOWN(a_ar_valid_known, {ar_valid_o, idle_o}, clk_i, rst_i)
endmodule

`default_nettype wire
