// A behavioural model of the ECP5 sysDSP 18x18 multiplier, MULT18X18D, for simulating
// Yosys' synth_ecp5 netlists (Yosys has no simulation model of it). It models the two
// configurations the netlists hold: the combinational multiplier Yosys' ECP5 mapping
// instantiates (share/lattice/dsp_map_18x18.v: every REG_*_CLK "NONE"), and the one
// rtl/prim/accel_prim_mul_reg.sv instantiates, with any of the input, pipeline and output
// registers clocked by CLK0, each enabled by the CEn pin and reset (synchronously) by the
// RSTn pin its parameters name. A and B come from their pins (SOURCEA = SOURCEB = 0), each
// operand signed or unsigned as its SIGNEDA/SIGNEDB pin says (a pin the netlists tie to a
// constant, so that the model need not say which register holds it). P is the full
// 36-bit product, exact in every signedness. Any other configuration stops elaboration or
// the simulation. The cascade and ALU outputs (SROA, SROB, ROA, ROB, ROC, SIGNEDP), which
// the netlists leave unconnected, are X.
`default_nettype none

// The pins and parameters of the clocks and of the cascade, which the modelled modes do
// not use, and the product's two sign bits above P, are unused on purpose.
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
module MULT18X18D #(
    parameter string REG_INPUTA_CLK = "NONE",
    parameter string REG_INPUTA_CE = "CE0",
    parameter string REG_INPUTA_RST = "RST0",
    parameter string REG_INPUTB_CLK = "NONE",
    parameter string REG_INPUTB_CE = "CE0",
    parameter string REG_INPUTB_RST = "RST0",
    parameter string REG_INPUTC_CLK = "NONE",
    parameter string REG_INPUTC_CE = "CE0",
    parameter string REG_INPUTC_RST = "RST0",
    parameter string REG_PIPELINE_CLK = "NONE",
    parameter string REG_PIPELINE_CE = "CE0",
    parameter string REG_PIPELINE_RST = "RST0",
    parameter string REG_OUTPUT_CLK = "NONE",
    parameter string REG_OUTPUT_CE = "CE0",
    parameter string REG_OUTPUT_RST = "RST0",
    parameter string CLK0_DIV = "ENABLED",
    parameter string CLK1_DIV = "ENABLED",
    parameter string CLK2_DIV = "ENABLED",
    parameter string CLK3_DIV = "ENABLED",
    parameter string HIGHSPEED_CLK = "NONE",
    parameter string GSR = "ENABLED",
    parameter string CAS_MATCH_REG = "FALSE",
    parameter string SOURCEB_MODE = "B_SHIFT",
    parameter string MULT_BYPASS = "DISABLED",
    parameter string RESETMODE = "SYNC"
) (
    input  wire A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0,
    input  wire B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0,
    input  wire C17, C16, C15, C14, C13, C12, C11, C10, C9, C8, C7, C6, C5, C4, C3, C2, C1, C0,
    input  wire SIGNEDA, SIGNEDB, SOURCEA, SOURCEB,
    input  wire CLK3, CLK2, CLK1, CLK0, CE3, CE2, CE1, CE0, RST3, RST2, RST1, RST0,
    input  wire SRIA17, SRIA16, SRIA15, SRIA14, SRIA13, SRIA12, SRIA11, SRIA10, SRIA9,
    input  wire SRIA8, SRIA7, SRIA6, SRIA5, SRIA4, SRIA3, SRIA2, SRIA1, SRIA0,
    input  wire SRIB17, SRIB16, SRIB15, SRIB14, SRIB13, SRIB12, SRIB11, SRIB10, SRIB9,
    input  wire SRIB8, SRIB7, SRIB6, SRIB5, SRIB4, SRIB3, SRIB2, SRIB1, SRIB0,
    output wire SROA17, SROA16, SROA15, SROA14, SROA13, SROA12, SROA11, SROA10, SROA9,
    output wire SROA8, SROA7, SROA6, SROA5, SROA4, SROA3, SROA2, SROA1, SROA0,
    output wire SROB17, SROB16, SROB15, SROB14, SROB13, SROB12, SROB11, SROB10, SROB9,
    output wire SROB8, SROB7, SROB6, SROB5, SROB4, SROB3, SROB2, SROB1, SROB0,
    output wire ROA17, ROA16, ROA15, ROA14, ROA13, ROA12, ROA11, ROA10, ROA9,
    output wire ROA8, ROA7, ROA6, ROA5, ROA4, ROA3, ROA2, ROA1, ROA0,
    output wire ROB17, ROB16, ROB15, ROB14, ROB13, ROB12, ROB11, ROB10, ROB9,
    output wire ROB8, ROB7, ROB6, ROB5, ROB4, ROB3, ROB2, ROB1, ROB0,
    output wire ROC17, ROC16, ROC15, ROC14, ROC13, ROC12, ROC11, ROC10, ROC9,
    output wire ROC8, ROC7, ROC6, ROC5, ROC4, ROC3, ROC2, ROC1, ROC0,
    output wire P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20,
    output wire P19, P18, P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3,
    output wire P2, P1, P0,
    output wire SIGNEDP
);
/* verilator lint_on UNUSEDPARAM */
    // The configuration, checked while Verilator elaborates the netlist.
    // (Verilator 5.006 does not take string arguments to constant functions: macros.)
    `define MULT18X18D_MODELLED_CLOCK(name) ((name) == "NONE" || (name) == "CLK0")
    if (!`MULT18X18D_MODELLED_CLOCK(REG_INPUTA_CLK) || !`MULT18X18D_MODELLED_CLOCK(REG_INPUTB_CLK) ||
        !`MULT18X18D_MODELLED_CLOCK(REG_PIPELINE_CLK) || !`MULT18X18D_MODELLED_CLOCK(REG_OUTPUT_CLK) ||
        REG_INPUTC_CLK != "NONE" || HIGHSPEED_CLK != "NONE")
        $error("MULT18X18D: a register is clocked by other than CLK0, or the C input is registered: not modelled");
    if (MULT_BYPASS != "DISABLED" || CAS_MATCH_REG != "FALSE" || SOURCEB_MODE != "B_SHIFT")
        $error("MULT18X18D: MULT_BYPASS %s, CAS_MATCH_REG %s, SOURCEB_MODE %s: not modelled",
               MULT_BYPASS, CAS_MATCH_REG, SOURCEB_MODE);
    if (RESETMODE != "SYNC")
        $error("MULT18X18D: RESETMODE %s: only SYNC is modelled", RESETMODE);
    always_comb begin
        if (SOURCEA || SOURCEB)
            $error("MULT18X18D %m: an operand from the shift chain (SOURCEA/SOURCEB): not modelled");
    end

    // Which of the four CE and RST pins a register's "CEn"/"RSTn" parameter names.
    `define MULT18X18D_PIN(name) \
        ((name) == "CE1" || (name) == "RST1" ? 1 : (name) == "CE2" || (name) == "RST2" ? 2 : \
         (name) == "CE3" || (name) == "RST3" ? 3 : 0)
    wire [3:0] ce = {CE3, CE2, CE1, CE0};
    wire [3:0] rst = {RST3, RST2, RST1, RST0};

    wire [17:0] a_pin = {A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0};
    wire [17:0] b_pin = {B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0};
    logic [17:0] a_q, b_q;
    logic [35:0] pipeline_q, output_q;
    wire  [17:0] a = REG_INPUTA_CLK == "NONE" ? a_pin : a_q;
    wire  [17:0] b = REG_INPUTB_CLK == "NONE" ? b_pin : b_q;
    // One more bit for each operand holds its sign, or 0 when it is unsigned.
    wire signed [18:0] a_value = {SIGNEDA & a[17], a};
    wire signed [18:0] b_value = {SIGNEDB & b[17], b};
    wire signed [37:0] product = a_value * b_value;
    wire        [35:0] pipelined = REG_PIPELINE_CLK == "NONE" ? product[35:0] : pipeline_q;

    always_ff @(posedge CLK0) begin
        if (rst[`MULT18X18D_PIN(REG_INPUTA_RST)])        a_q <= '0;
        else if (ce[`MULT18X18D_PIN(REG_INPUTA_CE)])     a_q <= a_pin;
        if (rst[`MULT18X18D_PIN(REG_INPUTB_RST)])        b_q <= '0;
        else if (ce[`MULT18X18D_PIN(REG_INPUTB_CE)])     b_q <= b_pin;
        if (rst[`MULT18X18D_PIN(REG_PIPELINE_RST)])      pipeline_q <= '0;
        else if (ce[`MULT18X18D_PIN(REG_PIPELINE_CE)])   pipeline_q <= product[35:0];
        if (rst[`MULT18X18D_PIN(REG_OUTPUT_RST)])        output_q <= '0;
        else if (ce[`MULT18X18D_PIN(REG_OUTPUT_CE)])     output_q <= pipelined;
    end

    assign {P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20,
            P19, P18, P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3,
            P2, P1, P0} = REG_OUTPUT_CLK == "NONE" ? pipelined : output_q;

    assign {SROA17, SROA16, SROA15, SROA14, SROA13, SROA12, SROA11, SROA10, SROA9,
            SROA8, SROA7, SROA6, SROA5, SROA4, SROA3, SROA2, SROA1, SROA0} = 'x;
    assign {SROB17, SROB16, SROB15, SROB14, SROB13, SROB12, SROB11, SROB10, SROB9,
            SROB8, SROB7, SROB6, SROB5, SROB4, SROB3, SROB2, SROB1, SROB0} = 'x;
    assign {ROA17, ROA16, ROA15, ROA14, ROA13, ROA12, ROA11, ROA10, ROA9,
            ROA8, ROA7, ROA6, ROA5, ROA4, ROA3, ROA2, ROA1, ROA0} = 'x;
    assign {ROB17, ROB16, ROB15, ROB14, ROB13, ROB12, ROB11, ROB10, ROB9,
            ROB8, ROB7, ROB6, ROB5, ROB4, ROB3, ROB2, ROB1, ROB0} = 'x;
    assign {ROC17, ROC16, ROC15, ROC14, ROC13, ROC12, ROC11, ROC10, ROC9,
            ROC8, ROC7, ROC6, ROC5, ROC4, ROC3, ROC2, ROC1, ROC0} = 'x;
    assign SIGNEDP = 1'bx;
endmodule
/* verilator lint_on UNUSEDSIGNAL */

`undef MULT18X18D_MODELLED_CLOCK
`undef MULT18X18D_PIN
`default_nettype wire
