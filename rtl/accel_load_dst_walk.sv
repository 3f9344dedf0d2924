// Destination walker of the load unit: visits the entries a LOAD takes in buffer
// order (z, then rows including padding rows, then columns including padding
// columns) and says whether the entry under the cursor is data or padding. The
// destination address is sequential: sram_base + (z*H + y)*W + x, one step per entry.
// A packing LOAD takes the first `skip` entries of each row into the packing window
// only (keep_o low): they are not written, and the address advances on kept entries.
`include "accel_assert.svh"
`default_nettype none

module accel_load_dst_walk #(
    parameter int AW = 16  // bits of the destination address (1..16)
) (
    input  wire logic          clk_i,
    input  wire logic          rst_i,
    // Instruction, latched when start_i pulses (only while !active_o).
    input  wire logic          start_i,
    input  wire logic [AW-1:0] sram_base_i,
    input  wire logic [15:0]   z_size_i,      // planes (>= 1)
    input  wire logic [15:0]   y_size_i,      // data rows per plane (>= 1)
    input  wire logic [15:0]   x_size_i,      // data entries per row (>= 1)
    input  wire logic [7:0]    pad_top_i,
    input  wire logic [7:0]    pad_bottom_i,
    input  wire logic [7:0]    pad_left_i,
    input  wire logic [7:0]    pad_right_i,
    input  wire logic [7:0]    skip_i,        // entries per row not written (pack_taps - 1)
    input  wire logic          halt_i,        // abandon the walk
    input  wire logic          step_i,        // the entry under the cursor was written
    output logic               active_o,      // entries left (the cursor is valid)
    output logic               is_data_o,     // the entry under the cursor comes from DRAM
    output logic               keep_o,        // ... and is written at addr_o
    output logic      [AW-1:0] addr_o         // its destination address
);
    if (AW < 1 || AW > 16) begin : g_bad_aw
        $error("accel_load_dst_walk: AW must be in 1..16, got %0d", AW);
    end

    logic          active_q;
    logic [AW-1:0] addr_q;
    logic [16:0]   x_q, y_q;             // position in the padded plane
    logic [15:0]   z_q;
    logic [7:0]    x_lo_q, y_lo_q;       // first data column / row
    logic [16:0]   x_hi_q, y_hi_q;       // one past the last data column / row
    logic [16:0]   x_last_q, y_last_q;   // last column / row, padding included
    logic [15:0]   z_last_q;
    logic [7:0]    skip_q;

    assign active_o  = active_q;
    assign addr_o    = addr_q;
    assign is_data_o = (y_q >= 17'(y_lo_q)) && (y_q < y_hi_q)
                    && (x_q >= 17'(x_lo_q)) && (x_q < x_hi_q);
    assign keep_o    = x_q >= 17'(skip_q);

    logic x_end, y_end, z_end;
    assign x_end = (x_q == x_last_q);
    assign y_end = (y_q == y_last_q);
    assign z_end = (z_q == z_last_q);

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            active_q <= 1'b0;
        end else if (start_i) begin
            active_q <= 1'b1;
        end else if (halt_i || (step_i && x_end && y_end && z_end)) begin
            active_q <= 1'b0;
        end
    end

    always_ff @(posedge clk_i) begin
        if (start_i) begin
            addr_q   <= sram_base_i;
            x_q      <= '0;
            y_q      <= '0;
            z_q      <= '0;
            x_lo_q   <= pad_left_i;
            y_lo_q   <= pad_top_i;
            x_hi_q   <= 17'(pad_left_i) + 17'(x_size_i);
            y_hi_q   <= 17'(pad_top_i) + 17'(y_size_i);
            x_last_q <= 17'(pad_left_i) + 17'(x_size_i) + 17'(pad_right_i) - 17'd1;
            y_last_q <= 17'(pad_top_i) + 17'(y_size_i) + 17'(pad_bottom_i) - 17'd1;
            z_last_q <= z_size_i - 16'd1;
            skip_q   <= skip_i;
        end else if (step_i) begin
            if (keep_o) addr_q <= addr_q + AW'(1);
            x_q    <= x_end ? '0 : x_q + 17'd1;
            if (x_end) y_q <= y_end ? '0 : y_q + 17'd1;
            if (x_end && y_end) z_q <= z_q + 16'd1;
        end
    end

    // The writer steps only a valid cursor, and a LOAD starts only on a finished walk.
    `ACCEL_ASSERT(a_step_on_cursor, step_i |-> active_o, clk_i, rst_i)
    `ACCEL_ASSERT(a_start_when_done, start_i |-> !active_o, clk_i, rst_i)
    `ACCEL_ASSERT_KNOWN(a_active_known, active_o, clk_i, rst_i)
endmodule

`default_nettype wire
