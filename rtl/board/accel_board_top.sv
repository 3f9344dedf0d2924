// A board build of the accelerator: accel_top, MEM_BYTES of on-chip RAM standing in for
// DRAM (accel_board_memory), and a UART bridge through which a host reads and writes
// the CSRs and the memory (docs/uart-protocol.md). Sizes come from the generated
// accel_cfg_pkg of the hardware config, as for accel_top.
//
// Reset: internal power-on reset, synchronous and active high, for the first 16 cycles
// after configuration (the FPGA loads the counter's initial value) and for 16 cycles
// after rst_ni goes high again: rst_ni low holds the board in reset (the iCEBreaker's
// user button; on the ULX3S, the PLL until it locks).
// LEDs: 0 heartbeat (about 1 Hz), 1 a UART frame in progress, 2 the last run is done,
// 3 the last frame failed (bad checksum, bad request, timeout or a UART framing
// error/overrun), until a frame succeeds.
`default_nettype none

module accel_board_top #(
    parameter int CLK_HZ = 12000000,   // clock frequency
    parameter int BAUD = 115200,       // UART bit rate; CLK_HZ / BAUD >= 4
    parameter int MEM_BYTES = 65536    // on-chip memory standing in for DRAM
) (
    input  wire clk_i,
    input  wire rst_ni,     // low: reset (asynchronous to clk_i; taken through por_q)
    input  wire uart_rx_i,
    output wire uart_tx_o,
    output wire [3:0] led_o
);
    localparam int BEAT_BYTES = accel_cfg_pkg::BEAT_BYTES;
    localparam int DW = 8 * BEAT_BYTES;
    localparam int CLKS_PER_BIT = CLK_HZ / BAUD;
    localparam int TIMEOUT_CLKS = CLK_HZ / 10;  // 100 ms without a byte drops a frame
    localparam int HEARTBEAT_BIT = $clog2(CLK_HZ) - 1;

    // ---------------------------------------------------------------- power-on reset
    logic [4:0] por_q = 5'd0;
    logic rst;
    always_ff @(posedge clk_i) begin
        if (!rst_ni) por_q <= 5'd0;
        else if (!por_q[4]) por_q <= por_q + 1'b1;
    end
    assign rst = ~por_q[4];

    // ---------------------------------------------------------------- UART
    logic rx_valid, rx_ready, rx_overrun, rx_frame_err, tx_valid, tx_ready;
    logic [7:0] rx_data, tx_data;

    accel_uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_rx (
        .clk_i, .rst_i(rst), .rx_i(uart_rx_i), .valid_o(rx_valid), .ready_i(rx_ready),
        .data_o(rx_data), .overrun_o(rx_overrun), .frame_err_o(rx_frame_err));
    accel_uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_tx (
        .clk_i, .rst_i(rst), .valid_i(tx_valid), .ready_o(tx_ready), .data_i(tx_data),
        .tx_o(uart_tx_o));

    // ---------------------------------------------------------------- bridge
    logic [11:0] axil_awaddr, axil_araddr;
    logic axil_awvalid, axil_awready, axil_wvalid, axil_wready, axil_bvalid, axil_bready;
    logic axil_arvalid, axil_arready, axil_rvalid, axil_rready;
    logic [31:0] axil_wdata, axil_rdata;
    logic [3:0] axil_wstrb;
    logic [1:0] axil_bresp, axil_rresp;
    logic mem_req, mem_we, mem_gnt, mem_rvalid;
    logic [31:0] mem_addr;
    logic [7:0] mem_wdata, mem_rdata;
    logic bridge_busy, frame_ok, frame_err;

    accel_uart_bridge #(.MEM_BYTES(MEM_BYTES), .TIMEOUT_CLKS(TIMEOUT_CLKS)) u_bridge (
        .clk_i, .rst_i(rst),
        .rx_valid_i(rx_valid), .rx_ready_o(rx_ready), .rx_data_i(rx_data),
        .tx_valid_o(tx_valid), .tx_ready_i(tx_ready), .tx_data_o(tx_data),
        .m_axil_awaddr(axil_awaddr), .m_axil_awvalid(axil_awvalid),
        .m_axil_awready(axil_awready), .m_axil_wdata(axil_wdata), .m_axil_wstrb(axil_wstrb),
        .m_axil_wvalid(axil_wvalid), .m_axil_wready(axil_wready), .m_axil_bresp(axil_bresp),
        .m_axil_bvalid(axil_bvalid), .m_axil_bready(axil_bready),
        .m_axil_araddr(axil_araddr), .m_axil_arvalid(axil_arvalid),
        .m_axil_arready(axil_arready), .m_axil_rdata(axil_rdata), .m_axil_rresp(axil_rresp),
        .m_axil_rvalid(axil_rvalid), .m_axil_rready(axil_rready),
        .mem_req_o(mem_req), .mem_we_o(mem_we), .mem_addr_o(mem_addr),
        .mem_wdata_o(mem_wdata), .mem_gnt_i(mem_gnt), .mem_rvalid_i(mem_rvalid),
        .mem_rdata_i(mem_rdata),
        .busy_o(bridge_busy), .frame_ok_o(frame_ok), .frame_err_o(frame_err));

    // ---------------------------------------------------------------- accelerator
    logic [0:0] arid, rid;
    logic [31:0] araddr, awaddr;
    logic [7:0] arlen, awlen;
    logic [2:0] arsize, awsize;
    logic [1:0] arburst, awburst, rresp, bresp;
    logic arvalid, arready, rlast, rvalid, rready, awvalid, awready, wlast, wvalid, wready;
    logic bvalid, bready, irq;
    logic [DW-1:0] rdata, wdata;
    logic [DW/8-1:0] wstrb;

    accel_top u_accel (
        .clk_i, .rst_i(rst),
        .s_axil_awaddr(axil_awaddr), .s_axil_awvalid(axil_awvalid),
        .s_axil_awready(axil_awready), .s_axil_wdata(axil_wdata), .s_axil_wstrb(axil_wstrb),
        .s_axil_wvalid(axil_wvalid), .s_axil_wready(axil_wready), .s_axil_bresp(axil_bresp),
        .s_axil_bvalid(axil_bvalid), .s_axil_bready(axil_bready),
        .s_axil_araddr(axil_araddr), .s_axil_arvalid(axil_arvalid),
        .s_axil_arready(axil_arready), .s_axil_rdata(axil_rdata), .s_axil_rresp(axil_rresp),
        .s_axil_rvalid(axil_rvalid), .s_axil_rready(axil_rready),
        .m_axi_arid(arid), .m_axi_araddr(araddr), .m_axi_arlen(arlen), .m_axi_arsize(arsize),
        .m_axi_arburst(arburst), .m_axi_arvalid(arvalid), .m_axi_arready(arready),
        .m_axi_rid(rid), .m_axi_rdata(rdata), .m_axi_rresp(rresp), .m_axi_rlast(rlast),
        .m_axi_rvalid(rvalid), .m_axi_rready(rready),
        .m_axi_awaddr(awaddr), .m_axi_awlen(awlen), .m_axi_awsize(awsize),
        .m_axi_awburst(awburst), .m_axi_awvalid(awvalid), .m_axi_awready(awready),
        .m_axi_wdata(wdata), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast), .m_axi_wvalid(wvalid),
        .m_axi_wready(wready), .m_axi_bresp(bresp), .m_axi_bvalid(bvalid),
        .m_axi_bready(bready), .irq_o(irq));

    accel_board_memory #(.MEM_BYTES(MEM_BYTES), .BEAT_BYTES(BEAT_BYTES)) u_mem (
        .clk_i, .rst_i(rst),
        .s_axi_arid(arid), .s_axi_araddr(araddr), .s_axi_arlen(arlen), .s_axi_arsize(arsize),
        .s_axi_arburst(arburst), .s_axi_arvalid(arvalid), .s_axi_arready(arready),
        .s_axi_rid(rid), .s_axi_rdata(rdata), .s_axi_rresp(rresp), .s_axi_rlast(rlast),
        .s_axi_rvalid(rvalid), .s_axi_rready(rready),
        .s_axi_awaddr(awaddr), .s_axi_awlen(awlen), .s_axi_awsize(awsize),
        .s_axi_awburst(awburst), .s_axi_awvalid(awvalid), .s_axi_awready(awready),
        .s_axi_wdata(wdata), .s_axi_wstrb(wstrb), .s_axi_wlast(wlast), .s_axi_wvalid(wvalid),
        .s_axi_wready(wready), .s_axi_bresp(bresp), .s_axi_bvalid(bvalid),
        .s_axi_bready(bready),
        .host_req_i(mem_req), .host_we_i(mem_we), .host_addr_i(mem_addr),
        .host_wdata_i(mem_wdata), .host_gnt_o(mem_gnt), .host_rvalid_o(mem_rvalid),
        .host_rdata_o(mem_rdata));

    // ---------------------------------------------------------------- LEDs
    logic [HEARTBEAT_BIT:0] heartbeat_q;
    logic failed_q;
    always_ff @(posedge clk_i) begin
        if (rst) begin
            heartbeat_q <= '0;
            failed_q <= 1'b0;
        end else begin
            heartbeat_q <= heartbeat_q + 1'b1;
            if (frame_err || rx_overrun || rx_frame_err) failed_q <= 1'b1;
            else if (frame_ok) failed_q <= 1'b0;
        end
    end
    assign led_o = {failed_q, irq, bridge_busy, heartbeat_q[HEARTBEAT_BIT]};
endmodule

`default_nettype wire
