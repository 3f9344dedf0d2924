// The DP16KD and MULT18X18D models in the modes Yosys' ECP5 mapping uses, each with its
// own pins, for test_cell_models.cpp: a pseudo dual port RAM read 36 bits wide (as every
// accelerator SRAM maps in the tiny config) and one read 18 bits wide, sharing the write
// port; true dual port RAMs of 18/18 bits (NORMAL and WRITETHROUGH), 9/18 bits
// (READBEFOREWRITE) and 1/4 bits; the multiplier.
`default_nettype none

// Of the 18-bit output buses, each test reads the port's width.
/* verilator lint_off UNUSEDSIGNAL */
module cell_models_bench (
    input  wire        clk_i,
    // Pseudo dual port: one write port for both RAMs, a read port each.
    input  wire        w_ce_i,
    input  wire [8:0]  w_addr_i,
    input  wire [3:0]  w_be_i,
    input  wire [35:0] w_data_i,
    input  wire        r_ce_i, r_rst_i,
    input  wire [8:0]  r_addr_i,
    output wire [35:0] r_data_o,
    input  wire        r18_ce_i,
    input  wire [9:0]  r18_addr_i,
    output wire [17:0] r18_data_o,
    // True dual port, 18 bits on both ports.
    input  wire        a18_ce_i, a18_we_i, a18_rst_i, b18_ce_i, b18_we_i, b18_rst_i,
    input  wire [9:0]  a18_addr_i, b18_addr_i,
    input  wire [1:0]  a18_be_i, b18_be_i,
    input  wire [17:0] a18_data_i, b18_data_i,
    output wire [17:0] a18_data_o, b18_data_o,
    // True dual port, 9 bits on A and 18 on B.
    input  wire        a9_ce_i, a9_we_i, b9_ce_i, b9_we_i,
    input  wire [10:0] a9_addr_i,
    input  wire [9:0]  b9_addr_i,
    input  wire [1:0]  b9_be_i,
    input  wire [8:0]  a9_data_i,
    input  wire [17:0] b9_data_i,
    output wire [8:0]  a9_data_o,
    output wire [17:0] b9_data_o,
    // True dual port, 1 bit on A and 4 on B.
    input  wire        a1_ce_i, a1_we_i, b4_ce_i, b4_we_i,
    input  wire [13:0] a1_addr_i,
    input  wire [11:0] b4_addr_i,
    input  wire        a1_data_i,
    input  wire [3:0]  b4_data_i,
    output wire        a1_data_o,
    output wire [3:0]  b4_data_o,
    // The multiplier.
    input  wire [17:0] m_a_i, m_b_i,
    input  wire        m_signed_a_i, m_signed_b_i,
    output wire [35:0] m_p_o
);
    // Pins by bus; the models take one pin per bit, as Yosys' netlists connect them.
    `define BUS18(P, v) .``P``0(v[0]), .``P``1(v[1]), .``P``2(v[2]), .``P``3(v[3]), .``P``4(v[4]), \
        .``P``5(v[5]), .``P``6(v[6]), .``P``7(v[7]), .``P``8(v[8]), .``P``9(v[9]), .``P``10(v[10]), \
        .``P``11(v[11]), .``P``12(v[12]), .``P``13(v[13]), .``P``14(v[14]), .``P``15(v[15]), \
        .``P``16(v[16]), .``P``17(v[17])
    `define BUS14(P, v) .``P``0(v[0]), .``P``1(v[1]), .``P``2(v[2]), .``P``3(v[3]), .``P``4(v[4]), \
        .``P``5(v[5]), .``P``6(v[6]), .``P``7(v[7]), .``P``8(v[8]), .``P``9(v[9]), .``P``10(v[10]), \
        .``P``11(v[11]), .``P``12(v[12]), .``P``13(v[13])
    `define NO_CS(P) .CS``P``0(1'b0), .CS``P``1(1'b0), .CS``P``2(1'b0)

    // ---- Pseudo dual port, as $__PDPW16KD_ maps it: A writes {DIB, DIA} with AD3..AD0
    // the byte enables, B reads.
    wire [13:0] w_ad = {w_addr_i, 1'b0, w_be_i};
    wire [17:0] w_lo = w_data_i[17:0], w_hi = w_data_i[35:18];
    wire [13:0] r_ad = {r_addr_i, 5'b0}, r18_ad = {r18_addr_i, 4'b0};
    wire [17:0] r_doa, r_dob, r18_doa, r18_dob;
    DP16KD #(.DATA_WIDTH_A(36), .DATA_WIDTH_B(36), .RESETMODE("ASYNC"),
             .ASYNC_RESET_RELEASE("ASYNC"), .GSR("DISABLED")) u_pdp36 (
        `BUS18(DIA, w_lo), `BUS18(DIB, w_hi),
        `BUS14(ADA, w_ad), `BUS14(ADB, r_ad),
        .CEA(w_ce_i), .OCEA(1'b0), .CLKA(clk_i), .WEA(1'b1), .RSTA(1'b0), `NO_CS(A),
        .CEB(r_ce_i), .OCEB(1'b1), .CLKB(clk_i), .WEB(1'b0), .RSTB(r_rst_i), `NO_CS(B),
        `BUS18(DOA, r_doa), `BUS18(DOB, r_dob));
    assign r_data_o = {r_dob, r_doa};
    DP16KD #(.DATA_WIDTH_A(36), .DATA_WIDTH_B(18)) u_pdp18 (
        `BUS18(DIA, w_lo), `BUS18(DIB, w_hi),
        `BUS14(ADA, w_ad), `BUS14(ADB, r18_ad),
        .CEA(w_ce_i), .OCEA(1'b0), .CLKA(clk_i), .WEA(1'b1), .RSTA(1'b0), `NO_CS(A),
        .CEB(r18_ce_i), .OCEB(1'b1), .CLKB(clk_i), .WEB(1'b0), .RSTB(1'b0), `NO_CS(B),
        `BUS18(DOA, r18_doa), `BUS18(DOB, r18_dob));
    assign r18_data_o = r18_dob;

    // ---- True dual port, 18/18: A keeps its output while it writes, B shows what it
    // writes; synchronous read resets; AD1..AD0 the byte enables.
    wire [17:0] a18_doa, a18_dob;
    wire [13:0] a18_ad = {a18_addr_i, 2'b0, a18_be_i}, b18_ad = {b18_addr_i, 2'b0, b18_be_i};
    DP16KD #(.DATA_WIDTH_A(18), .DATA_WIDTH_B(18), .WRITEMODE_A("NORMAL"),
             .WRITEMODE_B("WRITETHROUGH"), .RESETMODE("SYNC")) u_tdp18 (
        `BUS18(DIA, a18_data_i), `BUS18(DIB, b18_data_i),
        `BUS14(ADA, a18_ad), `BUS14(ADB, b18_ad),
        .CEA(a18_ce_i), .OCEA(1'b1), .CLKA(clk_i), .WEA(a18_we_i), .RSTA(a18_rst_i), `NO_CS(A),
        .CEB(b18_ce_i), .OCEB(1'b1), .CLKB(clk_i), .WEB(b18_we_i), .RSTB(b18_rst_i), `NO_CS(B),
        `BUS18(DOA, a18_doa), `BUS18(DOB, a18_dob));
    assign a18_data_o = a18_doa;
    assign b18_data_o = a18_dob;

    // ---- True dual port, 9/18, both reading the old data while they write.
    wire [17:0] a9_doa, a9_dob;
    wire [17:0] a9_di = {9'b0, a9_data_i};
    wire [13:0] a9_ad = {a9_addr_i, 3'b0}, b9_ad = {b9_addr_i, 2'b0, b9_be_i};
    DP16KD #(.DATA_WIDTH_A(9), .DATA_WIDTH_B(18), .WRITEMODE_A("READBEFOREWRITE"),
             .WRITEMODE_B("READBEFOREWRITE")) u_tdp9 (
        `BUS18(DIA, a9_di), `BUS18(DIB, b9_data_i),
        `BUS14(ADA, a9_ad), `BUS14(ADB, b9_ad),
        .CEA(a9_ce_i), .OCEA(1'b1), .CLKA(clk_i), .WEA(a9_we_i), .RSTA(1'b0), `NO_CS(A),
        .CEB(b9_ce_i), .OCEB(1'b1), .CLKB(clk_i), .WEB(b9_we_i), .RSTB(1'b0), `NO_CS(B),
        `BUS18(DOA, a9_doa), `BUS18(DOB, a9_dob));
    assign a9_data_o = a9_doa[8:0];
    assign b9_data_o = a9_dob;

    // ---- True dual port, 1/4.
    wire [17:0] a1_doa, a1_dob;
    wire [17:0] a1_di = {17'b0, a1_data_i}, b4_di = {14'b0, b4_data_i};
    wire [13:0] b4_ad = {b4_addr_i, 2'b0};
    DP16KD #(.DATA_WIDTH_A(1), .DATA_WIDTH_B(4)) u_tdp1 (
        `BUS18(DIA, a1_di), `BUS18(DIB, b4_di),
        `BUS14(ADA, a1_addr_i), `BUS14(ADB, b4_ad),
        .CEA(a1_ce_i), .OCEA(1'b1), .CLKA(clk_i), .WEA(a1_we_i), .RSTA(1'b0), `NO_CS(A),
        .CEB(b4_ce_i), .OCEB(1'b1), .CLKB(clk_i), .WEB(b4_we_i), .RSTB(1'b0), `NO_CS(B),
        `BUS18(DOA, a1_doa), `BUS18(DOB, a1_dob));
    assign a1_data_o = a1_doa[0];
    assign b4_data_o = a1_dob[3:0];

    // ---- The multiplier, as dsp_map_18x18.v connects it.
    wire [17:0] c_zero = '0;
    MULT18X18D u_mult (
        `BUS18(A, m_a_i), `BUS18(B, m_b_i), `BUS18(C, c_zero),
        .SIGNEDA(m_signed_a_i), .SIGNEDB(m_signed_b_i), .SOURCEA(1'b0), .SOURCEB(1'b0),
        .P0(m_p_o[0]), .P1(m_p_o[1]), .P2(m_p_o[2]), .P3(m_p_o[3]), .P4(m_p_o[4]),
        .P5(m_p_o[5]), .P6(m_p_o[6]), .P7(m_p_o[7]), .P8(m_p_o[8]), .P9(m_p_o[9]),
        .P10(m_p_o[10]), .P11(m_p_o[11]), .P12(m_p_o[12]), .P13(m_p_o[13]), .P14(m_p_o[14]),
        .P15(m_p_o[15]), .P16(m_p_o[16]), .P17(m_p_o[17]), .P18(m_p_o[18]), .P19(m_p_o[19]),
        .P20(m_p_o[20]), .P21(m_p_o[21]), .P22(m_p_o[22]), .P23(m_p_o[23]), .P24(m_p_o[24]),
        .P25(m_p_o[25]), .P26(m_p_o[26]), .P27(m_p_o[27]), .P28(m_p_o[28]), .P29(m_p_o[29]),
        .P30(m_p_o[30]), .P31(m_p_o[31]), .P32(m_p_o[32]), .P33(m_p_o[33]), .P34(m_p_o[34]),
        .P35(m_p_o[35]));
endmodule
/* verilator lint_on UNUSEDSIGNAL */

`default_nettype wire
