// The board's stand-in for DRAM: MEM_BYTES of on-chip RAM (one accel_prim_sram_1p)
// behind an AXI4 slave for the accelerator's memory master, plus a byte-wide host port
// for the UART bridge. The RAM has one port, so each cycle it serves one of: the host
// port (first), a read beat or a write beat (these two alternate when both want it).
//
// AXI4 slave: one read burst and one write burst at a time, INCR bursts of full beats.
// A burst that is misaligned, not INCR of full beats, or reaches past MEM_BYTES is
// answered SLVERR (zero data on reads, data discarded on writes), as the simulated
// DRAM does. Read beats go from the RAM into an R queue, written beats into a W queue
// before the RAM (honouring wstrb): the RAM's port is then steered by this module's
// registers only, never by the master's rready or wvalid, whose logic reaches back
// into the accelerator (docs/fpga.md, timing). A read beat is issued while the R queue
// has room for every beat in flight, so reads stream at one beat per cycle.
//
// Host port: host_req_i holds until host_gnt_o; a granted read returns its byte on
// host_rdata_o with host_rvalid_o the next cycle. host_addr_i must be below MEM_BYTES
// (the bridge checks it); higher bits are ignored.
`include "accel_assert.svh"
`default_nettype none

module accel_board_memory #(
    parameter int MEM_BYTES = 65536,  // memory size, a multiple of BEAT_BYTES
    parameter int BEAT_BYTES = 4,     // AXI data width in bytes, a power of two
    localparam int DW = 8 * BEAT_BYTES,
    localparam int DEPTH = MEM_BYTES / BEAT_BYTES,
    localparam int AW = accel_isa_pkg::index_w(DEPTH)
) (
    input  wire logic          clk_i,
    input  wire logic          rst_i,
    // AXI4 slave: read
    input  wire logic [0:0]    s_axi_arid,
    input  wire logic [31:0]   s_axi_araddr,
    input  wire logic [7:0]    s_axi_arlen,
    input  wire logic [2:0]    s_axi_arsize,
    input  wire logic [1:0]    s_axi_arburst,
    input  wire logic          s_axi_arvalid,
    output logic               s_axi_arready,
    output logic [0:0]         s_axi_rid,
    output logic [DW-1:0]      s_axi_rdata,
    output logic [1:0]         s_axi_rresp,
    output logic               s_axi_rlast,
    output logic               s_axi_rvalid,
    input  wire logic          s_axi_rready,
    // AXI4 slave: write
    input  wire logic [31:0]   s_axi_awaddr,
    input  wire logic [7:0]    s_axi_awlen,
    input  wire logic [2:0]    s_axi_awsize,
    input  wire logic [1:0]    s_axi_awburst,
    input  wire logic          s_axi_awvalid,
    output logic               s_axi_awready,
    input  wire logic [DW-1:0] s_axi_wdata,
    input  wire logic [DW/8-1:0] s_axi_wstrb,
    input  wire logic          s_axi_wlast,
    input  wire logic          s_axi_wvalid,
    output logic               s_axi_wready,
    output logic [1:0]         s_axi_bresp,
    output logic               s_axi_bvalid,
    input  wire logic          s_axi_bready,
    // host byte port
    input  wire logic          host_req_i,
    input  wire logic          host_we_i,
    input  wire logic [31:0]   host_addr_i,
    input  wire logic [7:0]    host_wdata_i,
    output logic               host_gnt_o,
    output logic               host_rvalid_o,
    output logic [7:0]         host_rdata_o
);
    localparam int OW = $clog2(BEAT_BYTES);  // byte-in-beat address bits
    localparam logic [2:0] FULL_SIZE = 3'($clog2(BEAT_BYTES));
    localparam logic [1:0] INCR = 2'b01, OKAY = 2'b00, SLVERR = 2'b10;

    if (BEAT_BYTES < 2 || (BEAT_BYTES & (BEAT_BYTES - 1)) != 0) begin : g_bad_beat
        $error("accel_board_memory: BEAT_BYTES must be a power of two, at least 2");
    end
    if (MEM_BYTES < BEAT_BYTES || MEM_BYTES % BEAT_BYTES != 0) begin : g_bad_size
        $error("accel_board_memory: MEM_BYTES must be a positive multiple of BEAT_BYTES");
    end

    // A burst is served when it is aligned, INCR of full beats and inside the memory:
    // the address's bits above the memory are zero and its beat plus len (the burst's
    // last beat) is below DEPTH. A narrow addition rather than the last byte's 33-bit
    // one: this check closes the path from the AR channel (docs/fpga.md, timing).
    localparam int EW = ((AW > 8) ? AW : 8) + 1;  // a beat index plus a length
    function automatic logic burst_ok(input logic [31:0] addr, input logic [7:0] len,
                                      input logic [2:0] size, input logic [1:0] burst);
        logic [EW-1:0] last_beat;
        last_beat = EW'(addr[OW +: AW]) + EW'(len);
        burst_ok = size == FULL_SIZE && burst == INCR && addr[OW-1:0] == '0 &&
                   addr[31:OW+AW] == '0 && last_beat < EW'(DEPTH);
    endfunction

    // ---------------------------------------------------------------- RAM and its port
    logic ram_en;
    logic [BEAT_BYTES-1:0] ram_we;
    logic [AW-1:0] ram_addr;
    logic [DW-1:0] ram_wdata, ram_rdata;

    accel_prim_sram_1p #(.BYTES_PER_WORD(BEAT_BYTES), .DEPTH(DEPTH)) u_ram (
        .clk_i, .en_i(ram_en), .we_i(ram_we), .addr_i(ram_addr), .wdata_i(ram_wdata),
        .rdata_o(ram_rdata));

    // ---------------------------------------------------------------- read burst state
    localparam int R_DEPTH = 4;  // R queue entries: beats issued in the last two
                                 // cycles plus the head, at a beat per cycle
    localparam int RQ_W = 1 + 2 + 1 + DW;  // {id, resp, last, data}
    logic rd_active_q, rd_err_q, rd_issued_q, rd_issued_last_q;
    logic [0:0] rd_id_q;
    logic [AW-1:0] rd_addr_q;
    logic [7:0] rd_left_q;         // beats still to issue, minus one
    localparam int RU_W = $clog2(R_DEPTH + 1);
    logic [RU_W-1:0] r_used_q;     // beats issued and not yet taken
    logic r_pop, r_empty, rd_can_issue, rd_want, rd_gnt, rd_issue;

    assign rd_can_issue = rd_active_q & (r_used_q != RU_W'(R_DEPTH));
    assign rd_want = rd_can_issue & ~rd_err_q;

    // ---------------------------------------------------------------- write burst state
    localparam int W_DEPTH = 4;
    localparam int WQ_W = DW + DW / 8 + 1;  // {data, strb, last}
    logic wr_active_q, wr_err_q, bvalid_q;
    logic [1:0] bresp_q;
    logic [AW-1:0] wr_addr_q;
    logic w_full, w_empty, w_last;
    logic [DW-1:0] w_data;
    logic [DW/8-1:0] w_strb;
    logic wr_want, wr_gnt, w_take;

    accel_prim_fifo_sync #(.WIDTH(WQ_W), .DEPTH(W_DEPTH)) u_wq (
        .clk_i, .rst_i, .push_i(s_axi_wvalid & ~w_full),
        .wdata_i({s_axi_wdata, s_axi_wstrb, s_axi_wlast}), .full_o(w_full),
        .pop_i(w_take), .rdata_o({w_data, w_strb, w_last}), .empty_o(w_empty));
    assign s_axi_wready = ~w_full;
    assign wr_want = wr_active_q & ~wr_err_q & ~w_empty;

    // ---------------------------------------------------------------- arbitration
    logic prefer_write_q;  // read and write alternate when both want the RAM
    logic host_gnt;
    logic host_read_q;
    logic [OW-1:0] host_off_q;

    always_comb begin
        host_gnt = host_req_i;
        rd_gnt = 1'b0;
        wr_gnt = 1'b0;
        if (!host_req_i) begin
            if (rd_want && wr_want) begin
                wr_gnt = prefer_write_q;
                rd_gnt = ~prefer_write_q;
            end else begin
                wr_gnt = wr_want;
                rd_gnt = rd_want;
            end
        end
    end

    always_comb begin
        ram_en = host_gnt | rd_gnt | wr_gnt;
        ram_we = '0;
        ram_addr = rd_addr_q;
        ram_wdata = w_data;
        if (host_gnt) begin
            ram_addr = AW'(host_addr_i >> OW);
            ram_wdata = {BEAT_BYTES{host_wdata_i}};
            for (int b = 0; b < BEAT_BYTES; b++) begin
                ram_we[b] = host_we_i && 32'(b) == (host_addr_i & 32'(BEAT_BYTES - 1));
            end
        end else if (wr_gnt) begin
            ram_addr = wr_addr_q;
            ram_we = w_strb;
        end
    end

    assign host_gnt_o = host_gnt;
    assign rd_issue = rd_can_issue & (rd_err_q | rd_gnt);
    assign w_take = wr_active_q & ~w_empty & (wr_err_q | wr_gnt);

    always_ff @(posedge clk_i) begin
        if (rst_i) prefer_write_q <= 1'b0;
        else if (rd_gnt) prefer_write_q <= 1'b1;
        else if (wr_gnt) prefer_write_q <= 1'b0;
    end

    always_ff @(posedge clk_i) begin
        if (rst_i) host_read_q <= 1'b0;
        else host_read_q <= host_gnt & ~host_we_i;
        host_off_q <= OW'(host_addr_i);
    end
    assign host_rvalid_o = host_read_q;
    assign host_rdata_o = 8'(ram_rdata >> (8 * 32'(host_off_q)));

    // ---------------------------------------------------------------- read channel
    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            rd_active_q <= 1'b0;
            rd_issued_q <= 1'b0;
            r_used_q <= '0;
        end else begin
            if (!rd_active_q && s_axi_arvalid) begin
                rd_active_q <= 1'b1;
                rd_id_q <= s_axi_arid;
                rd_addr_q <= AW'(s_axi_araddr >> OW);
                rd_left_q <= s_axi_arlen;
                rd_err_q <= ~burst_ok(s_axi_araddr, s_axi_arlen, s_axi_arsize, s_axi_arburst);
            end else if (rd_issue) begin
                rd_addr_q <= rd_addr_q + 1'b1;
                rd_left_q <= rd_left_q - 1'b1;
                if (rd_left_q == '0) rd_active_q <= 1'b0;
            end
            rd_issued_q <= rd_issue;
            rd_issued_last_q <= rd_left_q == '0;
            r_used_q <= r_used_q + RU_W'(rd_issue) - RU_W'(r_pop);
        end
    end

    // The beat issued last cycle enters the R queue (it has room: r_used_q counted it).
    logic r_full;
    accel_prim_fifo_sync #(.WIDTH(RQ_W), .DEPTH(R_DEPTH)) u_rq (
        .clk_i, .rst_i, .push_i(rd_issued_q),
        .wdata_i({rd_id_q, rd_err_q ? SLVERR : OKAY, rd_issued_last_q,
                  rd_err_q ? DW'(0) : ram_rdata}),
        .full_o(r_full), .pop_i(r_pop),
        .rdata_o({s_axi_rid, s_axi_rresp, s_axi_rlast, s_axi_rdata}), .empty_o(r_empty));
    assign r_pop = ~r_empty & s_axi_rready;
    assign s_axi_arready = ~rd_active_q;
    assign s_axi_rvalid = ~r_empty;
    `ACCEL_ASSERT(a_r_queue_room, rd_issued_q |-> !r_full, clk_i, rst_i)

    // ---------------------------------------------------------------- write channel
    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            wr_active_q <= 1'b0;
            bvalid_q <= 1'b0;
        end else begin
            if (!wr_active_q && !bvalid_q && s_axi_awvalid) begin
                wr_active_q <= 1'b1;
                wr_addr_q <= AW'(s_axi_awaddr >> OW);
                wr_err_q <= ~burst_ok(s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst);
            end else if (w_take) begin
                wr_addr_q <= wr_addr_q + 1'b1;
                if (w_last) begin
                    wr_active_q <= 1'b0;
                    bvalid_q <= 1'b1;
                    bresp_q <= wr_err_q ? SLVERR : OKAY;
                end
            end
            if (bvalid_q && s_axi_bready) bvalid_q <= 1'b0;
        end
    end

    assign s_axi_awready = ~wr_active_q & ~bvalid_q;
    assign s_axi_bvalid = bvalid_q;
    assign s_axi_bresp = bresp_q;
endmodule

`default_nettype wire
