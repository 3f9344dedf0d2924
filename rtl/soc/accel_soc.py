#!/usr/bin/env python3
"""Generates the LiteX SoC that puts the accelerator on the ULX3S's SDRAM (docs/fpga.md,
"ULX3S SoC").

    accel_soc.py --target board|sim --config-pkg accel_cfg_pkg.sv --clock-mhz MHZ --out DIR

No CPU: the host drives everything over the UART bridge (accel_uart_bridge,
docs/uart-protocol.md). The SoC's Wishbone bus has two masters, both the bridge's
(its AXI-Lite CSR port and its byte memory port), and two slaves, the accelerator's
AXI-Lite CSRs and the SDRAM (LiteDRAM, through its Wishbone port, no cache). The
accelerator's AXI master has its own LiteDRAM crossbar port. A gateware sequencer
initialises the SDRAM (the BIOS does it in other LiteX SoCs).

--target board: the ULX3S (its PLL, the MT48LC16M16 SDRAM through GENSDRPHY, the FTDI
UART through accel_uart_rx/tx). --target sim: the same SoC with LiteDRAM's SDRAM model
in place of the chip, the bridge's byte streams on the top's ports (a direct channel
for the simulation harness, no UART line) and a read fault to inject.

Writes DIR/<top>.v (top accel_soc_ulx3s or accel_soc_sim) and, for the board, LiteX's
DIR/<top>.lpf (pins and clocks). The accelerator and the bridge are Verilog instances of
rtl/ and rtl/board/ as they are.
"""
import argparse
import os
import re
import sys

from migen import ClockSignal, Instance, Module, ResetSignal, Signal

from litex.build.generic_platform import IOStandard, Pins, Subsignal
from litex.soc.integration.soc import SoCRegion
from litex.soc.integration.soc_core import SoCMini
from litex.soc.interconnect.axi import AXIInterface, AXILiteInterface
from litedram import modules as sdram_modules
from litedram.frontend.axi import LiteDRAMAXI2Native

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from byte_port import BytePortToWishbone  # noqa: E402
from sdram_init import SDRAMInitSequencer  # noqa: E402

SDRAM_MODULE = "MT48LC16M16"  # the ULX3S's 32 MB SDR SDRAM
MAIN_RAM_BASE = 0x40000000    # LiteX's place for main RAM; the accelerator's DRAM address 0
ACCEL_CSR_BASE = 0x80000000   # the accelerator's 4 KiB of AXI-Lite CSRs
UART_BAUD = 115200


def beat_bytes(config_pkg):
    """BEAT_BYTES of the config's generated accel_cfg_pkg.sv (the one source of truth)."""
    m = re.search(r"localparam\s+BEAT_BYTES\s*=\s*(\d+)\s*;", open(config_pkg).read())
    if not m:
        raise SystemExit(f"error: {config_pkg}: no BEAT_BYTES")
    return int(m.group(1))


def _axi_ports(prefix, axi):
    """Instance ports of accel_top's AXI4 master, connected to a LiteX AXIInterface."""
    return {
        "o_m_axi_arid": axi.ar.id, "o_m_axi_araddr": axi.ar.addr, "o_m_axi_arlen": axi.ar.len,
        "o_m_axi_arsize": axi.ar.size, "o_m_axi_arburst": axi.ar.burst,
        "o_m_axi_arvalid": axi.ar.valid, "i_m_axi_arready": axi.ar.ready,
        "i_m_axi_rid": axi.r.id, "i_m_axi_rdata": axi.r.data, "i_m_axi_rresp": axi.r.resp,
        "i_m_axi_rlast": axi.r.last, "i_m_axi_rvalid": axi.r.valid,
        "o_m_axi_rready": axi.r.ready,
        "o_m_axi_awaddr": axi.aw.addr, "o_m_axi_awlen": axi.aw.len,
        "o_m_axi_awsize": axi.aw.size, "o_m_axi_awburst": axi.aw.burst,
        "o_m_axi_awvalid": axi.aw.valid, "i_m_axi_awready": axi.aw.ready,
        "o_m_axi_wdata": axi.w.data, "o_m_axi_wstrb": axi.w.strb, "o_m_axi_wlast": axi.w.last,
        "o_m_axi_wvalid": axi.w.valid, "i_m_axi_wready": axi.w.ready,
        "i_m_axi_bresp": axi.b.resp, "i_m_axi_bvalid": axi.b.valid,
        "o_m_axi_bready": axi.b.ready,
    }


def _axil_ports(prefix, axil, addr):
    """Instance ports of an AXI-Lite interface; `addr` maps the 12-bit CSR offset."""
    d = "i" if prefix == "s" else "o"  # accel_top is the slave, the bridge the master
    u = "o" if prefix == "s" else "i"
    aw, ar = addr
    return {
        f"{d}_{prefix}_axil_awaddr": aw, f"{d}_{prefix}_axil_awvalid": axil.aw.valid,
        f"{u}_{prefix}_axil_awready": axil.aw.ready,
        f"{d}_{prefix}_axil_wdata": axil.w.data, f"{d}_{prefix}_axil_wstrb": axil.w.strb,
        f"{d}_{prefix}_axil_wvalid": axil.w.valid, f"{u}_{prefix}_axil_wready": axil.w.ready,
        f"{u}_{prefix}_axil_bresp": axil.b.resp, f"{u}_{prefix}_axil_bvalid": axil.b.valid,
        f"{d}_{prefix}_axil_bready": axil.b.ready,
        f"{d}_{prefix}_axil_araddr": ar, f"{d}_{prefix}_axil_arvalid": axil.ar.valid,
        f"{u}_{prefix}_axil_arready": axil.ar.ready,
        f"{u}_{prefix}_axil_rdata": axil.r.data, f"{u}_{prefix}_axil_rresp": axil.r.resp,
        f"{u}_{prefix}_axil_rvalid": axil.r.valid, f"{d}_{prefix}_axil_rready": axil.r.ready,
    }


class AcceleratorSoC(SoCMini):
    def __init__(self, platform, crg, sdram_phy, sdram_module, clk_hz, dw, timeout_clks):
        self.crg = crg
        SoCMini.__init__(self, platform, clk_hz, ident="")

        # SDRAM, initialised in gateware; everything else held in reset until it is.
        self.sdrphy = sdram_phy
        self.add_sdram("sdram", phy=sdram_phy, module=sdram_module,
                       origin=MAIN_RAM_BASE, l2_cache_size=0)
        self.sdram_init = SDRAMInitSequencer(self.sdram.dfii, sdram_phy.settings,
                                             sdram_module.timing_settings)
        rst = Signal()
        self.comb += rst.eq(ResetSignal() | ~self.sdram_init.done)
        self.mem_bytes = self.bus.regions["main_ram"].size

        # The accelerator: its AXI master on a crossbar port of its own, its CSRs a slave.
        axi = AXIInterface(data_width=8 * dw, address_width=32, id_width=1)
        port = self.sdram.crossbar.get_port(data_width=8 * dw)
        self.submodules.accel_axi = LiteDRAMAXI2Native(axi, port, base_address=0)
        csr = AXILiteInterface(data_width=32, address_width=32)
        self.bus.add_slave("accel_csr", csr,
                           SoCRegion(origin=ACCEL_CSR_BASE, size=0x1000, cached=False))
        self.irq = Signal()
        self.comb += axi.aw.id.eq(0)
        self.specials += Instance("accel_top",
            i_clk_i=ClockSignal(), i_rst_i=rst, o_irq_o=self.irq,
            **_axil_ports("s", csr, (csr.aw.addr[:12], csr.ar.addr[:12])),
            **_axi_ports("m", axi))

        # The UART bridge: a byte stream in and out, two bus masters.
        self.rx_valid, self.rx_ready, self.rx_data = Signal(), Signal(), Signal(8)
        self.tx_valid, self.tx_ready, self.tx_data = Signal(), Signal(), Signal(8)
        self.bridge_busy, self.frame_ok, self.frame_err = Signal(), Signal(), Signal()
        bridge_csr = AXILiteInterface(data_width=32, address_width=32)
        aw12, ar12 = Signal(12), Signal(12)
        self.comb += [bridge_csr.aw.addr.eq(ACCEL_CSR_BASE | aw12),
                      bridge_csr.ar.addr.eq(ACCEL_CSR_BASE | ar12)]
        self.bus.add_master("bridge_csr", bridge_csr)
        self.submodules.byte_port = bp = BytePortToWishbone(MAIN_RAM_BASE)
        self.bus.add_master("bridge_mem", bp.bus)
        self.specials += Instance("accel_uart_bridge",
            p_MEM_BYTES=self.mem_bytes, p_TIMEOUT_CLKS=timeout_clks,
            i_clk_i=ClockSignal(), i_rst_i=rst,
            i_rx_valid_i=self.rx_valid, o_rx_ready_o=self.rx_ready, i_rx_data_i=self.rx_data,
            o_tx_valid_o=self.tx_valid, i_tx_ready_i=self.tx_ready, o_tx_data_o=self.tx_data,
            **_axil_ports("m", bridge_csr, (aw12, ar12)),
            o_mem_req_o=bp.req, o_mem_we_o=bp.we, o_mem_addr_o=bp.addr,
            o_mem_wdata_o=bp.wdata, i_mem_gnt_i=bp.gnt, i_mem_rvalid_i=bp.rvalid,
            i_mem_rdata_i=bp.rdata,
            o_busy_o=self.bridge_busy, o_frame_ok_o=self.frame_ok,
            o_frame_err_o=self.frame_err)


def board_soc(clk_hz, dw):
    from litedram.phy import GENSDRPHY
    from litex_boards.platforms import radiona_ulx3s
    from litex_boards.targets.radiona_ulx3s import _CRG

    platform = radiona_ulx3s.Platform(device="LFE5U-85F", revision="2.0", toolchain="trellis")
    crg = _CRG(platform, clk_hz)
    phy = GENSDRPHY(platform.request("sdram"), clk_hz)
    module = getattr(sdram_modules, SDRAM_MODULE)(clk_hz, "1:1")
    soc = AcceleratorSoC(platform, crg, phy, module, clk_hz, dw, timeout_clks=clk_hz // 10)

    # The FTDI UART: accel_uart_rx/tx in front of the bridge, as on the on-chip-RAM board.
    serial = platform.request("serial")
    clks_per_bit = clk_hz // UART_BAUD
    soc.specials += Instance("accel_uart_rx", p_CLKS_PER_BIT=clks_per_bit,
        i_clk_i=ClockSignal(), i_rst_i=ResetSignal(), i_rx_i=serial.rx,
        o_valid_o=soc.rx_valid, i_ready_i=soc.rx_ready, o_data_o=soc.rx_data,
        o_overrun_o=Signal(name="uart_rx_overrun"), o_frame_err_o=Signal(name="uart_rx_frame_err"))
    soc.specials += Instance("accel_uart_tx", p_CLKS_PER_BIT=clks_per_bit,
        i_clk_i=ClockSignal(), i_rst_i=ResetSignal(), i_valid_i=soc.tx_valid,
        o_ready_o=soc.tx_ready, i_data_i=soc.tx_data, o_tx_o=serial.tx)

    # LEDs: 0 heartbeat, 1 a frame in progress, 2 the last run is done, 3 SDRAM ready.
    leds = [platform.request("user_led", i) for i in range(4)]
    heartbeat = Signal(max(clk_hz.bit_length(), 2))
    soc.sync += heartbeat.eq(heartbeat + 1)
    soc.comb += [leds[0].eq(heartbeat[-1]), leds[1].eq(soc.bridge_busy), leds[2].eq(soc.irq),
                 leds[3].eq(soc.sdram_init.done)]
    return platform, soc, "accel_soc_ulx3s"


def sim_soc(clk_hz, dw, timeout_clks):
    from litex.build.sim import SimPlatform
    from litedram.phy.model import SDRAMPHYModel
    from migen.genlib.io import CRG
    from dfi_fault import DFIReadFault

    io = [
        ("sys_clk", 0, Pins(1)),
        ("sys_rst", 0, Pins(1)),
        ("host", 0,  # the bridge's byte streams, and what the harness watches
            Subsignal("rx_valid", Pins(1)), Subsignal("rx_ready", Pins(1)),
            Subsignal("rx_data", Pins(8)),
            Subsignal("tx_valid", Pins(1)), Subsignal("tx_ready", Pins(1)),
            Subsignal("tx_data", Pins(8)),
            Subsignal("bridge_busy", Pins(1)), Subsignal("accel_done", Pins(1)),
            Subsignal("sdram_ready", Pins(1)), Subsignal("sdram_fault", Pins(1))),
    ]
    platform = SimPlatform("SIM", io)
    crg = CRG(platform.request("sys_clk"), platform.request("sys_rst"))
    module = getattr(sdram_modules, SDRAM_MODULE)(clk_hz, "1:1")
    model = SDRAMPHYModel(module=module, data_width=16, clk_freq=clk_hz)
    fault = DFIReadFault(model)
    soc = AcceleratorSoC(platform, crg, fault, module, clk_hz, dw, timeout_clks)
    soc.submodules.sdram_model = model
    soc.submodules.sdram_fault = fault
    host = platform.request("host")
    soc.comb += [
        soc.rx_valid.eq(host.rx_valid), host.rx_ready.eq(soc.rx_ready),
        soc.rx_data.eq(host.rx_data),
        host.tx_valid.eq(soc.tx_valid), soc.tx_ready.eq(host.tx_ready),
        host.tx_data.eq(soc.tx_data),
        host.bridge_busy.eq(soc.bridge_busy), host.accel_done.eq(soc.irq),
        host.sdram_ready.eq(soc.sdram_init.done), fault.enable.eq(host.sdram_fault),
    ]
    return platform, soc, "accel_soc_sim"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--target", required=True, choices=["board", "sim"])
    p.add_argument("--config-pkg", required=True, help="the config's accel_cfg_pkg.sv")
    p.add_argument("--clock-mhz", required=True, type=int, help="the SoC's clock")
    p.add_argument("--timeout-clks", type=int,
                   help="(sim) the bridge's inter-byte timeout; default a tenth of a second")
    p.add_argument("--out", required=True, help="output directory")
    a = p.parse_args()
    clk_hz = a.clock_mhz * 1000000
    dw = beat_bytes(a.config_pkg)
    if a.target == "board":
        platform, soc, top = board_soc(clk_hz, dw)
    else:
        platform, soc, top = sim_soc(clk_hz, dw, a.timeout_clks or clk_hz // 10)
    os.makedirs(a.out, exist_ok=True)
    if a.target == "board":
        # LiteX's builder writes the Verilog and the LPF (pins, clock constraints); the
        # kit's flow (scripts/fpga/run ulx3s-soc) runs the tools itself.
        from litex.soc.integration.builder import Builder
        builder = Builder(soc, output_dir=a.out, gateware_dir=a.out, compile_software=False,
                          compile_gateware=False)
        builder.build(build_name=top, run=False)
    else:
        soc.finalize()
        platform.get_verilog(soc, name=top).write(os.path.join(a.out, top + ".v"))
    print(f"{top}: {soc.mem_bytes} bytes of SDRAM, {8 * dw}-bit AXI, {a.clock_mhz} MHz")


if __name__ == "__main__":
    main()
