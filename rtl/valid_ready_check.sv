// The rule of a valid/ready handshake, checked when the design is simulated with
// ACCEL_ASSERT: once valid is high without ready, valid stays high and the payload
// unchanged until ready. AXI requires it of every channel. Instances sit in `ifdef
// ACCEL_ASSERT blocks, so that synthesis (Yosys 0.23 has no concurrent assertions)
// never elaborates one.
`default_nettype none

module valid_ready_check #(
    parameter int WIDTH = 1,  // payload bits
    parameter NAME = "?"      // the channel, for the failure message
) (
    input wire logic             clk_i,
    input wire logic             rst_i,
    input wire logic             valid_i,
    input wire logic             ready_i,
    input wire logic [WIDTH-1:0] payload_i
);
`ifdef ACCEL_ASSERT
    a_held: assert property (@(posedge clk_i) disable iff (rst_i)
        valid_i && !ready_i |=> valid_i && $stable(payload_i))
        else $error("%s: valid dropped or payload changed before ready", NAME);
`endif
endmodule

`default_nettype wire
