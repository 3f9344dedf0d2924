// A multiplier between registers: in_ce_i loads the operands a_i and b_i, and out_ce_i
// loads their product (as loaded) into p_o, so that p_o holds a * b from the second
// clock edge on. Each operand is signed or unsigned as A_SIGNED/B_SIGNED say, and p_o,
// A_W + B_W bits, is the exact product (two's complement when either is signed).
//
// On the ECP5 (ACCEL_ECP5, defined by the FPGA flow), both registers are those of one
// MULT18X18D: Yosys' ECP5 mapping only makes the combinational multiplier, whose 4 ns
// inside the DSP then sit between two fabric registers with a route on each side
// (docs/fpga.md, timing round five); with the DSP's own registers no path crosses it.
// Elsewhere they are plain registers around a `*`.
`default_nettype none

module accel_prim_mul_reg #(
    parameter int A_W = 18,
    parameter int B_W = 18,
    parameter bit A_SIGNED = 1'b1,
    parameter bit B_SIGNED = 1'b1,
    localparam int P_W = A_W + B_W
) (
    input  wire logic           clk_i,
    input  wire logic           in_ce_i,   // load a_i and b_i
    input  wire logic [A_W-1:0] a_i,
    input  wire logic [B_W-1:0] b_i,
    input  wire logic           out_ce_i,  // load the product of the loaded operands
    output logic      [P_W-1:0] p_o
);
    if (A_W < 1 || B_W < 1 || A_W > 18 || B_W > 18) begin : g_bad_params
        $error("accel_prim_mul_reg: A_W and B_W must be 1..18 (one 18x18 multiplier)");
    end

`ifdef ACCEL_ECP5
    // Each operand widened to the DSP's 18 bits as its signedness says; SIGNEDA/SIGNEDB
    // are constants, so it does not matter which register the DSP holds them in.
    wire [17:0] a18 = 18'({{(18 - A_W + 1){A_SIGNED & a_i[A_W-1]}}, a_i});
    wire [17:0] b18 = 18'({{(18 - B_W + 1){B_SIGNED & b_i[B_W-1]}}, b_i});
    wire [35:0] p36;
    // The pins are connected as Yosys' own DSP mapping connects them (C and SOURCEA/B to
    // 0), and the registers' CLK0/CE0/CE1/RST0 besides: RST0 tied to 0, since the device
    // gives an unrouted reset pin no defined value (and the netlist simulation then a
    // random one). The product's bits above P_W, the unused clock, enable and reset pins
    // and the shift chain are left open: tied to 0, they were 44 more arcs of the ground
    // net per DSP, and nextpnr failed to route one of them in the tiny config
    // (docs/fpga.md, timing round six).
    /* verilator lint_off PINCONNECTEMPTY */
    /* verilator lint_off UNUSEDSIGNAL */
    MULT18X18D #(
        .REG_INPUTA_CLK("CLK0"), .REG_INPUTA_CE("CE0"), .REG_INPUTA_RST("RST0"),
        .REG_INPUTB_CLK("CLK0"), .REG_INPUTB_CE("CE0"), .REG_INPUTB_RST("RST0"),
        .REG_OUTPUT_CLK("CLK0"), .REG_OUTPUT_CE("CE1"), .REG_OUTPUT_RST("RST0"),
        .GSR("DISABLED"), .RESETMODE("SYNC")
    ) u_dsp (
        .A17(a18[17]), .A16(a18[16]), .A15(a18[15]), .A14(a18[14]), .A13(a18[13]),
        .A12(a18[12]), .A11(a18[11]), .A10(a18[10]), .A9(a18[9]), .A8(a18[8]), .A7(a18[7]),
        .A6(a18[6]), .A5(a18[5]), .A4(a18[4]), .A3(a18[3]), .A2(a18[2]), .A1(a18[1]),
        .A0(a18[0]),
        .B17(b18[17]), .B16(b18[16]), .B15(b18[15]), .B14(b18[14]), .B13(b18[13]),
        .B12(b18[12]), .B11(b18[11]), .B10(b18[10]), .B9(b18[9]), .B8(b18[8]), .B7(b18[7]),
        .B6(b18[6]), .B5(b18[5]), .B4(b18[4]), .B3(b18[3]), .B2(b18[2]), .B1(b18[1]),
        .B0(b18[0]),
        .C17(1'b0), .C16(1'b0), .C15(1'b0), .C14(1'b0), .C13(1'b0), .C12(1'b0), .C11(1'b0),
        .C10(1'b0), .C9(1'b0), .C8(1'b0), .C7(1'b0), .C6(1'b0), .C5(1'b0), .C4(1'b0),
        .C3(1'b0), .C2(1'b0), .C1(1'b0), .C0(1'b0),
        .SIGNEDA(A_SIGNED), .SIGNEDB(B_SIGNED), .SOURCEA(1'b0), .SOURCEB(1'b0),
        .CLK0(clk_i), .CLK1(), .CLK2(), .CLK3(),
        .CE0(in_ce_i), .CE1(out_ce_i), .CE2(), .CE3(),
        .RST0(1'b0), .RST1(), .RST2(), .RST3(),
        .SRIA17(), .SRIA16(), .SRIA15(), .SRIA14(), .SRIA13(), .SRIA12(), .SRIA11(),
        .SRIA10(), .SRIA9(), .SRIA8(), .SRIA7(), .SRIA6(), .SRIA5(), .SRIA4(), .SRIA3(),
        .SRIA2(), .SRIA1(), .SRIA0(),
        .SRIB17(), .SRIB16(), .SRIB15(), .SRIB14(), .SRIB13(), .SRIB12(), .SRIB11(),
        .SRIB10(), .SRIB9(), .SRIB8(), .SRIB7(), .SRIB6(), .SRIB5(), .SRIB4(), .SRIB3(),
        .SRIB2(), .SRIB1(), .SRIB0(),
        .P35(p36[35]), .P34(p36[34]), .P33(p36[33]), .P32(p36[32]), .P31(p36[31]),
        .P30(p36[30]), .P29(p36[29]), .P28(p36[28]), .P27(p36[27]), .P26(p36[26]),
        .P25(p36[25]), .P24(p36[24]), .P23(p36[23]), .P22(p36[22]), .P21(p36[21]),
        .P20(p36[20]), .P19(p36[19]), .P18(p36[18]), .P17(p36[17]), .P16(p36[16]),
        .P15(p36[15]), .P14(p36[14]), .P13(p36[13]), .P12(p36[12]), .P11(p36[11]),
        .P10(p36[10]), .P9(p36[9]), .P8(p36[8]), .P7(p36[7]), .P6(p36[6]), .P5(p36[5]),
        .P4(p36[4]), .P3(p36[3]), .P2(p36[2]), .P1(p36[1]), .P0(p36[0]),
        .SROA17(), .SROA16(), .SROA15(), .SROA14(), .SROA13(), .SROA12(), .SROA11(),
        .SROA10(), .SROA9(), .SROA8(), .SROA7(), .SROA6(), .SROA5(), .SROA4(), .SROA3(),
        .SROA2(), .SROA1(), .SROA0(),
        .SROB17(), .SROB16(), .SROB15(), .SROB14(), .SROB13(), .SROB12(), .SROB11(),
        .SROB10(), .SROB9(), .SROB8(), .SROB7(), .SROB6(), .SROB5(), .SROB4(), .SROB3(),
        .SROB2(), .SROB1(), .SROB0(),
        .ROA17(), .ROA16(), .ROA15(), .ROA14(), .ROA13(), .ROA12(), .ROA11(), .ROA10(),
        .ROA9(), .ROA8(), .ROA7(), .ROA6(), .ROA5(), .ROA4(), .ROA3(), .ROA2(), .ROA1(),
        .ROA0(),
        .ROB17(), .ROB16(), .ROB15(), .ROB14(), .ROB13(), .ROB12(), .ROB11(), .ROB10(),
        .ROB9(), .ROB8(), .ROB7(), .ROB6(), .ROB5(), .ROB4(), .ROB3(), .ROB2(), .ROB1(),
        .ROB0(),
        .ROC17(), .ROC16(), .ROC15(), .ROC14(), .ROC13(), .ROC12(), .ROC11(), .ROC10(),
        .ROC9(), .ROC8(), .ROC7(), .ROC6(), .ROC5(), .ROC4(), .ROC3(), .ROC2(), .ROC1(),
        .ROC0(),
        .SIGNEDP()
    );
    /* verilator lint_on UNUSEDSIGNAL */
    /* verilator lint_on PINCONNECTEMPTY */
    assign p_o = p36[P_W-1:0];
`else
    logic [A_W-1:0] a_q;
    logic [B_W-1:0] b_q;
    logic [P_W-1:0] p_q;
    always_ff @(posedge clk_i) begin
        if (in_ce_i) begin
            a_q <= a_i;
            b_q <= b_i;
        end
        if (out_ce_i) p_q <= P_W'($signed({A_SIGNED & a_q[A_W-1], a_q}) *
                                  $signed({B_SIGNED & b_q[B_W-1], b_q}));
    end
    assign p_o = p_q;
`endif
endmodule

`default_nettype wire
