// ULX3S top (docs/fpga.md): the board's 25 MHz oscillator through the ECP5 PLL
// (accel_ulx3s_pll, written by `ecppll` when scripts/fpga/run ulx3s runs, for the flow's
// board_mhz) clocks accel_board_top, which stays in reset until the PLL locks. CLK_HZ is
// the frequency the PLL actually makes, which sets the UART's bit timing. Only the FPGA
// flow reads this file: the simulation and lint targets have no PLL.
`default_nettype none

module accel_ulx3s_top #(
    parameter int CLK_HZ = 25000000
) (
    input  wire       clk_i,      // 25 MHz oscillator (G2)
    input  wire       uart_rx_i,
    output wire       uart_tx_o,
    output wire [3:0] led_o
);
    wire clk, locked;

    accel_ulx3s_pll u_pll (
        .clkin  (clk_i),
        .clkout0(clk),
        .locked (locked)
    );

    accel_board_top #(
        .CLK_HZ(CLK_HZ)
    ) u_board (
        .clk_i    (clk),
        .rst_ni   (locked),
        .uart_rx_i(uart_rx_i),
        .uart_tx_o(uart_tx_o),
        .led_o    (led_o)
    );
endmodule

`default_nettype wire
