// The operands of an element-wise int8 addition, rescaled and summed per lane
// (docs/isa.md, "DRAIN", add mode; TFLite's int8 ADD before its output rescaling):
//   sum = MBQM(acc1 << shift, quant1) + MBQM(acc2 << shift, quant2)   (int32, wrapping)
// with one quant lane per operand for every lane (ADD's rescalings are per tensor). The
// drain sends the sum on through its accel_requant pipeline with the output's
// rescaling, which travels alongside as tag_i/tag_o. Bit-exact with
// accel::rescaled_sum.
//
// A pipeline of the 4 stages of rtl/accel_mbqm_lane.sv: valid_o, sum_o and tag_o follow
// valid_i, acc*_i, quant_i, shift_i and tag_i by 4 cycles; the outputs hold their last
// value while valid_o is low.
`default_nettype none

module accel_add_operands #(
    parameter int LANES = 8,  // lanes processed per cycle (>= 1)
    parameter int TAG_W = 1,  // bits carried alongside each input
    localparam int QL = accel_isa_pkg::QUANT_LANE_W,
    localparam int SW = accel_isa_pkg::DRAIN_ADD_SHIFT_W
) (
    input  wire logic                clk_i,
    input  wire logic                rst_i,
    input  wire logic                valid_i,
    input  wire logic [32*LANES-1:0] acc1_i,   // lane j: int32 first operand
    input  wire logic [32*LANES-1:0] acc2_i,   // lane j: int32 second operand
    input  wire logic [2*QL-1:0]     quant_i,  // {quant2, quant1}
    input  wire logic [SW-1:0]       shift_i,  // left shift of both operands
    input  wire logic [TAG_W-1:0]    tag_i,
    output logic                     valid_o,
    output logic     [32*LANES-1:0]  sum_o,    // lane j: int32 sum
    output logic     [TAG_W-1:0]     tag_o
);
    localparam int STAGES = 4;  // accel_mbqm_lane's

    if (LANES < 1) begin : g_bad_lanes
        $error("accel_add_operands: LANES must be at least 1");
    end

    logic [STAGES-1:0] valid_q, ld;  // ld[s]: stage s loads this cycle
    logic [STAGES*TAG_W-1:0] tag_q;  // stage s in [TAG_W*s +: TAG_W]
    always_ff @(posedge clk_i) begin
        if (rst_i) valid_q <= '0;
        else valid_q <= {valid_q[STAGES-2:0], valid_i};
    end
    assign ld = {valid_q[STAGES-2:0], valid_i};
    always_ff @(posedge clk_i) begin
        if (ld[0]) tag_q[0 +: TAG_W] <= tag_i;
        for (int s = 1; s < STAGES; s++) begin
            if (ld[s]) tag_q[TAG_W*s +: TAG_W] <= tag_q[TAG_W*(s-1) +: TAG_W];
        end
    end
    assign valid_o = valid_q[STAGES-1];
    assign tag_o = tag_q[TAG_W*(STAGES-1) +: TAG_W];

    for (genvar j = 0; j < LANES; j++) begin : g_lane
        logic signed [31:0] s1, s2;
        accel_mbqm_lane u_in1 (.clk_i, .ld_i(ld), .acc_i(acc1_i[32*j +: 32] << shift_i),
                         .quant_i(quant_i[0 +: QL]), .x_o(s1));
        accel_mbqm_lane u_in2 (.clk_i, .ld_i(ld), .acc_i(acc2_i[32*j +: 32] << shift_i),
                         .quant_i(quant_i[QL +: QL]), .x_o(s2));
        assign sum_o[32*j +: 32] = s1 + s2;
    end
endmodule

`default_nettype wire
