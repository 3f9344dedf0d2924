// Channel-packing window of the load unit (docs/isa.md, LOAD, pack_taps): a layer with
// few input channels (RGB) would use C of each BLOCK_IN-wide dot product, so a packing
// LOAD writes, per image, the first C bytes of P consecutive entries of the padded row
// side by side in one entry. The window holds the last P entries taken: each entry
// taken moves the older ones down by C bytes and lands its own first C bytes at
// (P-1)*C. The first P-1 entries of a row only fill the window (keep_i low). With
// pack_taps 0 an entry passes through unchanged. No added latency: the write carries
// the window as updated by the entry it takes.
`include "accel_assert.svh"
`default_nettype none

module accel_load_pack #(
    parameter int BATCH    = 1,   // images per entry
    parameter int BLOCK_IN = 16,  // bytes per image in an entry (1..255)
    localparam int EW = 8 * BATCH * BLOCK_IN
) (
    input  wire logic          clk_i,
    input  wire logic          start_i,   // a new instruction: taps_i, bytes_i valid
    input  wire logic [7:0]    taps_i,    // pack_taps P (0: no packing)
    input  wire logic [7:0]    bytes_i,   // pack_bytes C (P*C <= BLOCK_IN, fetch checks)
    input  wire logic          keep_i,    // the walker's cursor entry is written (this cycle)
    input  wire logic          take_i,    // the writer's registered write: an entry taken
    input  wire logic [EW-1:0] entry_i,   // that entry, padding already filled in
    output logic               we_o,
    output logic      [EW-1:0] wdata_o
);
    if (BATCH < 1 || BLOCK_IN < 1 || BLOCK_IN > 255) begin : g_bad_params
        $error("accel_load_pack: BATCH must be >= 1 and BLOCK_IN in 1..255, got %0d, %0d",
               BATCH, BLOCK_IN);
    end

    logic          on_q, keep_q;
    logic [8:0]    c_q, newest_q;  // C, and (P-1)*C: where the newest entry's bytes go
    logic [EW-1:0] window_q, window;
    logic [7:0]    taps_m1;
    assign taps_m1 = taps_i - 8'd1;

    always_ff @(posedge clk_i) begin
        if (start_i) begin
            on_q     <= taps_i != 8'd0;
            c_q      <= 9'(bytes_i);
            newest_q <= 9'(16'(taps_m1) * 16'(bytes_i));
        end
    end

    // The writer registers its write one cycle after the cursor step: so is keep.
    always_ff @(posedge clk_i) keep_q <= keep_i;

    // Per image: the older entries' bytes shift down by C (those below (P-1)*C stay),
    // and the new entry's first C bytes go in at (P-1)*C. Shifts rather than a loop
    // over byte pairs: Verilator evaluates this every cycle the load unit moves data.
    localparam int IW = 8 * BLOCK_IN;  // bits per image
    logic [11:0]   c_bits, newest_bits;
    logic [IW-1:0] below_newest, first_c;
    assign c_bits       = 12'(c_q) << 3;
    assign newest_bits  = 12'(newest_q) << 3;
    assign below_newest = ~({IW{1'b1}} << newest_bits);
    assign first_c      = ~({IW{1'b1}} << c_bits);

    always_comb begin
        for (int b = 0; b < BATCH; b++) begin
            window[IW * b +: IW] = ((window_q[IW * b +: IW] >> c_bits) & below_newest)
                                 | ((entry_i[IW * b +: IW] & first_c) << newest_bits);
        end
    end

    always_ff @(posedge clk_i) begin
        if (start_i) window_q <= '0;
        else if (take_i && on_q) window_q <= window;
    end

    assign we_o    = take_i && (!on_q || keep_q);
    assign wdata_o = on_q ? window : entry_i;

    // Fetch refuses a LOAD whose P taps of C bytes overflow an image's block. (The
    // module has no reset: the check holds on every edge.)
    `ACCEL_ASSERT(a_fits, start_i && taps_i != 8'd0
                          |-> bytes_i != 8'd0 && 16'(taps_i) * 16'(bytes_i) <= 16'(BLOCK_IN),
                  clk_i, 1'b0)
endmodule

`default_nettype wire
