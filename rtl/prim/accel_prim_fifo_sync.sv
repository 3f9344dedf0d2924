// Show-ahead FIFO: rdata_o is the head entry whenever empty_o is low, and pop_i
// removes it. Meant for short queues of wide entries (the units' instruction queues:
// 8 x 512 bits). The entries are a memory written synchronously and read
// asynchronously, which FPGAs build from LUT RAM (ECP5: TRELLIS_DPR16X4, 4 bits of 16
// entries each), not flip-flops: in registers the three instruction queues were the
// largest cells of the ULX3S design (docs/fpga.md). An entry pushed in one cycle is the
// head from the next, with no read latency.
//
// The head comes from a register of its own (a copy of the head entry, loaded with the
// next one as the head is popped), not from a multiplexer over the entries: the units
// decode their instruction from it, and a wide multiplexer steered by the read pointer
// was the FPGA's longest path (docs/fpga.md).
//
// With PUSH_STAGE 1 a push is registered before it is written: its entry is the head two
// cycles after the push instead of one, and full_o counts it from the cycle after the
// push, as before. The instruction queues take it: the write enable and address then come
// from registers, not from the producer's decision, whose fan-out to the 512 bits of an
// entry was the FPGA's longest path (docs/fpga.md).
//
// Contract: push_i only while !full_o, pop_i only while !empty_o (assertions check it
// under ACCEL_ASSERT). Both are guarded anyway: a push while full is ignored (even if
// pop_i is high in the same cycle: full_o says "no push this cycle"), and a pop while
// empty is ignored. A push and a pop in the same cycle on a non-empty, non-full FIFO do
// both.
`include "accel_assert.svh"
`default_nettype none

module accel_prim_fifo_sync #(
    parameter int WIDTH = 512,  // bits per entry (>= 1)
    parameter int DEPTH = 8,    // entries (>= 1)
    parameter int PUSH_STAGE = 0  // 1: register a push before writing it (above)
) (
    input  wire logic             clk_i,
    input  wire logic             rst_i,
    input  wire logic             push_i,
    input  wire logic [WIDTH-1:0] wdata_i,
    output logic                  full_o,
    input  wire logic             pop_i,
    output logic      [WIDTH-1:0] rdata_o,  // the head; meaningful while !empty_o
    output logic                  empty_o
);
    localparam int PW = accel_isa_pkg::index_w(DEPTH);  // pointer bits
    localparam int CW = (DEPTH > 0) ? $clog2(DEPTH + 1) : 1;  // count bits (0..DEPTH)
    localparam logic [PW-1:0] LAST = PW'(DEPTH - 1);
    localparam logic [CW-1:0] FULL_COUNT = CW'(DEPTH);

    if (WIDTH < 1) begin : g_bad_width
        $error("accel_prim_fifo_sync: WIDTH must be at least 1");
    end
    if (DEPTH < 1) begin : g_bad_depth
        $error("accel_prim_fifo_sync: DEPTH must be at least 1");
    end
    if (PUSH_STAGE != 0 && PUSH_STAGE != 1) begin : g_bad_push_stage
        $error("accel_prim_fifo_sync: PUSH_STAGE must be 0 or 1");
    end

    // The entries: one write port, one asynchronous read port (the entry after the head).
    logic [WIDTH-1:0] data_q [DEPTH];
    logic [PW-1:0] rptr_q, wptr_q;
    logic [CW-1:0] count_q;  // entries pushed and not popped (full_o)
    logic [CW-1:0] avail;    // of those, the ones written (empty_o, the head)

    // full_o and empty_o come from registers that follow count_q and avail: they start
    // the producer's and the consumer's decisions (docs/fpga.md, timing).
    logic full_q, empty_q;
    logic do_push, do_pop;
    assign full_o  = full_q;
    assign empty_o = empty_q;
    assign do_push = push_i && !full_o;
    assign do_pop  = pop_i && !empty_o;

    // The write: the entry that lands in the storage this cycle, and where.
    logic             land;
    logic [WIDTH-1:0] land_data;
    logic [PW-1:0]    land_ptr; // the entry written
    if (PUSH_STAGE == 1) begin : g_push_stage
        logic             push_q;
        logic [WIDTH-1:0] wdata_q;
        logic [PW-1:0]    ptr_q;
        always_ff @(posedge clk_i) begin
            if (rst_i) push_q <= 1'b0;
            else push_q <= do_push;
            wdata_q <= wdata_i;
            ptr_q   <= wptr_q;
        end
        assign land      = push_q;
        assign land_data = wdata_q;
        assign land_ptr  = ptr_q;
        // a push counts in count_q from the next cycle, in avail_q once written; avail_q
        // is count_q - push_q, kept as a register since empty_o starts the units
        logic [CW-1:0] avail_q;
        always_ff @(posedge clk_i) begin
            if (rst_i) avail_q <= '0;
            else if (land && !do_pop) avail_q <= avail_q + CW'(1);
            else if (do_pop && !land) avail_q <= avail_q - CW'(1);
        end
        assign avail = avail_q;
    end else begin : g_direct
        assign land      = do_push;
        assign land_data = wdata_i;
        assign land_ptr  = wptr_q;
        assign avail = count_q;  // written as pushed
    end

    function automatic logic [PW-1:0] next_ptr(input logic [PW-1:0] p);
        next_ptr = (p == LAST) ? '0 : p + PW'(1);
    endfunction

    // The head register: the entry after the head when the head leaves and one is
    // there, the entry landing when the FIFO is (or becomes) empty, else unchanged.
    logic [WIDTH-1:0] head_q;
    // More than one entry. Never with DEPTH 1, and no comparison then: Verilator -Wall
    // calls count_q > 1 constant (CMPCONST) for a one-bit count.
    logic several;
    if (DEPTH > 1) begin : g_several
        assign several = avail > CW'(1);
    end else begin : g_one
        assign several = 1'b0;
    end
    assign rdata_o = head_q;
    always_ff @(posedge clk_i) begin
        if (do_pop && several) head_q <= data_q[next_ptr(rptr_q)];
        else if (land && (empty_o || (do_pop && avail == CW'(1)))) head_q <= land_data;
    end

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            rptr_q  <= '0;
            wptr_q  <= '0;
            count_q <= '0;
            full_q  <= 1'b0;
            empty_q <= 1'b1;
        end else begin
            if (do_push) wptr_q <= next_ptr(wptr_q);
            if (do_pop) rptr_q <= next_ptr(rptr_q);
            if (do_push && !do_pop) count_q <= count_q + CW'(1);
            else if (do_pop && !do_push) count_q <= count_q - CW'(1);
            // (the late push and pop only choose among comparisons of registers)
            if (do_push && !do_pop) full_q <= count_q == FULL_COUNT - CW'(1);
            else if (do_pop && !do_push) full_q <= 1'b0;
            if (land && !do_pop) empty_q <= 1'b0;
            else if (do_pop && !land) empty_q <= avail == CW'(1);
        end
    end

    // Storage: no reset (the count says which entries mean anything).
    always_ff @(posedge clk_i) begin
        if (land) data_q[land_ptr] <= land_data;
    end

    // The guards keep the FIFO consistent, but a dropped push loses an entry and an empty
    // pop takes one that is not there: either is a bug of the user.
    `ACCEL_ASSERT(a_no_overflow, push_i |-> !full_o, clk_i, rst_i)
    `ACCEL_ASSERT(a_no_underflow, pop_i |-> !empty_o, clk_i, rst_i)
    `ACCEL_ASSERT(a_count_in_range, count_q <= FULL_COUNT, clk_i, rst_i)
    `ACCEL_ASSERT(a_written_are_pushed, avail <= count_q, clk_i, rst_i)
    `ACCEL_ASSERT(a_flags_follow_counts,
                  full_q == (count_q == FULL_COUNT) && empty_q == (avail == '0), clk_i, rst_i)
    `ACCEL_ASSERT_KNOWN(a_flags_known, {full_o, empty_o}, clk_i, rst_i)
endmodule

`default_nettype wire
