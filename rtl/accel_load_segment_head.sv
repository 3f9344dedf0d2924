// accel_load_segment_head: what a LOAD's first burst needs to know of its DRAM
// segments (docs/isa.md, "LOAD"): whether the entries of a row lie apart (a segment per
// entry) or not (a segment per row), and a segment's beats saturated at a burst plus
// one. accel_top works them out as the instruction enters the load queue and keeps them
// with it, as accel_gemm_extents does for GEMM, so the load unit's start takes them from
// registers: the 32-bit stride comparison and the saturated product were the head of
// the FPGA's longest path into the burst generator (docs/fpga.md, timing).
`default_nettype none

module accel_load_segment_head #(
    parameter int BATCH      = 1,   // images per INP entry
    parameter int BLOCK_IN   = 16,  // input channels per entry
    parameter int BLOCK_OUT  = 16,  // output channels per WGT / PRM entry
    parameter int BEAT_BYTES = 8,   // AXI data bytes (divides every entry)
    localparam int HEAD_SAT  = accel_isa_pkg::AXI_MAX_BURST_BEATS + 1,
    localparam int HEAD_W    = $clog2(HEAD_SAT + 1)
) (
    input  wire logic [accel_isa_pkg::INSN_BITS-1:0] insn_i,  // a LOAD
    output logic                                     apart_o, // a segment per entry
    output logic      [HEAD_W-1:0]                   head_o   // min(segment beats, HEAD_SAT)
);
    localparam logic [1:0] BUF_INP = 2'd0, BUF_WGT = 2'd1;
    localparam int INP_EB  = BATCH * BLOCK_IN;  // entry bytes per buffer
    localparam int WGT_EB  = BLOCK_OUT * BLOCK_IN;
    localparam int PRM_EB  = accel_isa_pkg::prm_entry_bytes(BLOCK_OUT);

    accel_isa_pkg::load_insn_t ld;
    assign ld = insn_i;
    logic unused_insn;  // the other fields are the load unit's
    assign unused_insn = ^ld;

    // A row is one segment when its entries are contiguous in DRAM (x stride 0 or one
    // entry), else one segment per entry.
    logic [31:0] entry_bytes;
    always_comb begin
        unique case (ld.buffer)
            BUF_INP: entry_bytes = 32'(INP_EB);
            BUF_WGT: entry_bytes = 32'(WGT_EB);
            default: entry_bytes = 32'(PRM_EB);
        endcase
    end
    assign apart_o = ld.dram_x_stride != '0 && ld.dram_x_stride != entry_bytes;

    // x entries of `beats` beats each, saturated at HEAD_SAT: shifts and additions of the
    // low bits of x for the constant beats, and a comparison for the saturation.
    function automatic logic [HEAD_W-1:0] head_beats(input logic [15:0] x, input int beats);
        logic [HEAD_W+4:0] p;
        p = '0;
        for (int i = 0; i < HEAD_W; i++) begin
            if (((beats >> i) & 1) != 0) p = p + ((HEAD_W+5)'(x[HEAD_W-1:0]) << i);
        end
        if (beats >= HEAD_SAT || x >= 16'((HEAD_SAT + beats - 1) / beats)) head_beats = HEAD_W'(HEAD_SAT);
        else head_beats = HEAD_W'(p);
    endfunction
    // (a row's head, worked out beside the comparison: a lone entry's is a constant)
    logic [HEAD_W-1:0] row_head, entry_head;
    always_comb begin
        unique case (ld.buffer)
            BUF_INP: begin
                row_head   = head_beats(ld.x_size, INP_EB / BEAT_BYTES);
                entry_head = head_beats(16'd1, INP_EB / BEAT_BYTES);
            end
            BUF_WGT: begin
                row_head   = head_beats(ld.x_size, WGT_EB / BEAT_BYTES);
                entry_head = head_beats(16'd1, WGT_EB / BEAT_BYTES);
            end
            default: begin
                row_head   = head_beats(ld.x_size, PRM_EB / BEAT_BYTES);
                entry_head = head_beats(16'd1, PRM_EB / BEAT_BYTES);
            end
        endcase
    end
    assign head_o = apart_o ? entry_head : row_head;
endmodule

`default_nettype wire
