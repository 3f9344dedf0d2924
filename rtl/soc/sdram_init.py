"""SDRAM initialisation in gateware, for a SoC without a CPU.

LiteX leaves the SDRAM's power-up sequence (CKE high, precharge, mode register,
refreshes) to the BIOS, which writes it through the DFI injector's CSRs. This SoC has no
CPU, so this sequencer replays the same sequence (litedram.init, from the PHY's and the
module's settings) on the injector's external DFI port, then hands the DFI to the
controller and raises `done`.
"""
from migen import Case, FSM, If, Module, NextState, NextValue, Signal

from litedram.init import get_sdram_phy_init_sequence

# The BIOS runs its steps a few hundred cycles apart; a step with no delay of its own
# still waits this long, more than tRP and tRFC of any SDR module at 100 MHz.
MIN_STEP_CYCLES = 64


def _command_bits(command):
    """(cke, cs_n, ras_n, cas_n, we_n) of a litedram.init command string."""
    names = set(command.split("|"))
    cke = 1  # every step after the first keeps CKE high; the first raises it
    return (cke, int("DFII_COMMAND_CS" not in names), int("DFII_COMMAND_RAS" not in names),
            int("DFII_COMMAND_CAS" not in names), int("DFII_COMMAND_WE" not in names))


class SDRAMInitSequencer(Module):
    def __init__(self, dfii, phy_settings, timing_settings):
        self.done = Signal()
        steps, _ = get_sdram_phy_init_sequence(phy_settings, timing_settings)
        # One row per step: the command bits, address, bank and the wait after it.
        rows = []
        for _comment, address, bank, command, delay in steps:
            cke, cs_n, ras_n, cas_n, we_n = _command_bits(command)
            issue = int(command.startswith("DFII_COMMAND"))
            rows.append((issue, cke, cs_n, ras_n, cas_n, we_n, address, bank,
                         max(delay, MIN_STEP_CYCLES)))
        addr_w = len(dfii.ext_dfi.p0.address)
        bank_w = len(dfii.ext_dfi.p0.bank)
        wait_w = max(r[-1] for r in rows).bit_length()

        index = Signal(max=len(rows) + 1)
        wait = Signal(wait_w)
        issue, cke, cs_n, ras_n, cas_n, we_n = (Signal() for _ in range(6))
        address, bank, delay = Signal(addr_w), Signal(bank_w), Signal(wait_w)
        cases = {}
        for i, r in enumerate(rows):
            cases[i] = [issue.eq(r[0]), cke.eq(r[1]), cs_n.eq(r[2]), ras_n.eq(r[3]),
                        cas_n.eq(r[4]), we_n.eq(r[5]), address.eq(r[6]), bank.eq(r[7]),
                        delay.eq(r[8])]
        self.comb += Case(index, cases)

        cke_q = Signal()
        self.comb += dfii.ext_dfi_sel.eq(~self.done)
        for phase in dfii.ext_dfi.phases:
            self.comb += [phase.cke.eq(cke_q), phase.odt.eq(0), phase.reset_n.eq(1),
                          phase.cs_n.eq(1), phase.ras_n.eq(1), phase.cas_n.eq(1),
                          phase.we_n.eq(1)]
        p0 = dfii.ext_dfi.phases[0]

        fsm = FSM(reset_state="STEP")
        self.submodules += fsm
        fsm.act("STEP",
            If(issue, p0.cs_n.eq(cs_n), p0.ras_n.eq(ras_n), p0.cas_n.eq(cas_n),
               p0.we_n.eq(we_n)),
            p0.address.eq(address), p0.bank.eq(bank),
            NextValue(cke_q, cke_q | cke),
            NextValue(wait, delay),
            NextState("WAIT"))
        fsm.act("WAIT",
            NextValue(wait, wait - 1),
            If(wait == 0,
                NextValue(index, index + 1),
                If(index == len(rows) - 1, NextState("DONE")).Else(NextState("STEP"))))
        fsm.act("DONE", self.done.eq(1))
