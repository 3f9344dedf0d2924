"""The SoC's own gateware (rtl/soc/), in Migen's simulator: the SDRAM init sequencer
replays LiteDRAM's SDR init sequence on the external DFI port and then hands the DFI
back; the bridge's byte port reads and writes the bytes it is asked for over Wishbone.

    python test_soc_modules.py     (the flow's venv: LiteX, LiteDRAM, Migen)

Prints one line per check and 'N passed, M failed'; exits 1 if any failed.
"""
import os
import random
import sys

from migen import Module, run_simulation

from litedram import modules as sdram_modules
from litedram.dfii import DFIInjector
from litedram.init import get_sdram_phy_init_sequence
from litedram.phy.model import get_sdram_phy_settings
from litex.soc.interconnect import wishbone

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "rtl", "soc"))
from byte_port import BytePortToWishbone  # noqa: E402
from sdram_init import MIN_STEP_CYCLES, SDRAMInitSequencer  # noqa: E402

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}")


def test_sdram_init():
    clk_hz = 60e6
    settings = get_sdram_phy_settings("SDR", 16, clk_hz)
    module = sdram_modules.MT48LC16M16(clk_hz, "1:1")
    dut = Module()
    dut.submodules.dfii = dfii = DFIInjector(13, 2, 1, 16, 1)
    dut.submodules.seq = seq = SDRAMInitSequencer(dfii, settings, module.timing_settings)
    steps, _ = get_sdram_phy_init_sequence(settings, module.timing_settings)
    want = [(a, ba, c) for _, a, ba, c, _ in steps if c.startswith("DFII_COMMAND")]
    seen, cke_at, done_at = [], None, None
    p0 = dfii.master.phases[0]

    def bench():
        nonlocal cke_at, done_at
        for cycle in range(sum(max(s[-1], MIN_STEP_CYCLES) for s in steps) + 100):
            if cke_at is None and (yield p0.cke):
                cke_at = cycle
            if not (yield p0.cs_n):
                bits = []
                for name, sig in (("DFII_COMMAND_RAS", p0.ras_n), ("DFII_COMMAND_CAS", p0.cas_n),
                                  ("DFII_COMMAND_WE", p0.we_n)):
                    if not (yield sig):
                        bits.append(name)
                seen.append((cycle, (yield p0.address), (yield p0.bank),
                             "|".join(bits + ["DFII_COMMAND_CS"])))
            if done_at is None and (yield seq.done):
                done_at = cycle
            yield

    run_simulation(dut, bench())
    got = [(a, ba, c) for _, a, ba, c in seen]
    canon = [(a, ba, "|".join(sorted(c.split("|")))) for a, ba, c in want]
    check("sdram_init: the commands of litedram.init, in order", [
        (a, ba, "|".join(sorted(c.split("|")))) for a, ba, c in got] == canon,
        f"{len(got)} commands, {len(want)} expected")
    check("sdram_init: CKE high 20000 cycles before the first command",
          cke_at is not None and seen and seen[0][0] - cke_at >= 20000,
          f"CKE at {cke_at}, first command at {seen[0][0] if seen else None}")
    gaps = [b[0] - a[0] for a, b in zip(seen, seen[1:])]
    check("sdram_init: commands at least MIN_STEP_CYCLES apart",
          all(g >= MIN_STEP_CYCLES for g in gaps), f"gaps {gaps}")
    check("sdram_init: done (the DFI handed to the controller) after the last command",
          done_at is not None and seen and done_at > seen[-1][0], f"done at {done_at}")


def test_byte_port():
    base = 0x1000
    dut = Module()
    dut.submodules.port = port = BytePortToWishbone(base)
    dut.submodules.ram = ram = wishbone.SRAM(256, bus=wishbone.Interface(32, 30, addressing="word"))
    # The RAM answers at base: the port's word addresses minus base's.
    dut.comb += [port.bus.connect(ram.bus, omit={"adr"}),
                 ram.bus.adr.eq(port.bus.adr - base // 4)]
    rng = random.Random(1)
    data = {a: rng.randrange(256) for a in rng.sample(range(256), 64)}
    got = {}

    def access(we, addr, value=0):
        yield port.req.eq(1)
        yield port.we.eq(we)
        yield port.addr.eq(addr)
        yield port.wdata.eq(value)
        yield
        while not (yield port.gnt):
            yield
        yield port.req.eq(0)
        yield
        if we:
            return None
        while not (yield port.rvalid):
            yield
        return (yield port.rdata)

    def bench():
        for a, v in data.items():
            yield from access(1, a, v)
        for a in data:
            got[a] = yield from access(0, a)
            for _ in range(rng.randrange(3)):
                yield

    run_simulation(dut, bench())
    bad = [a for a in data if got.get(a) != data[a]]
    check("byte_port: 64 random bytes written and read back", not bad,
          f"{len(bad)} differ" if bad else "")


if __name__ == "__main__":
    test_sdram_init()
    test_byte_port()
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
