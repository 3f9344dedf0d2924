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
    // The position in the padded plane: x, y and z count in accel_prim_count_last,
    // whose last-value flags (x_end, y_end, z_end) are registers. The cursor's other
    // comparisons are kept in registers too (docs/fpga.md, timing): each is worked out
    // for the next position as the cursor moves, from equalities of the current one
    // against thresholds latched at the start, so the writer's step, which every
    // register of the walk follows, starts from flags rather than from 17-bit
    // comparisons. A threshold one below 0 (all ones) is never reached: positions stay
    // below 2^17 - 1.
    logic [16:0]   x_q, y_q;
    logic [15:0]   z_idx;                // (only its end matters)
    logic          x_end, y_end, z_end;  // the last column / row / plane
    logic          x_in_q, y_in_q;       // the column / row holds data
    logic          keep_q;               // x_q >= skip
    logic [16:0]   x_lo_m1_q, y_lo_m1_q;       // first data column / row, minus one
    logic [16:0]   x_hi_m1_q, y_hi_m1_q;       // last data column / row
    logic [16:0]   skip_m1_q;
    logic          x_lo0_q, y_lo0_q, skip0_q;  // ... is 0

    assign active_o  = active_q;
    assign addr_o    = addr_q;
    assign is_data_o = x_in_q && y_in_q;
    assign keep_o    = keep_q;

    // The instruction's thresholds, and their first-position flags.
    logic [16:0] x_hi, y_hi;
    assign x_hi = 17'(pad_left_i) + 17'(x_size_i);
    assign y_hi = 17'(pad_top_i) + 17'(y_size_i);

    accel_prim_count_last #(.W(17)) u_x (
        .clk_i, .rst_i, .load_i(start_i), .count_i(x_hi + 17'(pad_right_i)), .step_i,
        .value_o(x_q), .last_o(x_end));
    accel_prim_count_last #(.W(17)) u_y (
        .clk_i, .rst_i, .load_i(start_i), .count_i(y_hi + 17'(pad_bottom_i)),
        .step_i(step_i && x_end), .value_o(y_q), .last_o(y_end));
    accel_prim_count_last u_z (
        .clk_i, .rst_i, .load_i(start_i), .count_i(z_size_i), .step_i(step_i && x_end && y_end),
        .value_o(z_idx), .last_o(z_end));
    logic unused_z;
    assign unused_z = ^z_idx;

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
            addr_q      <= sram_base_i;
            x_lo_m1_q   <= 17'(pad_left_i) - 17'd1;
            y_lo_m1_q   <= 17'(pad_top_i) - 17'd1;
            x_hi_m1_q   <= x_hi - 17'd1;
            y_hi_m1_q   <= y_hi - 17'd1;
            skip_m1_q   <= 17'(skip_i) - 17'd1;
            x_lo0_q     <= pad_left_i == '0;
            y_lo0_q     <= pad_top_i == '0;
            skip0_q     <= skip_i == '0;
            x_in_q      <= pad_left_i == '0;
            y_in_q      <= pad_top_i == '0;
            keep_q      <= skip_i == '0;
        end else if (step_i) begin
            if (keep_o) addr_q <= addr_q + AW'(1);
            if (x_end) begin  // the next row (or plane)
                x_in_q <= x_lo0_q;
                keep_q <= skip0_q;
                y_in_q <= y_end ? y_lo0_q : y_in_q ? y_q != y_hi_m1_q : y_q == y_lo_m1_q;
            end else begin
                x_in_q <= x_in_q ? x_q != x_hi_m1_q : x_q == x_lo_m1_q;
                keep_q <= keep_q || x_q == skip_m1_q;
            end
        end
    end

    // The writer steps only a valid cursor, and a LOAD starts only on a finished walk.
    `ACCEL_ASSERT(a_step_on_cursor, step_i |-> active_o, clk_i, rst_i)
    `ACCEL_ASSERT(a_start_when_done, start_i |-> !active_o, clk_i, rst_i)
    `ACCEL_ASSERT_KNOWN(a_active_known, active_o, clk_i, rst_i)
    // The flags say what the comparisons would (the thresholds as latched).
    `ACCEL_ASSERT(a_flags_follow_cursor, active_q |->
                  x_in_q == (x_q >= x_lo_m1_q + 17'd1 && x_q <= x_hi_m1_q) &&
                  y_in_q == (y_q >= y_lo_m1_q + 17'd1 && y_q <= y_hi_m1_q) &&
                  keep_q == (x_q >= skip_m1_q + 17'd1), clk_i, rst_i)
endmodule

`default_nettype wire
