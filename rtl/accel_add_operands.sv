// The operands of an element-wise int8 addition, rescaled and summed per lane
// (docs/isa.md, "DRAIN", add mode; TFLite's int8 ADD before its output rescaling):
//   sum = MBQM(acc1 << shift, quant1) + MBQM(acc2 << shift, quant2)   (int32, wrapping)
// with one quant lane per operand for every lane (ADD's rescalings are per tensor). The
// drain sends the sum on through its accel_requant pipeline with the output's
// rescaling, which travels alongside as tag_i/tag_o. Bit-exact with
// accel::rescaled_sum.
//
// The drain reads a beat's two operands one after the other (two ACC reads), so one
// MBQM lane per lane serves both: an operand enters with its own quant lane and
// second_i set for the beat's second; the first's result waits in a register for the
// second's, and their sum leaves. A pipeline of the 8 stages of rtl/accel_mbqm_lane.sv and a
// stage that sums: valid_o, sum_o and tag_o follow the second operand's valid_i (and
// tag_i) by STAGES cycles; the outputs hold their last value while valid_o is low.
// Operands alternate first, second, first, ... (any cycles apart).
`default_nettype none

module accel_add_operands #(
    parameter int LANES = 8,  // lanes processed per cycle (>= 1)
    parameter int TAG_W = 1,  // bits carried alongside each second operand
    localparam int QL = accel_isa_pkg::QUANT_LANE_W,
    localparam int SW = accel_isa_pkg::DRAIN_ADD_SHIFT_W
) (
    input  wire logic                clk_i,
    input  wire logic                rst_i,
    input  wire logic                valid_i,
    input  wire logic                second_i,  // the beat's second operand
    input  wire logic [32*LANES-1:0] acc_i,     // lane j: int32 operand
    input  wire logic [QL-1:0]       quant_i,   // the operand's rescaling
    input  wire logic [SW-1:0]       shift_i,   // left shift of both operands
    input  wire logic [TAG_W-1:0]    tag_i,
    output logic                     valid_o,
    output logic     [32*LANES-1:0]  sum_o,     // lane j: int32 sum
    output logic     [TAG_W-1:0]     tag_o
);
    localparam int MBQM = 8;            // accel_mbqm_lane's stages
    localparam int STAGES = MBQM + 1;   // and the sum's

    if (LANES < 1) begin : g_bad_lanes
        $error("accel_add_operands: LANES must be at least 1");
    end

    // valid_q[s]: stage s holds an operand; second_q[s]: it is a beat's second.
    logic [STAGES-1:0] valid_q, second_q, ld;  // ld[s]: stage s loads this cycle
    logic [STAGES*TAG_W-1:0] tag_q;  // stage s in [TAG_W*s +: TAG_W]
    always_ff @(posedge clk_i) begin
        if (rst_i) valid_q <= '0;
        else valid_q <= {valid_q[STAGES-2:0], valid_i};
    end
    assign ld = {valid_q[STAGES-2:0], valid_i};
    always_ff @(posedge clk_i) begin
        if (ld[0]) begin
            tag_q[0 +: TAG_W] <= tag_i;
            second_q[0] <= second_i;
        end
        for (int s = 1; s < STAGES; s++) begin
            if (ld[s]) begin
                tag_q[TAG_W*s +: TAG_W] <= tag_q[TAG_W*(s-1) +: TAG_W];
                second_q[s] <= second_q[s-1];
            end
        end
    end
    assign valid_o = valid_q[STAGES-1] && second_q[STAGES-1];
    assign tag_o = tag_q[TAG_W*(STAGES-1) +: TAG_W];

    for (genvar j = 0; j < LANES; j++) begin : g_lane
        logic signed [31:0] x, first_q, sum_q;
        accel_mbqm_lane #(.PRE_W(SW)) u_mbqm (.clk_i, .ld_i(ld[MBQM-1:0]),
            .acc_i(acc_i[32*j +: 32]), .pre_shift_i(shift_i), .quant_i(quant_i), .x_o(x));
        always_ff @(posedge clk_i) begin
            if (ld[MBQM]) begin
                if (second_q[MBQM-1]) sum_q <= first_q + x;  // wraps, as TFLite's int32 addition
                else first_q <= x;
            end
        end
        assign sum_o[32*j +: 32] = sum_q;
    end
endmodule

`default_nettype wire
