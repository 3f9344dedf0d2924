"""The UART bridge's byte port (accel_uart_bridge's mem_* signals) as a Wishbone master.

The bridge reads and writes the memory one byte at a time: a request is granted when
the port is idle, a write ends when the bus acknowledges it, a read answers with
`rvalid` and the byte. Each byte is one 32-bit Wishbone access with one byte lane
selected, at `base` + the byte address (the SoC's main RAM).
"""
from migen import Array, FSM, If, Module, NextState, NextValue, Replicate, Signal

from litex.soc.interconnect import wishbone


class BytePortToWishbone(Module):
    def __init__(self, base):
        self.req = Signal()
        self.we = Signal()
        self.addr = Signal(32)
        self.wdata = Signal(8)
        self.gnt = Signal()
        self.rvalid = Signal()
        self.rdata = Signal(8)
        self.bus = bus = wishbone.Interface(data_width=32, address_width=32, addressing="word")

        we_q, lane_q = Signal(), Signal(2)
        addr_q, wdata_q = Signal(32), Signal(8)
        fsm = FSM(reset_state="IDLE")
        self.submodules += fsm
        fsm.act("IDLE",
            self.gnt.eq(1),
            If(self.req,
                NextValue(we_q, self.we),
                NextValue(addr_q, base + self.addr),
                NextValue(lane_q, self.addr[:2]),
                NextValue(wdata_q, self.wdata),
                NextState("BUS")))
        fsm.act("BUS",
            bus.cyc.eq(1), bus.stb.eq(1), bus.we.eq(we_q),
            bus.adr.eq(addr_q[2:]),
            bus.sel.eq(1 << lane_q),
            bus.dat_w.eq(Replicate(wdata_q, 4)),
            If(bus.ack,
                NextValue(self.rdata, Array(bus.dat_r[8 * i:8 * i + 8] for i in range(4))[lane_q]),
                If(we_q, NextState("IDLE")).Else(NextState("ANSWER"))))
        fsm.act("ANSWER", self.rvalid.eq(1), NextState("IDLE"))
