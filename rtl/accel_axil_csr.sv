// The control/status registers behind an AXI4-Lite slave (12-bit address, 32-bit
// data). Offsets come from the generated accel_isa_pkg (sw/hw/csr.hpp):
//   CTRL        W   bit 0 starts a run: start_o pulses one cycle (ignored while busy_i)
//   STATUS      R   {done_i, busy_i}
//   ERROR       R   error_i
//   INSN_ADDR   RW  insn_addr_o      (byte strobes honoured)
//   INSN_COUNT  RW  insn_count_o
//   UNIT_STATE  R   unit_state_i
//   counters    R   counter k of counters_i: lo word at CSR_CYCLES + 8k, hi word at +4
//   CFG_*       R   the CFG_* parameters
// CTRL reads as 0. Any other address, an unaligned one, or a write to a read-only
// register: reads return 0 with SLVERR, writes change nothing and answer SLVERR.
//
// AW and W are taken in either order or together (one of each held at a time); the
// write is performed once both are held and the previous B has been taken, so B
// responses come in order. A read is answered the cycle after its AR, with the
// register's value in the AR cycle; the next AR is taken once R has been taken.
`include "accel_assert.svh"
`default_nettype none

module accel_axil_csr #(
    parameter int CFG_BATCH = 1,           // identity of the compiled hardware config,
    parameter int CFG_BLOCK_IN = 16,       // read back through the CFG_* registers
    parameter int CFG_BLOCK_OUT = 16,
    parameter int CFG_AXI_DATA_BITS = 64,
    parameter int CFG_INP_DEPTH = 2048,
    parameter int CFG_WGT_DEPTH = 1024,
    parameter int CFG_ACC_DEPTH = 2048,
    // 64-bit counters CYCLES .. DRAIN_WAIT, 8 bytes apart
    localparam int NUM_COUNTERS =
        ({20'd0, accel_isa_pkg::CSR_DRAIN_WAIT - accel_isa_pkg::CSR_CYCLES} >> 3) + 32'd1
) (
    input  wire logic                      clk_i,
    input  wire logic                      rst_i,
    // AXI4-Lite slave
    input  wire logic [11:0]               s_axil_awaddr,
    input  wire logic                      s_axil_awvalid,
    output logic                           s_axil_awready,
    input  wire logic [31:0]               s_axil_wdata,
    input  wire logic [3:0]                s_axil_wstrb,
    input  wire logic                      s_axil_wvalid,
    output logic                           s_axil_wready,
    output logic [1:0]                     s_axil_bresp,
    output logic                           s_axil_bvalid,
    input  wire logic                      s_axil_bready,
    input  wire logic [11:0]               s_axil_araddr,
    input  wire logic                      s_axil_arvalid,
    output logic                           s_axil_arready,
    output logic [31:0]                    s_axil_rdata,
    output logic [1:0]                     s_axil_rresp,
    output logic                           s_axil_rvalid,
    input  wire logic                      s_axil_rready,
    // run control and status
    output logic                           start_o,
    output logic [31:0]                    insn_addr_o,
    output logic [31:0]                    insn_count_o,
    input  wire logic                      busy_i,
    input  wire logic                      done_i,
    input  wire logic [accel_isa_pkg::ERR_W-1:0] error_i,
    input  wire logic [15:0]               unit_state_i,
    input  wire logic [NUM_COUNTERS*64-1:0] counters_i
);
    localparam logic [1:0] RESP_OKAY = 2'b00, RESP_SLVERR = 2'b10;
    localparam logic [11:0] CNT_BASE = accel_isa_pkg::CSR_CYCLES;
    localparam logic [11:0] CNT_END = CNT_BASE + 12'(8 * NUM_COUNTERS);  // exclusive
    localparam int CWW = $clog2(2 * NUM_COUNTERS);  // 32-bit counter word index bits

    if (CNT_BASE[2:0] != 3'd0 || NUM_COUNTERS < 2) begin : g_bad_counters
        $error("accel_axil_csr: the counters must be 64-bit aligned, CYCLES first");
    end

    // ---------------------------------------------------------------- read channel
    // The register is decoded in the cycle that takes the address, inside the clocked
    // block: nothing is evaluated while no read is in progress (the simulator's
    // per-cycle cost), and the CSR map reads like a table.
    logic [CWW-1:0] cnt_word;  // word 2k is counter k's lo half, 2k+1 its hi half
    assign cnt_word = s_axil_araddr[2 +: CWW] - CNT_BASE[2 +: CWW];

    assign s_axil_arready = !s_axil_rvalid;
`ifdef ACCEL_ASSERT_ON
    // AXI4-Lite: a response, once valid, stays unchanged until the master takes it.
    accel_prim_valid_ready_check #(.WIDTH(34)) u_r_check (
        .clk_i, .rst_i, .valid_i(s_axil_rvalid), .ready_i(s_axil_rready),
        .payload_i({s_axil_rdata, s_axil_rresp}));
    accel_prim_valid_ready_check #(.WIDTH(2)) u_b_check (
        .clk_i, .rst_i, .valid_i(s_axil_bvalid), .ready_i(s_axil_bready),
        .payload_i(s_axil_bresp));
`endif

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            s_axil_rvalid <= 1'b0;
        end else if (s_axil_arvalid && s_axil_arready) begin
            s_axil_rvalid <= 1'b1;
        end else if (s_axil_rready) begin
            s_axil_rvalid <= 1'b0;
        end
    end

    always_ff @(posedge clk_i) begin
        if (s_axil_arvalid && s_axil_arready) begin
            s_axil_rresp <= RESP_OKAY;
            unique case (s_axil_araddr)
                accel_isa_pkg::CSR_CTRL:              s_axil_rdata <= 32'd0;
                accel_isa_pkg::CSR_STATUS:            s_axil_rdata <= {30'd0, done_i, busy_i};
                accel_isa_pkg::CSR_ERROR:             s_axil_rdata <= 32'(error_i);
                accel_isa_pkg::CSR_INSN_ADDR:         s_axil_rdata <= insn_addr_o;
                accel_isa_pkg::CSR_INSN_COUNT:        s_axil_rdata <= insn_count_o;
                accel_isa_pkg::CSR_UNIT_STATE:        s_axil_rdata <= {16'd0, unit_state_i};
                accel_isa_pkg::CSR_CFG_BATCH:         s_axil_rdata <= 32'(CFG_BATCH);
                accel_isa_pkg::CSR_CFG_BLOCK_IN:      s_axil_rdata <= 32'(CFG_BLOCK_IN);
                accel_isa_pkg::CSR_CFG_BLOCK_OUT:     s_axil_rdata <= 32'(CFG_BLOCK_OUT);
                accel_isa_pkg::CSR_CFG_AXI_DATA_BITS: s_axil_rdata <= 32'(CFG_AXI_DATA_BITS);
                accel_isa_pkg::CSR_CFG_INP_DEPTH:     s_axil_rdata <= 32'(CFG_INP_DEPTH);
                accel_isa_pkg::CSR_CFG_WGT_DEPTH:     s_axil_rdata <= 32'(CFG_WGT_DEPTH);
                accel_isa_pkg::CSR_CFG_ACC_DEPTH:     s_axil_rdata <= 32'(CFG_ACC_DEPTH);
                default: begin
                    if (s_axil_araddr >= CNT_BASE && s_axil_araddr < CNT_END &&
                        s_axil_araddr[1:0] == 2'd0) begin
                        s_axil_rdata <= counters_i[32*cnt_word +: 32];
                    end else begin
                        s_axil_rdata <= 32'd0;
                        s_axil_rresp <= RESP_SLVERR;
                    end
                end
            endcase
        end
    end

    // ---------------------------------------------------------------- write channels
    logic        aw_have_q, w_have_q, do_write;
    logic [11:0] aw_addr_q;
    logic [31:0] w_data_q, strb_mask;
    logic [3:0]  w_strb_q;

    assign s_axil_awready = !aw_have_q;
    assign s_axil_wready  = !w_have_q;
    assign do_write = aw_have_q && w_have_q && !s_axil_bvalid;
    assign strb_mask = {{8{w_strb_q[3]}}, {8{w_strb_q[2]}}, {8{w_strb_q[1]}}, {8{w_strb_q[0]}}};

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            aw_have_q     <= 1'b0;
            w_have_q      <= 1'b0;
            s_axil_bvalid <= 1'b0;
            start_o       <= 1'b0;
            insn_addr_o   <= '0;
            insn_count_o  <= '0;
        end else begin
            start_o <= 1'b0;
            if (s_axil_awvalid && s_axil_awready) begin
                aw_have_q <= 1'b1;
                aw_addr_q <= s_axil_awaddr;
            end
            if (s_axil_wvalid && s_axil_wready) begin
                w_have_q <= 1'b1;
                w_data_q <= s_axil_wdata;
                w_strb_q <= s_axil_wstrb;
            end
            if (s_axil_bvalid && s_axil_bready) s_axil_bvalid <= 1'b0;
            if (do_write) begin
                aw_have_q     <= 1'b0;
                w_have_q      <= 1'b0;
                s_axil_bvalid <= 1'b1;
                s_axil_bresp  <= RESP_OKAY;
                unique case (aw_addr_q)
                    accel_isa_pkg::CSR_CTRL:
                        start_o <= w_strb_q[0] && w_data_q[0] && !busy_i;
                    accel_isa_pkg::CSR_INSN_ADDR:
                        insn_addr_o <= (insn_addr_o & ~strb_mask) | (w_data_q & strb_mask);
                    accel_isa_pkg::CSR_INSN_COUNT:
                        insn_count_o <= (insn_count_o & ~strb_mask) | (w_data_q & strb_mask);
                    default:
                        s_axil_bresp <= RESP_SLVERR;
                endcase
            end
        end
    end
endmodule

`default_nettype wire
