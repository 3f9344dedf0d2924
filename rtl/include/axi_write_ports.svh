// The drain's AXI4 write port (accel_drain_unit, accel_drain_burst_writer): AW, W and B
// of INCR bursts of full beats, without the size, burst type and strobes (accel_top
// ties them). The including module defines DW, the data bits. Included inside an ANSI
// port list: every port ends with a comma, so more ports must follow.
    output logic               aw_valid_o,
    input  wire logic          aw_ready_i,
    output logic      [31:0]   aw_addr_o,
    output logic      [7:0]    aw_len_o,
    output logic               w_valid_o,
    input  wire logic          w_ready_i,
    output logic      [DW-1:0] w_data_o,
    output logic               w_last_o,
    input  wire logic          b_valid_i,
    output logic               b_ready_o,
    input  wire logic [1:0]    b_resp_i,
