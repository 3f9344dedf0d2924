// UART receiver, 8N1, LSB first. The line is synchronised by two flip-flops; a start
// bit is a falling edge that is still low half a bit later; each data bit and the stop
// bit are sampled in the middle of their bit time. A received byte waits in a one-byte
// holding register (valid_o/ready_i). A UART cannot be stalled: a byte that completes
// while the previous one is still held is dropped and overrun_o pulses; a byte whose
// stop bit reads 0 is dropped and frame_err_o pulses.
`default_nettype none

module accel_uart_rx #(
    parameter int CLKS_PER_BIT = 104  // clock cycles per bit (CLK_HZ / BAUD), >= 4
) (
    input  wire logic       clk_i,
    input  wire logic       rst_i,
    input  wire logic       rx_i,         // the serial line, idle high (asynchronous)
    output logic            valid_o,      // data_o holds a received byte
    input  wire logic       ready_i,      // the byte is taken when valid_o && ready_i
    output logic [7:0]      data_o,
    output logic            overrun_o,    // pulse: a byte was lost, the holder was full
    output logic            frame_err_o   // pulse: a byte was lost, its stop bit was 0
);
    localparam int CW = $clog2(CLKS_PER_BIT);
    localparam logic [CW-1:0] LAST = CW'(CLKS_PER_BIT - 1);
    localparam logic [CW-1:0] HALF = CW'(CLKS_PER_BIT / 2 - 1);

    if (CLKS_PER_BIT < 4) begin : g_bad_rate
        $error("accel_uart_rx: CLKS_PER_BIT must be at least 4");
    end

    typedef enum logic [1:0] {IDLE, START, DATA, STOP} state_e;

    logic [1:0] sync_q;        // two-flop synchroniser; sync_q[1] is the line
    state_e state_q, state_d;
    logic [CW-1:0] count_q, count_d;
    logic [2:0] bit_q, bit_d;
    logic [7:0] shift_q, shift_d;
    logic valid_q, valid_d;
    logic [7:0] data_q, data_d;
    logic overrun_d, frame_err_d;
    logic line;

    assign line = sync_q[1];

    always_comb begin
        state_d = state_q;
        count_d = count_q - 1'b1;
        bit_d = bit_q;
        shift_d = shift_q;
        valid_d = valid_q & ~ready_i;
        data_d = data_q;
        overrun_d = 1'b0;
        frame_err_d = 1'b0;
        unique case (state_q)
            IDLE: begin
                count_d = HALF;
                if (!line) state_d = START;
            end
            START: if (count_q == '0) begin  // middle of the start bit
                if (line) begin
                    state_d = IDLE;          // a glitch, not a start bit
                end else begin
                    state_d = DATA;
                    count_d = LAST;
                    bit_d = 3'd0;
                end
            end
            DATA: if (count_q == '0) begin
                shift_d = {line, shift_q[7:1]};
                count_d = LAST;
                bit_d = bit_q + 1'b1;
                if (bit_q == 3'd7) state_d = STOP;
            end
            STOP: if (count_q == '0) begin
                state_d = IDLE;
                if (!line) begin
                    frame_err_d = 1'b1;
                end else if (valid_d) begin
                    overrun_d = 1'b1;
                end else begin
                    valid_d = 1'b1;
                    data_d = shift_q;
                end
            end
            default: state_d = IDLE;
        endcase
    end

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            sync_q <= 2'b11;
            state_q <= IDLE;
            valid_q <= 1'b0;
            overrun_o <= 1'b0;
            frame_err_o <= 1'b0;
        end else begin
            sync_q <= {sync_q[0], rx_i};
            state_q <= state_d;
            valid_q <= valid_d;
            overrun_o <= overrun_d;
            frame_err_o <= frame_err_d;
        end
        count_q <= count_d;
        bit_q <= bit_d;
        shift_q <= shift_d;
        data_q <= data_d;
    end

    assign valid_o = valid_q;
    assign data_o = data_q;
endmodule

`default_nettype wire
