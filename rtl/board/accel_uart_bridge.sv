// The UART bridge of the board: parses request frames from the host, performs them on
// the accelerator's CSRs (an AXI4-Lite master) and on the board memory (a byte port),
// and answers each complete frame with a response frame. docs/uart-protocol.md is the
// contract; in short:
//
//   request:  0xA5 CMD ADDR[4] LEN[2] payload CRC      (multi-byte fields little-endian)
//   response: 0x5A STATUS payload CRC
//
// CRC is CRC-8 (polynomial 0x07, initial 0) over every byte after the sync byte. The
// payload of MEM_WRITE streams into memory as it arrives, so a MEM_WRITE answered
// BAD_CHECKSUM may have written some of its bytes. A frame that stalls for TIMEOUT_CLKS
// cycles between bytes is dropped without an answer; the parser then hunts for 0xA5.
`default_nettype none

module accel_uart_bridge #(
    parameter int MEM_BYTES = 65536,      // board memory size, reported by INFO
    parameter int TIMEOUT_CLKS = 1200000  // inter-byte gap that drops a partial frame
) (
    input  wire logic        clk_i,
    input  wire logic        rst_i,
    // received bytes
    input  wire logic        rx_valid_i,
    output logic             rx_ready_o,
    input  wire logic [7:0]  rx_data_i,
    // bytes to send
    output logic             tx_valid_o,
    input  wire logic        tx_ready_i,
    output logic [7:0]       tx_data_o,
    // AXI4-Lite master to the CSRs
    output logic [11:0]      m_axil_awaddr,
    output logic             m_axil_awvalid,
    input  wire logic        m_axil_awready,
    output logic [31:0]      m_axil_wdata,
    output logic [3:0]       m_axil_wstrb,
    output logic             m_axil_wvalid,
    input  wire logic        m_axil_wready,
    input  wire logic [1:0]  m_axil_bresp,
    input  wire logic        m_axil_bvalid,
    output logic             m_axil_bready,
    output logic [11:0]      m_axil_araddr,
    output logic             m_axil_arvalid,
    input  wire logic        m_axil_arready,
    input  wire logic [31:0] m_axil_rdata,
    input  wire logic [1:0]  m_axil_rresp,
    input  wire logic        m_axil_rvalid,
    output logic             m_axil_rready,
    // board memory byte port (accel_board_memory's host port)
    output logic             mem_req_o,
    output logic             mem_we_o,
    output logic [31:0]      mem_addr_o,
    output logic [7:0]       mem_wdata_o,
    input  wire logic        mem_gnt_i,
    input  wire logic        mem_rvalid_i,
    input  wire logic [7:0]  mem_rdata_i,
    // status, for LEDs
    output logic             busy_o,      // a frame is being received or answered
    output logic             frame_ok_o,  // pulse: a frame was answered OK
    output logic             frame_err_o  // pulse: a frame was answered with an error or dropped
);
    localparam logic [7:0] SYNC_REQ = 8'hA5, SYNC_RSP = 8'h5A;
    localparam logic [7:0] CMD_INFO = 8'h01, CMD_REG_READ = 8'h02, CMD_REG_WRITE = 8'h03,
                           CMD_MEM_READ = 8'h04, CMD_MEM_WRITE = 8'h05;
    localparam logic [7:0] ST_OK = 8'd0, ST_BAD_CHECKSUM = 8'd1, ST_BAD_COMMAND = 8'd2,
                           ST_BAD_ADDRESS = 8'd3, ST_BAD_LENGTH = 8'd4, ST_BUS_ERROR = 8'd5;
    localparam logic [7:0] VERSION = 8'd1;
    localparam int TW = $clog2(TIMEOUT_CLKS + 1);

    if (MEM_BYTES < 1) begin : g_bad_mem
        $error("accel_uart_bridge: MEM_BYTES must be positive");
    end

    // CRC-8, polynomial x^8 + x^2 + x + 1, MSB first: one byte.
    function automatic logic [7:0] crc8(input logic [7:0] crc, input logic [7:0] data);
        logic [7:0] c;
        c = crc ^ data;
        for (int i = 0; i < 8; i++) c = c[7] ? ((c << 1) ^ 8'h07) : (c << 1);
        crc8 = c;
    endfunction

    typedef enum logic [3:0] {
        S_SYNC, S_HDR, S_DECODE, S_PAYLOAD, S_MEM_WRITE, S_CRC, S_EXEC, S_AXI_WRITE,
        S_AXI_READ, S_TX_SYNC, S_TX_STATUS, S_TX_DATA, S_MEM_READ, S_MEM_WAIT, S_TX_CRC
    } state_e;

    state_e state_q, state_d;
    logic [55:0] hdr_q, hdr_d;     // CMD, ADDR, LEN as received (byte 0 = CMD)
    logic [15:0] count_q, count_d; // bytes left: header, payload or response data
    logic [7:0] crc_q, crc_d;
    logic [7:0] status_q, status_d;
    logic [31:0] ptr_q, ptr_d;     // memory address of the next payload/response byte
    logic [63:0] data_q, data_d;   // REG_WRITE payload in, REG_READ/INFO data out (LSB first)
    logic [7:0] byte_q, byte_d;    // the byte to send (TX_DATA) or to write (MEM_WRITE)
    logic aw_done_q, aw_done_d, w_done_q, w_done_d;
    logic [TW-1:0] idle_q;
    logic timeout;

    logic [7:0] cmd;
    logic [31:0] addr;
    logic [15:0] len;
    assign cmd = hdr_q[7:0];
    assign addr = hdr_q[39:8];
    assign len = hdr_q[55:40];

    logic rx_take;
    assign rx_take = rx_valid_i & rx_ready_o;

    // Receiving a frame: time since its last byte.
    assign timeout = (state_q == S_HDR || state_q == S_PAYLOAD || state_q == S_CRC) &&
                     idle_q == TW'(TIMEOUT_CLKS);
    always_ff @(posedge clk_i) begin
        if (rst_i || rx_take || state_q == S_SYNC) idle_q <= '0;
        else if (idle_q != TW'(TIMEOUT_CLKS)) idle_q <= idle_q + 1'b1;
    end

    // Checks that need only the header; the payload is received either way.
    function automatic logic [7:0] precheck(input logic [7:0] c, input logic [31:0] a,
                                            input logic [15:0] n);
        logic [32:0] end_addr;
        end_addr = {1'b0, a} + 33'(n);
        unique case (c)
            CMD_INFO: precheck = n != '0 ? ST_BAD_LENGTH : ST_OK;
            CMD_REG_READ, CMD_REG_WRITE:
                precheck = n != '0 ? ST_BAD_LENGTH :
                           (a[31:12] != '0 || a[1:0] != '0) ? ST_BAD_ADDRESS : ST_OK;
            CMD_MEM_READ, CMD_MEM_WRITE:
                precheck = end_addr > 33'(MEM_BYTES) ? ST_BAD_ADDRESS : ST_OK;
            default: precheck = ST_BAD_COMMAND;
        endcase
    endfunction

    always_comb begin
        state_d = state_q;
        hdr_d = hdr_q;
        count_d = count_q;
        crc_d = crc_q;
        status_d = status_q;
        ptr_d = ptr_q;
        data_d = data_q;
        byte_d = byte_q;
        aw_done_d = aw_done_q;
        w_done_d = w_done_q;
        rx_ready_o = 1'b0;
        tx_valid_o = 1'b0;
        tx_data_o = byte_q;
        m_axil_awvalid = 1'b0;
        m_axil_wvalid = 1'b0;
        m_axil_bready = 1'b0;
        m_axil_arvalid = 1'b0;
        m_axil_rready = 1'b0;
        mem_req_o = 1'b0;
        mem_we_o = 1'b0;
        frame_ok_o = 1'b0;
        frame_err_o = 1'b0;
        unique case (state_q)
            S_SYNC: begin
                rx_ready_o = 1'b1;
                crc_d = '0;
                count_d = 16'd7;
                if (rx_valid_i && rx_data_i == SYNC_REQ) state_d = S_HDR;
            end
            S_HDR: begin
                rx_ready_o = 1'b1;
                if (rx_valid_i) begin
                    hdr_d = {rx_data_i, hdr_q[55:8]};
                    crc_d = crc8(crc_q, rx_data_i);
                    count_d = count_q - 1'b1;
                    if (count_q == 16'd1) state_d = S_DECODE;
                end
            end
            S_DECODE: begin
                status_d = precheck(cmd, addr, len);
                ptr_d = addr;
                count_d = cmd == CMD_MEM_WRITE ? len : cmd == CMD_REG_WRITE ? 16'd4 : 16'd0;
                state_d = count_d == '0 ? S_CRC : S_PAYLOAD;
            end
            S_PAYLOAD: begin
                rx_ready_o = 1'b1;
                if (rx_valid_i) begin
                    crc_d = crc8(crc_q, rx_data_i);
                    data_d = {rx_data_i, data_q[63:8]};
                    byte_d = rx_data_i;
                    count_d = count_q - 1'b1;
                    if (cmd == CMD_MEM_WRITE && status_q == ST_OK) state_d = S_MEM_WRITE;
                    else if (count_q == 16'd1) state_d = S_CRC;
                end
            end
            S_MEM_WRITE: begin
                mem_req_o = 1'b1;
                mem_we_o = 1'b1;
                if (mem_gnt_i) begin
                    ptr_d = ptr_q + 1'b1;
                    state_d = count_q == '0 ? S_CRC : S_PAYLOAD;
                end
            end
            S_CRC: begin
                rx_ready_o = 1'b1;
                if (rx_valid_i) begin
                    if (rx_data_i != crc_q) status_d = ST_BAD_CHECKSUM;
                    state_d = S_EXEC;
                end
            end
            S_EXEC: begin
                state_d = S_TX_SYNC;
                count_d = '0;
                aw_done_d = 1'b0;
                w_done_d = 1'b0;
                if (status_q == ST_OK) begin
                    unique case (cmd)
                        CMD_REG_WRITE: state_d = S_AXI_WRITE;
                        CMD_REG_READ: state_d = S_AXI_READ;
                        CMD_INFO: begin
                            data_d = {32'(MEM_BYTES), VERSION, "CCA"};
                            count_d = 16'd8;
                        end
                        CMD_MEM_READ: count_d = len;
                        default: ;
                    endcase
                end
            end
            S_AXI_WRITE: begin
                m_axil_awvalid = ~aw_done_q;
                m_axil_wvalid = ~w_done_q;
                m_axil_bready = 1'b1;
                if (m_axil_awready) aw_done_d = 1'b1;
                if (m_axil_wready) w_done_d = 1'b1;
                if (m_axil_bvalid) begin
                    if (m_axil_bresp != 2'b00) status_d = ST_BUS_ERROR;
                    state_d = S_TX_SYNC;
                end
            end
            S_AXI_READ: begin
                m_axil_arvalid = ~aw_done_q;  // aw_done_q: the AR was taken
                m_axil_rready = 1'b1;
                if (m_axil_arready) aw_done_d = 1'b1;
                if (m_axil_rvalid) begin
                    if (m_axil_rresp != 2'b00) status_d = ST_BUS_ERROR;
                    else begin
                        data_d = {32'd0, m_axil_rdata};
                        count_d = 16'd4;
                    end
                    state_d = S_TX_SYNC;
                end
            end
            S_TX_SYNC: begin
                tx_valid_o = 1'b1;
                tx_data_o = SYNC_RSP;
                crc_d = '0;
                if (tx_ready_i) state_d = S_TX_STATUS;
            end
            S_TX_STATUS: begin
                tx_valid_o = 1'b1;
                tx_data_o = status_q;
                if (tx_ready_i) begin
                    crc_d = crc8(crc_q, status_q);
                    state_d = count_q == '0 ? S_TX_CRC : cmd == CMD_MEM_READ ? S_MEM_READ : S_TX_DATA;
                    byte_d = data_q[7:0];
                end
            end
            S_MEM_READ: begin
                mem_req_o = 1'b1;
                if (mem_gnt_i) begin
                    ptr_d = ptr_q + 1'b1;
                    state_d = S_MEM_WAIT;
                end
            end
            S_MEM_WAIT: if (mem_rvalid_i) begin
                byte_d = mem_rdata_i;
                state_d = S_TX_DATA;
            end
            S_TX_DATA: begin
                tx_valid_o = 1'b1;
                if (tx_ready_i) begin
                    crc_d = crc8(crc_q, byte_q);
                    data_d = {8'd0, data_q[63:8]};
                    byte_d = data_q[15:8];
                    count_d = count_q - 1'b1;
                    state_d = count_q == 16'd1 ? S_TX_CRC : cmd == CMD_MEM_READ ? S_MEM_READ : S_TX_DATA;
                end
            end
            S_TX_CRC: begin
                tx_valid_o = 1'b1;
                tx_data_o = crc_q;
                if (tx_ready_i) begin
                    state_d = S_SYNC;
                    frame_ok_o = status_q == ST_OK;
                    frame_err_o = status_q != ST_OK;
                end
            end
            default: state_d = S_SYNC;
        endcase
        if (timeout) begin
            state_d = S_SYNC;
            frame_err_o = 1'b1;
        end
    end

    always_ff @(posedge clk_i) begin
        if (rst_i) state_q <= S_SYNC;
        else state_q <= state_d;
        hdr_q <= hdr_d;
        count_q <= count_d;
        crc_q <= crc_d;
        status_q <= status_d;
        ptr_q <= ptr_d;
        data_q <= data_d;
        byte_q <= byte_d;
        aw_done_q <= aw_done_d;
        w_done_q <= w_done_d;
    end

    assign m_axil_awaddr = addr[11:0];
    assign m_axil_araddr = addr[11:0];
    assign m_axil_wdata = data_q[63:32];
    assign m_axil_wstrb = 4'hF;
    assign mem_addr_o = ptr_q;
    assign mem_wdata_o = byte_q;
    assign busy_o = state_q != S_SYNC;
endmodule

`default_nettype wire
