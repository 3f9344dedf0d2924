#!/usr/bin/env python3
"""Summarise one FPGA build: the cells Yosys mapped (from its `stat -json`), the
resources nextpnr placed against the device's capacity, and the Fmax nextpnr achieved.

usage: report.py --board B --config C --yosys-stat STAT.json --capacity KIND=N ...
                 [--module-stat STAT.json] [--pnr-report PNR.json] [--pnr-log LOG]
                 [--bitstream FILE] --out DIR

Writes DIR/report.txt and DIR/report.json. Exit 0 when every resource fits, 1 when one
does not (the report says which and by how much).

--module-stat: Yosys' `stat -json -top` of the design synthesized without flattening;
the report then lists, per module, its instances and the LUT4, flip-flops, DSPs and
block RAMs of all of them (each module's own cells, not its submodules').
--pnr-log: nextpnr's log; the report then gives the critical path: its start and end,
its delay, and the modules it runs through."""
import argparse
import json
import re
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


# Columns of the per-module table: a heading and the cell types it adds up.
MODULE_COLUMNS = [("LUT4", ("LUT4",)), ("FF", ("TRELLIS_FF",)), ("CCU2C", ("CCU2C",)),
                  ("MULT18X18D", ("MULT18X18D",)), ("DP16KD", ("DP16KD",)),
                  ("RAMW", ("TRELLIS_DPR16X4", "TRELLIS_RAMW"))]


def module_name(yosys_name):
    """The RTL name of a Yosys module: "\\accel_fetch_unit",
    "$paramod\\accel_requant\\LANES=..." and "$paramod$<hash>\\accel_uart_bridge" are
    accel_fetch_unit, accel_requant and accel_uart_bridge."""
    parts = [p for p in yosys_name.split("\\") if p]
    if parts and parts[0].startswith("$paramod"):
        parts = parts[1:]
    return parts[0] if parts else yosys_name


def module_table(stat_path, top):
    """Rows (module, instances, {column: cells}) from a hierarchical stat, largest first."""
    try:
        with open(stat_path, encoding="utf-8") as f:
            modules = json.load(f)["modules"]
    except (OSError, ValueError, KeyError) as e:
        fail(f"{stat_path}: {e}")
    instances = {}

    def module_key(cell):  # an instance's cell type, as the module it names is keyed
        return cell if cell in modules else "\\" + cell if "\\" + cell in modules else None

    def visit(name, count):
        instances[name] = instances.get(name, 0) + count
        for cell, n in modules[name]["num_cells_by_type"].items():
            if module_key(cell):
                visit(module_key(cell), count * n)

    visit("\\" + top, 1)
    rows = {}
    for name, count in instances.items():
        cells = modules[name]["num_cells_by_type"]
        row = rows.setdefault(module_name(name), {"instances": 0, **{c: 0 for c, _ in MODULE_COLUMNS}})
        row["instances"] += count
        for col, types in MODULE_COLUMNS:
            row[col] += count * sum(n for t, n in cells.items() if t in types)
    return sorted(rows.items(), key=lambda kv: (-kv[1]["LUT4"], kv[0]))


def critical_path(log_path):
    """The critical path nextpnr logged: its start, end, delay and the modules (the
    first level under the accelerator, or the board's) whose cells it passes."""
    try:
        text = open(log_path, errors="replace").read()
    except OSError as e:
        fail(f"{log_path}: {e}")
    reports = text.split("Critical path report for clock")
    if len(reports) < 2:
        return None
    # the clock's own report, without the cross-domain (I/O) ones printed after it
    last = reports[-1].split("Critical path report for cross-domain")[0]
    cells = re.findall(r"\b(?:Source|Sink)\s+(\S+)", last)
    delays = re.findall(r"([0-9.]+)\s+([0-9.]+)\s+(?:Source|Net|Sink)\b", last)
    total = float(delays[-1][1]) if delays else None

    def where(cell):
        parts = cell.split(".")
        keep = [p for p in parts[:-1] if p.startswith("u_")]
        return ".".join(keep[:3]) or parts[0]

    modules = []
    for c in cells:
        w = where(c)
        if w not in modules:
            modules.append(w)
    return {"from": cells[0] if cells else None, "to": cells[-1] if cells else None,
            "delay_ns": total, "through": modules}


def register_name(cell):
    """The RTL register (or memory) a packed cell comes from: nextpnr names a flip-flop
    or block RAM after the net it drives, plus what packing appended."""
    name = re.split(r"_TRELLIS_FF|_DP16KD|_MULT18X18D|\$", cell)[0]
    return re.sub(r"\[\d+\]", "", name)


def worst_endpoints(report, count):
    """The `count` registers whose inputs the latest signals reach, from nextpnr's
    detailed timing report (each endpoint's arrival time, clock-to-q included): the
    endpoints of the worst paths, one per register, worst first."""
    worst = {}
    for net in report.get("detailed_net_timings", []):
        for ep in net.get("endpoints", []):
            if "async" in ep.get("event", "") or "async" in net.get("event", ""):
                continue
            arrival = ep["delay"][1]
            reg = register_name(ep["cell"])
            if arrival > worst.get(reg, (-1.0,))[0]:
                worst[reg] = (arrival, ep["port"])
    ranked = sorted(worst.items(), key=lambda kv: -kv[1][0])[:count]
    return [{"register": r, "port": p, "arrival_ns": round(t, 2)} for r, (t, p) in ranked]


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
    ap.add_argument("--module-stat")
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
    endpoints = []
    if a.pnr_report:
        rep = json.load(open(a.pnr_report))
        endpoints = worst_endpoints(rep, 10)
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

    modules = module_table(a.module_stat, a.top) if a.module_stat else []
    path = critical_path(a.pnr_log) if a.pnr_log else None
    summary = {"board": a.board, "config": a.config, "device": a.device,
               "fits": fits, "resources": rows, "fmax": fmax,
               "critical_path": path, "worst_endpoints": endpoints,
               "modules": [{"module": m, **r} for m, r in modules],
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
    if path:
        lines.append(f"critical path: {path['delay_ns']} ns, {path['from']} -> {path['to']}")
        lines.append(f"  through {', '.join(path['through'])}")
    if endpoints:
        lines.append("latest arrivals (ns, clock-to-q included), one per register:")
        lines += [f"  {e['arrival_ns']:>6.2f}  {e['register']}.{e['port']}" for e in endpoints]
    if modules:
        lines += ["", "per module (synthesized without flattening; all instances, own cells):",
                  f"{'module':<26} {'inst':>5}" + "".join(f" {c:>10}" for c, _ in MODULE_COLUMNS)]
        for m, r in modules:
            lines.append(f"{m:<26} {r['instances']:>5}" +
                         "".join(f" {r[c]:>10}" for c, _ in MODULE_COLUMNS))
        lines.append(f"{'total':<26} {'':>5}" +
                     "".join(f" {sum(r[c] for _, r in modules):>10}" for c, _ in MODULE_COLUMNS))
    if a.bitstream:
        lines.append(f"bitstream: {a.bitstream}")
    lines.append("fits: yes" if fits else "fits: NO: " + "; ".join(over))
    text = "\n".join(lines) + "\n"
    open(f"{a.out}/report.txt", "w").write(text)
    sys.stdout.write(text)
    return 0 if fits else 1


if __name__ == "__main__":
    sys.exit(main())
