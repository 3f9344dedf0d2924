"""A fault in the simulated SDRAM: between the controller and the SDRAM model, every
word read back has its lowest bit inverted while `enable` is high. Simulation only:
it lets a test show that memory returning wrong data ends in an error, never in a
result called bit-exact.
"""
from migen import Module, Signal

from litedram.phy import dfi


class DFIReadFault(Module):
    def __init__(self, phy):
        self.enable = Signal()
        self.settings = phy.settings
        s = phy.settings
        self.dfi = dfi.Interface(len(phy.dfi.p0.address), len(phy.dfi.p0.bank), s.nranks,
                                 s.dfi_databits, s.nphases)
        for ours, model in zip(self.dfi.phases, phy.dfi.phases):
            for name, _width, direction in ours.layout:
                a, b = getattr(ours, name), getattr(model, name)
                if name == "rddata":
                    self.comb += a.eq(b ^ self.enable)
                elif direction == dfi.DIR_M_TO_S:
                    self.comb += b.eq(a)
                else:
                    self.comb += a.eq(b)
