// accel_gemm_core: the int8 matrix-multiply datapath. For every valid_i cycle it
// computes, for each b < BATCH and o < BLOCK_OUT, the signed dot product
//     sum[b][o] = sum_i int8(inp[b][i]) * int8(wgt[o][i])
// and presents it LATENCY cycles later as lane b*BLOCK_OUT+o of sum_o (32 bits, the exact
// value), with valid_o. Fully pipelined, one operand set per cycle, no stall input.
//
// Arithmetic: each weight byte is used in offset binary, w' = w ^ 8'h80 = w + 128, so that
//     sum_i a_i * w_i = sum_i a_i * w'_i - 128 * sum_i a_i
// with w' unsigned. The row sum of the inputs is shared by all BLOCK_OUT dot products of
// that row. Each multiplier is a signed 8 x unsigned 8 bit product (Yosys maps it to one
// DSP as an 8x9 signed multiply), and Verilator compiles the multiply-accumulate to a byte
// extract, a multiply and an add: Verilator has no cheap sign extension of a byte, and
// this loop is the hot spot of the whole simulator (BATCH*BLOCK_IN*BLOCK_OUT MACs a
// cycle). The plain signed form costs about 1.7x the instructions per simulated cycle.
`include "accel_assert.svh"
`default_nettype none

module accel_gemm_core #(
    parameter int BATCH = 1,       // input rows per step (images)
    parameter int BLOCK_IN = 16,   // dot-product length (input channels per block)
    parameter int BLOCK_OUT = 16,  // dot products per row (output channels per block)
    localparam int INP_W = accel_isa_pkg::inp_entry_w(BATCH, BLOCK_IN),
    localparam int WGT_W = accel_isa_pkg::wgt_entry_w(BLOCK_IN, BLOCK_OUT),
    localparam int ACC_W = accel_isa_pkg::acc_entry_w(BATCH, BLOCK_OUT)
) (
    input  wire logic             clk_i,
    input  wire logic             rst_i,
    input  wire logic             valid_i,
    input  wire logic [INP_W-1:0] inp_i,    // lane b*BLOCK_IN+i: int8 inp[b][i]
    input  wire logic [WGT_W-1:0] wgt_i,    // byte o*BLOCK_IN+i: int8 wgt[o][i]
    output logic                  valid_o,
    output logic      [ACC_W-1:0] sum_o     // lane b*BLOCK_OUT+o: int32 sum[b][o]
);
    // Cycles from valid_i (with its operands) to valid_o (with the sums): the three
    // stages below. accel_compute_unit's pipeline is built for this value (its CORE_LATENCY).
    localparam int LATENCY = 3;

    // |sum| <= BLOCK_IN * 128 * 128 must fit in an int32.
    if (BATCH < 1 || BLOCK_IN < 1 || BLOCK_OUT < 1 || BLOCK_IN > 131071) begin : g_bad_params
        $error("accel_gemm_core: BATCH, BLOCK_IN, BLOCK_OUT must be >= 1 and BLOCK_IN <= 131071");
    end

    logic [LATENCY-1:0] valid_q;
    always_ff @(posedge clk_i) begin
        if (rst_i) valid_q <= '0;
        else       valid_q <= {valid_q[LATENCY-2:0], valid_i};
    end
    assign valid_o = valid_q[LATENCY-1];
    // A result only for an operand set LATENCY cycles before (with no reset since).
    `ACCEL_ASSERT(a_latency, valid_o |-> $past(valid_i, LATENCY), clk_i, rst_i)
    `ACCEL_ASSERT_KNOWN(a_valid_known, valid_o, clk_i, rst_i)

    // ---------------------------------------------------------------- stage 1: operands
    // The inputs and the weights in offset binary, straight from the SRAMs (on the ECP5,
    // the weights go to the multipliers' own input registers, below).
    logic [INP_W-1:0] inp_q;
    always_ff @(posedge clk_i) begin
        if (valid_i) inp_q <= inp_i;
    end
`ifndef ACCEL_ECP5
    logic [WGT_W-1:0] wgt_q;
    always_ff @(posedge clk_i) begin
        if (valid_i) wgt_q <= wgt_i ^ {(BLOCK_OUT * BLOCK_IN){8'h80}};
    end
`endif

    // ---------------------------------------------------------------- stage 2: products
    // Each product a_i * w'_i (one DSP), and each input row's sum.
    logic [32*BATCH-1:0] row_sum_q;

    function automatic logic [31:0] row_sum(input logic [8*BLOCK_IN-1:0] row);
        logic [31:0] s;
        s = '0;
        for (int i = 0; i < BLOCK_IN; i++) s = s + 32'($signed(row[8*i +: 8]));
        row_sum = s;
    endfunction

    always_ff @(posedge clk_i) begin
        if (valid_q[0]) begin
            for (int b = 0; b < BATCH; b++) begin
                row_sum_q[32*b +: 32] <= row_sum(inp_q[8*BLOCK_IN*b +: 8*BLOCK_IN]);
            end
        end
    end

    // ---------------------------------------------------------------- stage 3: dot products
    // sum_i a_i * w'_i - 128 * sum_i a_i, wrapping in 32 bits (the exact result fits).
    for (genvar b = 0; b < BATCH; b++) begin : g_row
        for (genvar o = 0; o < BLOCK_OUT; o++) begin : g_col
            // Products held as int32 words: the simulator loads and stores them whole;
            // synthesis keeps the 17 bits that differ.
            (* mem2reg *) logic [31:0] prod_q [BLOCK_IN];
            logic [31:0] sum_q, dot;
            always_comb begin
                dot = '0;
                for (int i = 0; i < BLOCK_IN; i++) dot = dot + prod_q[i];
                dot = dot - (row_sum_q[32*b +: 32] << 7);
            end
`ifdef ACCEL_ECP5
            // On the ECP5 each product is a DSP with its own registers: its input
            // registers take the operands from the SRAMs beside inp_q and wgt_q, and its
            // output register is prod_q (accel_prim_mul_reg).
            for (genvar i = 0; i < BLOCK_IN; i++) begin : g_mul
                logic [15:0] p;
                accel_prim_mul_reg #(.A_W(8), .B_W(8), .A_SIGNED(1'b1), .B_SIGNED(1'b0)) u_mul (
                    .clk_i, .in_ce_i(valid_i), .a_i(inp_i[8*(BLOCK_IN*b+i) +: 8]),
                    .b_i(wgt_i[8*(BLOCK_IN*o+i) +: 8] ^ 8'h80), .out_ce_i(valid_q[0]), .p_o(p));
                assign prod_q[i] = 32'(signed'(p));
            end
            always_ff @(posedge clk_i) begin
                if (valid_q[1]) sum_q <= dot;
            end
`else
            always_ff @(posedge clk_i) begin
                if (valid_q[0]) begin
                    for (int i = 0; i < BLOCK_IN; i++) begin
                        prod_q[i] <= 32'($signed(inp_q[8*(BLOCK_IN*b+i) +: 8]) *
                                         $signed({1'b0, wgt_q[8*(BLOCK_IN*o+i) +: 8]}));
                    end
                end
                if (valid_q[1]) sum_q <= dot;
            end
`endif
            assign sum_o[32*(b*BLOCK_OUT+o) +: 32] = sum_q;
        end
    end
endmodule

`default_nettype wire
