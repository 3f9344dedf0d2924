// accel_compute_unit: executes the GEMM instructions at the head of its queue
// (docs/isa.md, "GEMM"). It waits until every token the instruction pops is available,
// pops them in one cycle and issues the first reduction step in that same cycle, then
// one step per cycle (loops kb, oy, ox outermost, r, s, cb innermost;
// accel_compute_loops, accel_compute_agu). Pipeline, by cycles after a step issues:
//   0  INP/WGT reads (synchronous SRAMs)
//   1-3  accel_gemm_core (its LATENCY is 3): operands, products, sums
//   2  first step of an output entry: read its start value, the bias (init) or ACC
//   3  the start value registered (so that no SRAM read meets the adder in one cycle)
//   4  sums out of accel_gemm_core: start (or the running sum) + sum; on the entry's last step
//      ACC[a] is written combinationally this cycle
// Read after write: a start read in cycle t+2 sees every ACC write of steps issued up to
// t-3 (written in cycle <= t+1). Only the entries finished by the steps issued just before
// (t-1, t-2) can still be in flight. When one is at the same address (and init is 0), the
// step takes its value instead of reading ACC (forwarding): from t-1 it continues from
// the running sum, from t-2 it takes the value written in cycle t+2, held a cycle. So
// results equal the sequential semantics for any strides, with no stall. The pipeline
// holds no other instruction's writes: insn_done_o is pulsed in the cycle of the last ACC
// write (the write and the token pushes take effect at the same clock edge), and the next
// instruction starts the cycle after. Per instruction: n steps take n + 4 cycles.
`include "accel_assert.svh"
`default_nettype none

module accel_compute_unit #(
    parameter int BATCH = 1,         // core rows (images per step)
    parameter int BLOCK_IN = 16,     // input channels per block (dot-product length)
    parameter int BLOCK_OUT = 16,    // output channels per block
    parameter int INP_DEPTH = 2048,  // INP entries
    parameter int WGT_DEPTH = 1024,  // WGT entries
    parameter int ACC_DEPTH = 2048,  // ACC entries
    parameter int PRM_DEPTH = 64,    // PRM (bias) entries
    localparam int INP_W = accel_isa_pkg::inp_entry_w(BATCH, BLOCK_IN),
    localparam int WGT_W = accel_isa_pkg::wgt_entry_w(BLOCK_IN, BLOCK_OUT),
    localparam int ACC_W = accel_isa_pkg::acc_entry_w(BATCH, BLOCK_OUT),
    localparam int BIAS_W = accel_isa_pkg::bias_entry_w(BLOCK_OUT),
    localparam int INP_AW = accel_isa_pkg::index_w(INP_DEPTH),
    localparam int WGT_AW = accel_isa_pkg::index_w(WGT_DEPTH),
    localparam int ACC_AW = accel_isa_pkg::index_w(ACC_DEPTH),
    localparam int PRM_AW = accel_isa_pkg::index_w(PRM_DEPTH)
) (
    input  wire logic              clk_i,
    input  wire logic              rst_i,
    input  wire logic              insn_valid_i,
    input  wire logic [accel_isa_pkg::INSN_BITS-1:0] insn_i,
    input  wire logic [5:0]        extent_one_i,  // insn_i's loop extents that are 1
                                                  // (accel_gemm_extents' one_o), kept
                                                  // with it in the queue
    output logic                   insn_done_o,
    // dependency tokens: prev = ld2cp / cp2ld, next = dr2cp / cp2dr
    input  wire logic              prev_avail_i,
    output logic                   prev_pop_o,
    output logic                   prev_push_o,
    input  wire logic              next_avail_i,
    output logic                   next_pop_o,
    output logic                   next_push_o,
    // SRAM read ports: data the cycle after re
    output logic                   inp_re_o,
    output logic      [INP_AW-1:0] inp_raddr_o,
    input  wire logic [INP_W-1:0]  inp_rdata_i,
    output logic                   wgt_re_o,
    output logic      [WGT_AW-1:0] wgt_raddr_o,
    input  wire logic [WGT_W-1:0]  wgt_rdata_i,
    output logic                   bias_re_o,
    output logic      [PRM_AW-1:0] bias_raddr_o,
    input  wire logic [BIAS_W-1:0] bias_rdata_i,
    // ACC: the read port is shared with drain, compute has priority
    output logic                   acc_re_o,
    output logic      [ACC_AW-1:0] acc_raddr_o,
    input  wire logic [ACC_W-1:0]  acc_rdata_i,
    output logic                   acc_we_o,
    output logic      [ACC_AW-1:0] acc_waddr_o,
    output logic      [ACC_W-1:0]  acc_wdata_o,
    // status
    output logic                   step_o,   // a reduction step issues
    output logic [accel_isa_pkg::UNIT_STATE_W-1:0] state_o,  // idle, waiting or busy (unit_state_e)
    output logic                   quiet_o   // no instruction, or a needed token missing
);
    if (BATCH < 1 || BLOCK_IN < 1 || BLOCK_OUT < 1) begin : g_bad_core
        $error("accel_compute_unit: BATCH, BLOCK_IN and BLOCK_OUT must be >= 1");
    end
    if (INP_DEPTH < 1 || INP_DEPTH > 65536 || WGT_DEPTH < 1 || WGT_DEPTH > 65536 ||
        ACC_DEPTH < 1 || ACC_DEPTH > 65536 || PRM_DEPTH < 1 || PRM_DEPTH > 65536)
    begin : g_bad_depth
        $error("accel_compute_unit: every depth must be in [1, 65536] (16-bit addresses)");
    end

    // ---------------------------------------------------------------- instruction fields
    accel_isa_pkg::gemm_insn_t g;  // the head instruction, decoded
    logic [95:0] extent, acc_stride, inp_stride, wgt_stride;  // level l at [16*l +: 16]

    assign g = insn_i;
    // Levels, outermost first: 0 kb, 1 oy, 2 ox, 3 r, 4 s, 5 cb.
    // The flags decoded here only check the queue's copy, which is the one used: it
    // comes from a register (timing).
    logic [5:0] extent_one_decoded;
    accel_gemm_extents u_extents (.insn_i, .extent_o(extent), .one_o(extent_one_decoded));
    assign acc_stride = {48'd0, g.acc_ox, g.acc_oy, g.acc_kb};
    assign inp_stride = {g.inp_cb, g.inp_s, g.inp_r, g.inp_ox, g.inp_oy, 16'd0};
    assign wgt_stride = {g.wgt_cb, g.wgt_s, g.wgt_r, 32'd0, g.wgt_kb};

    // The opcode and the reserved bits were checked by fetch.
    logic unused_insn;
    assign unused_insn = ^g.opcode ^ ^(g & ~accel_isa_pkg::GEMM_USED_BITS);

    // ---------------------------------------------------------------- control
    logic busy_q;     // an instruction started and has not completed
    logic issuing_q;  // ... and still has steps to issue after this cycle's
    logic tokens_ok, start, issue;
    logic [5:0] inc;
    logic first, last, final_step;

    assign tokens_ok = (!g.pop_prev || prev_avail_i) && (!g.pop_next || next_avail_i);
    assign start     = insn_valid_i && !busy_q && tokens_ok;
    assign issue     = start || issuing_q;

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            busy_q    <= 1'b0;
            issuing_q <= 1'b0;
        end else begin
            if (start)            busy_q <= 1'b1;
            else if (insn_done_o) busy_q <= 1'b0;
            if (issue) issuing_q <= !final_step;
        end
    end

    assign prev_pop_o = start && g.pop_prev;
    assign next_pop_o = start && g.pop_next;
    assign step_o     = issue;
    assign state_o    = (busy_q || start) ? accel_isa_pkg::UNIT_BUSY
                      : insn_valid_i ? accel_isa_pkg::UNIT_WAITING : accel_isa_pkg::UNIT_IDLE;
    assign quiet_o    = !busy_q && !start;

    // ---------------------------------------------------------------- stage 0: issue
    logic [ACC_AW-1:0] acc_addr;
    logic [PRM_AW-1:0] prm_addr;

    accel_compute_loops u_loops (
        .clk_i, .rst_i, .extent_i(extent), .one_i(extent_one_i), .step_i(issue),
        .inc_o(inc), .first_o(first), .last_o(last), .final_o(final_step));

    accel_compute_agu #(.AW(INP_AW)) u_inp_agu (
        .clk_i, .rst_i, .base_i(g.inp_base), .stride_i(inp_stride), .step_i(issue),
        .inc_i(inc), .addr_o(inp_raddr_o));
    accel_compute_agu #(.AW(WGT_AW)) u_wgt_agu (
        .clk_i, .rst_i, .base_i(g.wgt_base), .stride_i(wgt_stride), .step_i(issue),
        .inc_i(inc), .addr_o(wgt_raddr_o));
    accel_compute_agu #(.AW(ACC_AW)) u_acc_agu (
        .clk_i, .rst_i, .base_i(g.acc_base), .stride_i(acc_stride), .step_i(issue),
        .inc_i(inc), .addr_o(acc_addr));
    accel_compute_agu #(.AW(PRM_AW)) u_prm_agu (
        .clk_i, .rst_i, .base_i(16'(g.prm_base)), .stride_i({80'd0, 16'd1}), .step_i(issue),
        .inc_i(inc), .addr_o(prm_addr));

    assign inp_re_o = issue;
    assign wgt_re_o = issue;

    // Stage k registers describe the step issued k cycles ago.
    logic              p1_vld_q, p1_rd_q, p1_last_q, p1_final_q;
    logic [ACC_AW-1:0] p1_acc_addr_q;
    logic [PRM_AW-1:0] p1_prm_addr_q;
    logic              p2_vld_q, p2_rd_q, p2_fwd2_q, p2_last_q, p2_final_q;
    logic [ACC_AW-1:0] p2_acc_addr_q;
    logic [PRM_AW-1:0] p2_prm_addr_q;
    logic              p3_vld_q, p3_rd_q, p3_fwd2_q, p3_last_q, p3_final_q;
    logic [ACC_AW-1:0] p3_acc_addr_q;
    logic              p4_rd_q, p4_last_q, p4_final_q;
    logic [ACC_AW-1:0] p4_acc_addr_q;

    // The step starts its entry from a read (rd) unless it continues the entry that the
    // previous step finished at the same address (see the header). fwd2: the step before
    // that finished it; compared a cycle ahead, between stages 1 and 3, so that the read
    // enable of stage 2 comes from a register.
    logic forward, fwd2;
    assign forward = !g.init && p1_vld_q && p1_last_q && p1_acc_addr_q == acc_addr;
    assign fwd2    = !g.init && p3_vld_q && p3_last_q && p3_acc_addr_q == p1_acc_addr_q;

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            p1_vld_q <= 1'b0;
            p2_vld_q <= 1'b0;
            p3_vld_q <= 1'b0;
        end else begin
            p1_vld_q <= issue;
            p2_vld_q <= p1_vld_q;
            p3_vld_q <= p2_vld_q;
        end
    end

    always_ff @(posedge clk_i) begin
        p1_rd_q       <= first && !forward;
        p1_last_q     <= last;
        p1_final_q    <= final_step;
        p1_acc_addr_q <= acc_addr;
        p1_prm_addr_q <= prm_addr;
        p2_rd_q       <= p1_rd_q;
        p2_fwd2_q     <= fwd2;
        p2_last_q     <= p1_last_q;
        p2_final_q    <= p1_final_q;
        p2_acc_addr_q <= p1_acc_addr_q;
        p2_prm_addr_q <= p1_prm_addr_q;
        p3_rd_q       <= p2_rd_q;
        p3_fwd2_q     <= p2_fwd2_q;
        p3_last_q     <= p2_last_q;
        p3_final_q    <= p2_final_q;
        p3_acc_addr_q <= p2_acc_addr_q;
        p4_rd_q       <= p3_rd_q;
        p4_last_q     <= p3_last_q;
        p4_final_q    <= p3_final_q;
        p4_acc_addr_q <= p3_acc_addr_q;
    end

    // ---------------------------------------------------------------- stage 1: the core
    // accel_gemm_core's LATENCY is 3: its sums meet stage 4. (SystemVerilog cannot read an
    // instance's localparam in a constant expression; with another latency the stage
    // registers change, and a_core_latency fails at time 0.)
    localparam int CORE_LATENCY = 3;
    logic             core_valid;  // the step in stage 4
    logic [ACC_W-1:0] core_sum;

    accel_gemm_core #(.BATCH(BATCH), .BLOCK_IN(BLOCK_IN), .BLOCK_OUT(BLOCK_OUT)) u_core (
        .clk_i, .rst_i, .valid_i(p1_vld_q), .inp_i(inp_rdata_i), .wgt_i(wgt_rdata_i),
        .valid_o(core_valid), .sum_o(core_sum));
    `ACCEL_ASSERT_INIT(a_core_latency, u_core.LATENCY == CORE_LATENCY)

    // ---------------------------------------------------------------- stage 2: start read
    // The ACC read enable is a register, worked out in stage 1 (the instruction stays the
    // same until its final step leaves stage 4): the drain yields to it, and its grant
    // fans out to the drain's counters (docs/fpga.md, timing).
    logic p2_acc_re_q;
    always_ff @(posedge clk_i) begin
        if (rst_i) p2_acc_re_q <= 1'b0;
        else p2_acc_re_q <= p1_vld_q && p1_rd_q && !fwd2 && !g.init;
    end
    assign acc_re_o     = p2_acc_re_q;
    `ACCEL_ASSERT(a_acc_re_stage2, acc_re_o == (p2_vld_q && p2_rd_q && !p2_fwd2_q && !g.init),
                  clk_i, rst_i)
    assign acc_raddr_o  = p2_acc_addr_q;
    assign bias_re_o    = p2_vld_q && p2_rd_q && g.init;
    assign bias_raddr_o = p2_prm_addr_q;

    // ---------------------------------------------------------------- stage 3: start value
    logic [ACC_W-1:0] written_q;  // the ACC entry written last cycle (forwarded to t+2)
    logic [ACC_W-1:0] start_q;    // the entry's start value, for stage 4

    always_ff @(posedge clk_i) begin
        if (acc_we_o) written_q <= acc_wdata_o;
    end

    for (genvar b = 0; b < BATCH; b++) begin : g_start_row
        for (genvar o = 0; o < BLOCK_OUT; o++) begin : g_start_col
            localparam int LANE = b * BLOCK_OUT + o;
            always_ff @(posedge clk_i) begin
                if (p3_vld_q && p3_rd_q) begin
                    start_q[32*LANE +: 32] <= g.init    ? bias_rdata_i[32*o +: 32]
                                            : p3_fwd2_q ? written_q[32*LANE +: 32]
                                                        : acc_rdata_i[32*LANE +: 32];
                end
            end
        end
    end

    // ---------------------------------------------------------------- stage 4: accumulate
    logic [ACC_W-1:0] running_q;  // the current entry's sum so far
    logic [ACC_W-1:0] total;

    for (genvar l = 0; l < BATCH * BLOCK_OUT; l++) begin : g_lane
        assign total[32*l +: 32] = (p4_rd_q ? start_q[32*l +: 32] : running_q[32*l +: 32])
                                 + core_sum[32*l +: 32];
    end

    always_ff @(posedge clk_i) begin
        if (core_valid) running_q <= total;
    end

    assign acc_we_o    = core_valid && p4_last_q;
    assign acc_waddr_o = p4_acc_addr_q;
    assign acc_wdata_o = total;
    assign insn_done_o = core_valid && p4_final_q;
    assign prev_push_o = insn_done_o && g.push_prev;
    assign next_push_o = insn_done_o && g.push_next;

    // ---------------------------------------------------------------- handshakes
    // Tokens are popped only when there are some; the instruction completes only while it
    // runs and is still at the queue head. An entry's start value comes from one buffer,
    // and ACC is never read at the address written in the same cycle: that step takes
    // the running sum instead (forwarding, see the header).
    `ACCEL_ASSERT(a_pop_prev_has_token, prev_pop_o |-> prev_avail_i, clk_i, rst_i)
    `ACCEL_ASSERT(a_pop_next_has_token, next_pop_o |-> next_avail_i, clk_i, rst_i)
    `ACCEL_ASSERT(a_done_has_insn, insn_done_o |-> busy_q && insn_valid_i, clk_i, rst_i)
    `ACCEL_ASSERT(a_issue_while_busy, issuing_q |-> busy_q, clk_i, rst_i)
    `ACCEL_ASSERT(a_extent_ones_match, insn_valid_i |-> extent_one_i == extent_one_decoded,
                  clk_i, rst_i)
    `ACCEL_ASSERT(a_one_start_value, !(acc_re_o && bias_re_o), clk_i, rst_i)
    `ACCEL_ASSERT(a_fwd2_was_written, p3_vld_q && p3_rd_q && p3_fwd2_q |-> $past(acc_we_o),
                  clk_i, rst_i)
    `ACCEL_ASSERT(a_acc_no_read_of_write, acc_re_o && acc_we_o |-> acc_raddr_o != acc_waddr_o,
                  clk_i, rst_i)
    `ACCEL_ASSERT_KNOWN(a_handshakes_known, {insn_done_o, prev_pop_o, prev_push_o, next_pop_o,
                                             next_push_o, inp_re_o, wgt_re_o, bias_re_o,
                                             acc_re_o, acc_we_o, state_o}, clk_i, rst_i)
endmodule

`default_nettype wire
