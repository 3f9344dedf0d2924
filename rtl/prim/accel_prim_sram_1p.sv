// Single-port synchronous RAM with a write enable per byte: one read or write per
// cycle at one address, registered read data. Written in the form every FPGA tool
// infers as block RAM (iCE40 SPRAM/EBR, ECP5 DP16KD): no reset on the array, the read
// registered, byte writes as separate enables. A cycle with any byte written is not a
// read: rdata_o holds (single-port SPRAM has no defined read-during-write).
`default_nettype none

module accel_prim_sram_1p #(
    parameter int BYTES_PER_WORD = 4,   // bytes per word
    parameter int DEPTH = 16384,        // words
    localparam int WIDTH = 8 * BYTES_PER_WORD,
    localparam int AW = accel_isa_pkg::index_w(DEPTH)
) (
    input  wire logic                      clk_i,
    input  wire logic                      en_i,      // access this cycle
    input  wire logic [BYTES_PER_WORD-1:0] we_i,      // per-byte write enables
    input  wire logic [AW-1:0]             addr_i,
    input  wire logic [WIDTH-1:0]          wdata_i,
    output logic      [WIDTH-1:0]          rdata_o    // the word at addr_i the cycle after en_i
);
    logic [WIDTH-1:0] mem_q [DEPTH];

    always_ff @(posedge clk_i) begin
        if (en_i) begin
            if (we_i != '0) begin
                for (int b = 0; b < BYTES_PER_WORD; b++) begin
                    if (we_i[b]) mem_q[addr_i][8*b +: 8] <= wdata_i[8*b +: 8];
                end
            end else begin
                rdata_o <= mem_q[addr_i];
            end
        end
    end
endmodule

`default_nettype wire
