// Two AXI4 read masters onto one AXI4 read channel (docs/architecture.md): port 0 (fetch)
// issues with ARID 0, port 1 (load) with ARID 1; every R beat goes to the port its RID
// names, whatever order the bursts of the two IDs come back in. The ports' signals are
// concatenated, port 1 above port 0 (as verilog-axi's crossbars take theirs).
//
// AR: round-robin between the two ports, with no added latency (the AR channel passes
// through combinationally). Once a port's request is shown on m_ar* without being
// accepted, the choice is locked to it until m_arready_i, so the master side's
// ARVALID/ARADDR/ARLEN/ARID stay stable as AXI requires (given that each port keeps its
// own request stable, which AXI requires of it). ARVALID never depends on ARREADY.
// R: only the handshake is routed, by RID (ready comes from the port the beat belongs
// to); the beat itself (RDATA, RRESP, RLAST) goes from the master to both ports as it
// is, and only the port whose s_r_valid_o is high takes it.
`default_nettype none

module accel_axi_read_arbiter (
    input  wire logic        clk_i,
    input  wire logic        rst_i,
    // the two ports, port i issuing with ARID i: 0 fetch, 1 load
    input  wire logic [1:0]  s_ar_valid_i,
    output logic      [1:0]  s_ar_ready_o,
    input  wire logic [63:0] s_ar_addr_i,   // {port 1's ARADDR, port 0's}
    input  wire logic [15:0] s_ar_len_i,    // {port 1's ARLEN, port 0's}
    output logic      [1:0]  s_r_valid_o,
    input  wire logic [1:0]  s_r_ready_i,
    // the AXI read master (m_axi_ar*/r* of accel_top)
    output logic      [0:0]  m_arid_o,
    output logic             m_arvalid_o,
    input  wire logic        m_arready_i,
    output logic      [31:0] m_araddr_o,
    output logic      [7:0]  m_arlen_o,
    input  wire logic [0:0]  m_rid_i,
    input  wire logic        m_rvalid_i,
    output logic             m_rready_o
);
    // ---- AR: round robin, locked while a request waits for ARREADY ----
    logic prio_q;      // the port that wins when both request
    logic lock_q;      // a request is on m_ar* and was not accepted yet
    logic lock_sel_q;  // ... from this port
    logic sel;         // the port shown on m_ar* this cycle

    always_comb begin
        if (lock_q) sel = lock_sel_q;
        else if (&s_ar_valid_i) sel = prio_q;
        else sel = s_ar_valid_i[1];
    end

    assign m_arid_o     = sel;
    assign m_arvalid_o  = s_ar_valid_i[sel];
    assign m_araddr_o   = sel ? s_ar_addr_i[63:32] : s_ar_addr_i[31:0];
    assign m_arlen_o    = sel ? s_ar_len_i[15:8] : s_ar_len_i[7:0];
    assign s_ar_ready_o = {m_arready_i && sel, m_arready_i && !sel};

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

    // ---- R: the handshake routed by RID ----
    assign s_r_valid_o = {m_rvalid_i && m_rid_i == 1'b1, m_rvalid_i && m_rid_i == 1'b0};
    assign m_rready_o  = s_r_ready_i[m_rid_i];
endmodule

`default_nettype wire
