// A unit's AXI4 read port (fetch, load): AR and R of INCR bursts of full beats, without
// ARID (accel_axi_read_arbiter adds it) and without the size and burst type (accel_top
// ties them). The including module defines DW, the data bits. Included inside an ANSI
// port list: every port ends with a comma, so more ports must follow.
    output logic               ar_valid_o,
    input  wire logic          ar_ready_i,
    output logic      [31:0]   ar_addr_o,
    output logic      [7:0]    ar_len_o,
    input  wire logic          r_valid_i,
    output logic               r_ready_o,
    input  wire logic [DW-1:0] r_data_i,
    input  wire logic [1:0]    r_resp_i,
    input  wire logic          r_last_i,
