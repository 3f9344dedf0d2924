// The rule of a valid/ready handshake, checked when the design is simulated with
// ACCEL_ASSERT: once valid is high without ready, valid stays high and the payload
// unchanged until ready; valid and ready are never X or Z outside reset. AXI requires it
// of every channel. Instances sit in `ifdef ACCEL_ASSERT_ON blocks (accel_assert.svh),
// so that synthesis never elaborates one; a failure names the instance (%m).
`include "accel_assert.svh"
`default_nettype none

module accel_prim_valid_ready_check #(
    parameter int WIDTH = 1  // payload bits
) (
    input wire logic             clk_i,
    input wire logic             rst_i,
    input wire logic             valid_i,
    input wire logic             ready_i,
    input wire logic [WIDTH-1:0] payload_i
);
    `ACCEL_ASSERT(a_held, valid_i && !ready_i |=> valid_i && $stable(payload_i), clk_i, rst_i)
    `ACCEL_ASSERT_KNOWN(a_handshake_known, {valid_i, ready_i}, clk_i, rst_i)
endmodule

`default_nettype wire
