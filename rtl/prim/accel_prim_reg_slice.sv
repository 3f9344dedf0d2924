// A register slice on a valid/ready channel: every output comes from a register, so
// that neither side's combinational logic reaches the other's (the upstream ready is
// not the downstream ready, the downstream valid and data are not the upstream ones).
// Full throughput, one transfer a cycle, at the cost of one cycle of latency: the
// output register, and a skid register that catches the one transfer accepted in the
// cycle the downstream side stops taking them.
//
// Contracts: the upstream side keeps s_valid_i and s_data_i until s_ready_o; the slice
// does so downstream (checked under ACCEL_ASSERT), and keeps transfers in order.
`include "accel_assert.svh"
`default_nettype none

module accel_prim_reg_slice #(
    parameter int WIDTH = 64  // bits of the payload (>= 1)
) (
    input  wire logic             clk_i,
    input  wire logic             rst_i,
    input  wire logic             s_valid_i,
    output logic                  s_ready_o,
    input  wire logic [WIDTH-1:0] s_data_i,
    output logic                  m_valid_o,
    input  wire logic             m_ready_i,
    output logic      [WIDTH-1:0] m_data_o
);
    if (WIDTH < 1) begin : g_bad_width
        $error("accel_prim_reg_slice: WIDTH must be at least 1");
    end

    logic             valid_q, skid_q;  // the output register, the skid register, full
    logic [WIDTH-1:0] data_q, skid_data_q;
    logic             take;             // the output register loads this cycle
    assign take = m_ready_i || !valid_q;

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            valid_q <= 1'b0;
            skid_q  <= 1'b0;
        end else if (take) begin
            valid_q <= skid_q || s_valid_i;
            skid_q  <= 1'b0;
        end else if (s_valid_i && !skid_q) begin
            skid_q <= 1'b1;
        end
    end
    always_ff @(posedge clk_i) begin
        if (take) data_q <= skid_q ? skid_data_q : s_data_i;
        if (!take && !skid_q) skid_data_q <= s_data_i;
    end

    assign s_ready_o = !skid_q;
    assign m_valid_o = valid_q;
    assign m_data_o  = data_q;

`ifdef ACCEL_ASSERT_ON
    accel_prim_valid_ready_check #(.WIDTH(WIDTH)) u_m_check (
        .clk_i, .rst_i, .valid_i(m_valid_o), .ready_i(m_ready_i), .payload_i(m_data_o));
`endif
endmodule

`default_nettype wire
