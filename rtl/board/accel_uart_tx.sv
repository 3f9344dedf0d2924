// UART transmitter, 8N1, LSB first. A byte is taken when valid_i && ready_o; ready_o is
// high while the line is idle (the stop bit of the previous byte has been sent).
`default_nettype none

module accel_uart_tx #(
    parameter int CLKS_PER_BIT = 104  // clock cycles per bit (CLK_HZ / BAUD), >= 2
) (
    input  wire logic       clk_i,
    input  wire logic       rst_i,
    input  wire logic       valid_i,
    output logic            ready_o,
    input  wire logic [7:0] data_i,
    output logic            tx_o      // the serial line, idle high
);
    localparam int CW = $clog2(CLKS_PER_BIT);
    localparam logic [CW-1:0] LAST = CW'(CLKS_PER_BIT - 1);

    if (CLKS_PER_BIT < 2) begin : g_bad_rate
        $error("accel_uart_tx: CLKS_PER_BIT must be at least 2");
    end

    // frame_q holds {stop, data[7:0], start}; it shifts out LSB first.
    logic [9:0] frame_q;
    logic [3:0] bits_q;      // bits left to send, 0 = idle
    logic [CW-1:0] count_q;

    always_ff @(posedge clk_i) begin
        if (rst_i) begin
            frame_q <= '1;
            bits_q <= '0;
            count_q <= '0;
        end else if (bits_q == '0) begin
            if (valid_i) begin
                frame_q <= {1'b1, data_i, 1'b0};
                bits_q <= 4'd10;
                count_q <= LAST;
            end
        end else if (count_q == '0) begin
            frame_q <= {1'b1, frame_q[9:1]};
            bits_q <= bits_q - 1'b1;
            count_q <= LAST;
        end else begin
            count_q <= count_q - 1'b1;
        end
    end

    assign ready_o = bits_q == '0;
    assign tx_o = frame_q[0];
endmodule

`default_nettype wire
