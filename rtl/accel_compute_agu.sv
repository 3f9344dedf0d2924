// accel_compute_agu: the affine address of one buffer along a GEMM loop nest,
//     addr = base + sum_l idx_l * stride_l            (modulo 2^AW)
// kept incrementally with additions only, following accel_compute_loops' inc_i: when
// level L increments, every level from L inwards restarts at offset[L] + stride[L].
// offset[l] holds sum_{m <= l} idx_m * stride_m, so offset[LEVELS-1] is the current
// step's. The offsets return to 0 after an instruction's last step (inc_i == 0), as
// after reset, so base and strides are only read while an instruction runs.
`include "accel_assert.svh"
`default_nettype none

module accel_compute_agu #(
    parameter int AW = 16  // address bits (the SRAM's); addresses wrap modulo 2^AW
) (
    input  wire logic          clk_i,
    input  wire logic          rst_i,
    input  wire logic [15:0]   base_i,
    input  wire logic [95:0]   stride_i,  // level l's stride at [16*l +: 16] (0 kb .. 5 cb)
    input  wire logic          step_i,    // the current step issues: advance
    input  wire logic [5:0]    inc_i,     // one-hot level that increments (accel_compute_loops)
    output logic      [AW-1:0] addr_o     // the current step's address
);
    localparam int LEVELS = 6;

    if (AW < 1 || AW > 16) begin : g_bad_params
        $error("accel_compute_agu: AW must be in [1, 16]");
    end

    logic [LEVELS*AW-1:0] offset_q;  // level l at [AW*l +: AW]
    logic [AW-1:0]        sel_offset, sel_stride, restart;
    logic [LEVELS-1:0]    take;      // level l restarts at `restart` on this step
    logic                 any_inc;   // loop variable: level l or one outside it increments

    always_comb begin
        sel_offset = '0;
        sel_stride = '0;
        for (int l = 0; l < LEVELS; l++) begin
            if (inc_i[l]) begin
                sel_offset = sel_offset | offset_q[AW*l +: AW];
                sel_stride = sel_stride | stride_i[16*l +: AW];
            end
        end
        restart = sel_offset + sel_stride;
        // Level l takes the new value when it or a level outside it increments; with
        // inc_i == 0 (the last step) every level restarts at 0.
        any_inc = inc_i == '0;
        for (int l = 0; l < LEVELS; l++) begin
            any_inc = any_inc | inc_i[l];
            take[l] = any_inc;
        end
    end

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            offset_q <= '0;
        end else if (step_i) begin
            for (int l = 0; l < LEVELS; l++) begin
                if (take[l]) offset_q[AW*l +: AW] <= restart;
            end
        end
    end

    assign addr_o = base_i[AW-1:0] + offset_q[AW*(LEVELS-1) +: AW];

    // inc_i is accel_compute_loops' one-hot level; after the last step the offsets are 0.
    `ACCEL_ASSERT(a_inc_onehot, step_i |-> $onehot0(inc_i), clk_i, rst_i)
    `ACCEL_ASSERT(a_restart_at_zero, step_i && inc_i == '0 |=> offset_q == '0, clk_i, rst_i)

    // Address bits above AW never matter: the SRAM is 2^AW entries or fewer.
    if (AW < 16) begin : g_unused
        logic unused_high;
        assign unused_high = ^{base_i[15:AW], stride_i};
    end
endmodule

`default_nettype wire
