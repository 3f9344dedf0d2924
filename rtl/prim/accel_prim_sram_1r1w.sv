// Simple dual-port RAM: one synchronous read port, one write port, one clock.
// Written so that every FPGA tool infers block RAM (no reset on the array, registered
// read data). A read of the address being written returns the old data.
`default_nettype none

module accel_prim_sram_1r1w #(
    parameter int WIDTH = 32,  // bits per entry
    parameter int DEPTH = 64,  // entries
    localparam int AW = accel_isa_pkg::index_w(DEPTH)
) (
    input  wire logic             clk_i,
    input  wire logic             we_i,
    input  wire logic [AW-1:0]    waddr_i,
    input  wire logic [WIDTH-1:0] wdata_i,
    input  wire logic             re_i,
    input  wire logic [AW-1:0]    raddr_i,
    output logic      [WIDTH-1:0] rdata_o   // valid the cycle after re_i; held otherwise
);
    logic [WIDTH-1:0] mem_q [DEPTH];

    always_ff @(posedge clk_i) begin
        if (we_i) mem_q[waddr_i] <= wdata_i;
    end

    always_ff @(posedge clk_i) begin
        if (re_i) rdata_o <= mem_q[raddr_i];
    end
endmodule

`default_nettype wire
