#!/usr/bin/env python3
"""The front plot of an `accel explore` sweep (docs/explore.md, "Output"), with matplotlib.

  plot_front.py OUT/points.json OUT/front.png

Left: time per inference against on-chip SRAM; right, when points have an area: against
the largest fraction of the FPGA's LUT4, MULT18X18D and DP16KD they take, or with
--area cells against the generic synthesis' cells (synthesized or the area model's
estimate). Every valid point is a grey dot, the points of the Pareto
front blue, the best point within the budget a star, and points confirmed on the RTL
are ringed.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display: write files only
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

def area_fraction(point, capacity):
    a = point["area"]
    return max(a["luts"] / capacity["luts"], a["dsps"] / capacity["dsps"],
               a["brams"] / capacity["brams"])


def main():
    if len(sys.argv) != 3:
        sys.exit("error: usage: plot_front.py POINTS.json OUT.png")
    sweep = json.load(open(sys.argv[1], encoding="utf-8"))
    capacity = sweep.get("fpga_capacity")  # from the synthesis report, when there was one
    valid = [p for p in sweep["points"] if p["valid"]]
    if not valid:
        sys.exit("error: no valid point to plot")
    front = [p for p in valid if p["on_front"]]
    best = sweep["points"][sweep["best"]] if sweep["best"] is not None else None
    panels = [("sram", "on-chip SRAM (KiB)", lambda p: p["sram_bytes"] / 1024)]
    if sweep.get("area_axis") == "cells":
        if all("cells" in p for p in valid):
            panels.append(("cells", "cells (Yosys generic synth of accel_top, memories aside)",
                           lambda p: p["cells"]["cells"]))
    elif capacity is not None and all("area" in p for p in valid):
        panels.append(("area", "largest fraction of the FPGA's LUT4 / DSP / BRAM",
                       lambda p: area_fraction(p, capacity)))
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 4.8), squeeze=False)
    for ax, (key, label, x) in zip(axes[0], panels):
        ax.scatter([x(p) for p in valid], [p["inference_micros"] / 1e3 for p in valid],
                   s=6, color="#BBBBBB", label=f"{len(valid)} valid points")
        # Markers, not a line: with an area the front is over three objectives, and a
        # panel shows two of them.
        ax.scatter([x(p) for p in front], [p["inference_micros"] / 1e3 for p in front], s=16,
                   color="#4C72B0", label=f"Pareto front ({len(front)} points)")
        rtl = [p for p in valid if "rtl_cycles" in p]
        if rtl:
            ax.scatter([x(p) for p in rtl], [p["inference_micros"] / 1e3 for p in rtl], s=90,
                       facecolors="none", edgecolors="#C44E52", linewidths=1.5,
                       label="confirmed on the RTL")
        if best is not None:
            ax.scatter([x(best)], [best["inference_micros"] / 1e3], marker="*", s=180,
                       color="#DD8452", zorder=5, label=f"best within {sweep['budget']}" if sweep["budget"] else "fastest")
        if key == "area":
            ax.axvline(1.0, color="#C44E52", linestyle="--", linewidth=1, label="the FPGA's capacity")
        ax.set_xlabel(label)
        ax.set_ylabel("time per inference (ms): cycles / clock")
        ax.set_yscale("log")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    # Time per inference is cycles at each point's clock: its routed Fmax, else its
    # config's clock_mhz.
    clocks = {p.get("fmax_mhz", p["clock_mhz"]) for p in valid}
    clock = f"{clocks.pop():g} MHz" if len(clocks) == 1 else "each point's clock"
    fig.suptitle(f"accel explore: {os.path.basename(sweep['target'])}, time at {clock}")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110, format="png")  # the script writes a .part first


if __name__ == "__main__":
    main()
