// Two AXI4 read masters onto one AXI4 read channel (docs/architecture.md): port 0 (fetch)
// issues with ARID 0, port 1 (load) with ARID 1; every R beat goes to the port its RID
// names, whatever order the bursts of the two IDs come back in.
//
// AR: round-robin between the two ports, with no added latency (the AR channel passes
// through combinationally). Once a port's request is shown on m_ar* without being
// accepted, the choice is locked to it until m_arready_i, so the master side's
// ARVALID/ARADDR/ARLEN/ARID stay stable as AXI requires (given that each port keeps its
// own request stable, which AXI requires of it). ARVALID never depends on ARREADY.
// R: a pure demultiplexer on RID (ready comes from the port the beat belongs to).
`default_nettype none

module axi_read_arbiter #(
    parameter int DW = 64  // AXI data bits (a multiple of 8)
) (
    input  wire logic          clk_i,
    input  wire logic          rst_i,
    // port 0 (fetch): ARID 0
    input  wire logic          s0_ar_valid_i,
    output logic               s0_ar_ready_o,
    input  wire logic [31:0]   s0_ar_addr_i,
    input  wire logic [7:0]    s0_ar_len_i,
    output logic               s0_r_valid_o,
    input  wire logic          s0_r_ready_i,
    output logic      [DW-1:0] s0_r_data_o,
    output logic      [1:0]    s0_r_resp_o,
    output logic               s0_r_last_o,
    // port 1 (load): ARID 1
    input  wire logic          s1_ar_valid_i,
    output logic               s1_ar_ready_o,
    input  wire logic [31:0]   s1_ar_addr_i,
    input  wire logic [7:0]    s1_ar_len_i,
    output logic               s1_r_valid_o,
    input  wire logic          s1_r_ready_i,
    output logic      [DW-1:0] s1_r_data_o,
    output logic      [1:0]    s1_r_resp_o,
    output logic               s1_r_last_o,
    // the AXI read master (m_axi_ar*/r* of accel_top)
    output logic      [0:0]    m_arid_o,
    output logic               m_arvalid_o,
    input  wire logic          m_arready_i,
    output logic      [31:0]   m_araddr_o,
    output logic      [7:0]    m_arlen_o,
    input  wire logic [0:0]    m_rid_i,
    input  wire logic          m_rvalid_i,
    output logic               m_rready_o,
    input  wire logic [DW-1:0] m_rdata_i,
    input  wire logic [1:0]    m_rresp_i,
    input  wire logic          m_rlast_i
);
    if (DW < 8 || DW % 8 != 0) begin : g_bad_dw
        $error("axi_read_arbiter: DW must be a positive multiple of 8");
    end

    // ---- AR: round robin, locked while a request waits for ARREADY ----
    logic prio_q;      // the port that wins when both request
    logic lock_q;      // a request is on m_ar* and was not accepted yet
    logic lock_sel_q;  // ... from this port
    logic sel;         // the port shown on m_ar* this cycle

    always_comb begin
        if (lock_q) sel = lock_sel_q;
        else if (s0_ar_valid_i && s1_ar_valid_i) sel = prio_q;
        else sel = s1_ar_valid_i;
    end

    assign m_arid_o     = sel;
    assign m_arvalid_o  = sel ? s1_ar_valid_i : s0_ar_valid_i;
    assign m_araddr_o   = sel ? s1_ar_addr_i : s0_ar_addr_i;
    assign m_arlen_o    = sel ? s1_ar_len_i : s0_ar_len_i;
    assign s0_ar_ready_o = m_arready_i && !sel;
    assign s1_ar_ready_o = m_arready_i && sel;

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            prio_q     <= 1'b0;
            lock_q     <= 1'b0;
            lock_sel_q <= 1'b0;
        end else if (m_arvalid_o) begin
            lock_q     <= !m_arready_i;
            lock_sel_q <= sel;
            if (m_arready_i) prio_q <= !sel;  // the other port goes first next time
        end
    end

    // ---- R: routed by RID ----
    assign s0_r_valid_o = m_rvalid_i && (m_rid_i == 1'b0);
    assign s1_r_valid_o = m_rvalid_i && (m_rid_i == 1'b1);
    assign m_rready_o   = (m_rid_i == 1'b1) ? s1_r_ready_i : s0_r_ready_i;
    assign s0_r_data_o  = m_rdata_i;
    assign s0_r_resp_o  = m_rresp_i;
    assign s0_r_last_o  = m_rlast_i;
    assign s1_r_data_o  = m_rdata_i;
    assign s1_r_resp_o  = m_rresp_i;
    assign s1_r_last_o  = m_rlast_i;
endmodule

`default_nettype wire
