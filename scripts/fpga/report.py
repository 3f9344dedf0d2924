#!/usr/bin/env python3
"""Summarise one FPGA build: the cells Yosys mapped (from its `stat -json`), the
resources nextpnr placed against the device's capacity, and the Fmax nextpnr achieved.

usage: report.py --board B --config C --yosys-stat STAT.json --capacity KIND=N ...
                 [--pnr-report PNR.json] [--bitstream FILE] --out DIR

Writes DIR/report.txt and DIR/report.json. Exit 0 when every resource fits, 1 when one
does not (the report says which and by how much)."""
import argparse
import json
import sys


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def yosys_cells(stat_path, top):
    """The cell counts of module `top` in what Yosys' `stat -json` wrote (the flow runs
    `tee -q -o STAT.json stat -json` after synthesis; modules are named "\\top")."""
    try:
        with open(stat_path, encoding="utf-8") as f:
            stat = json.load(f)
        return dict(stat["modules"]["\\" + top]["num_cells_by_type"])
    except (OSError, ValueError) as e:
        fail(f"{stat_path}: {e}")
    except (KeyError, TypeError) as e:
        fail(f"{stat_path}: no cell counts of module {top} (missing {e})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--board", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--device", required=True)
    ap.add_argument("--top", default="accel_board_top")
    ap.add_argument("--yosys-stat", required=True, help="the JSON of Yosys' stat -json")
    ap.add_argument("--capacity", action="append", default=[],
                    help="CELL=N: a Yosys cell type (or PREFIX*) and how many the device has")
    ap.add_argument("--pnr-report")
    ap.add_argument("--pnr-log")
    ap.add_argument("--bitstream")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    cells = yosys_cells(a.yosys_stat, a.top)
    rows, fits, over = [], True, []
    for item in a.capacity:
        cell, cap = item.split("=")
        if cell.endswith("*"):  # a family of cells, e.g. every flip-flop type SB_DFF*
            used = sum(n for c, n in cells.items() if c.startswith(cell[:-1]))
        else:
            used = cells.get(cell, 0)
        rows.append({"resource": cell, "used": used, "available": int(cap), "source": "yosys"})
        if used > int(cap):
            fits = False
            over.append(f"{cell} {used}/{cap} ({used - int(cap)} over)")

    fmax = {}
    if a.pnr_report:
        rep = json.load(open(a.pnr_report))
        for kind, u in sorted(rep.get("utilization", {}).items()):
            if u.get("used", 0) or kind.endswith(("_LC", "_COMB", "_FF", "RAM", "DSP", "SPRAM",
                                                  "DP16KD", "MULT18X18D", "RAM40_4K")):
                rows.append({"resource": kind, "used": u["used"], "available": u["available"],
                             "source": "nextpnr"})
                if u["used"] > u["available"]:
                    fits = False
                    over.append(f"{kind} {u['used']}/{u['available']}")
        for clk, f in rep.get("fmax", {}).items():
            fmax[clk] = {"achieved_mhz": round(f["achieved"], 2),
                         "constraint_mhz": round(f["constraint"], 2)}

    summary = {"board": a.board, "config": a.config, "device": a.device,
               "fits": fits, "resources": rows, "fmax": fmax,
               "yosys_cells": cells, "bitstream": a.bitstream}
    with open(f"{a.out}/report.json", "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")

    lines = [f"board {a.board}, hw config {a.config}, device {a.device}", "",
             f"{'resource':<18} {'used':>8} {'available':>10} {'use':>7}  from"]
    for r in rows:
        pct = 100.0 * r["used"] / r["available"] if r["available"] else 0.0
        lines.append(f"{r['resource']:<18} {r['used']:>8} {r['available']:>10} {pct:>6.1f}%  {r['source']}")
    lines.append("")
    for clk, f in fmax.items():
        lines.append(f"Fmax {f['achieved_mhz']} MHz on {clk} (constraint {f['constraint_mhz']} MHz)")
    if a.bitstream:
        lines.append(f"bitstream: {a.bitstream}")
    lines.append("fits: yes" if fits else "fits: NO: " + "; ".join(over))
    text = "\n".join(lines) + "\n"
    open(f"{a.out}/report.txt", "w").write(text)
    sys.stdout.write(text)
    return 0 if fits else 1


if __name__ == "__main__":
    sys.exit(main())
