#!/usr/bin/env python3
"""The ULX3S synthesis baseline (docs/fpga.md, "In make test").

  ulx3s_baseline.py record REPORT.json BASELINE.json   write the baseline from a report
  ulx3s_baseline.py check REPORT.json BASELINE.json [--synth-log LOG]
                                                       the report's resources against it;
                                                       with the synthesis log, also that
                                                       every memory went where it belongs

REPORT.json is what scripts/fpga/run --synth-only writes. check exits 1 when the design
does not fit or a resource moved by more than TOLERANCE of its baseline, either way: a
growth is a cost to look at, a drop a baseline to record again (scripts/fpga/baseline)."""
import json
import re
import sys

# The resources held to the baseline: Yosys' cell types.
RESOURCES = ["LUT4", "TRELLIS_FF", "CCU2C", "DP16KD", "TRELLIS_DPR16X4", "MULT18X18D"]
TOLERANCE = 0.10


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"error: {path}: {e}", file=sys.stderr)
        sys.exit(2)


def memories_in_place(log_path):
    """Every memory Yosys mapped (memory_libmap's "mapping memory M via CELL") went where
    the RTL means it: the SRAMs (accel_prim_sram_*, memories named mem_q) to a DP16KD
    (true or pseudo dual-port), the FIFOs' entries (accel_prim_fifo_sync, data_q) to LUT
    RAM; none to flip-flops. Returns the failures."""
    try:
        log = open(log_path, errors="replace").read()
    except OSError as e:
        print(f"error: {log_path}: {e}", file=sys.stderr)
        sys.exit(2)
    mapped = re.findall(r"^mapping memory (\S+) via (\S+)$", log, re.M)
    if not mapped:
        return [f"{log_path}: no memory was mapped"]
    failures = []
    for memory, via in mapped:
        if memory.endswith(".data_q"):
            if not via.startswith("$__TRELLIS_DPR16X4"):
                failures.append(f"FIFO memory {memory} mapped via {via}, not LUT RAM")
        elif not via.startswith(("$__DP16KD", "$__PDPW16KD")):
            failures.append(f"memory {memory} mapped via {via}, not a DP16KD")
    return failures


def main():
    args = sys.argv[1:]
    log_path = None
    if len(args) == 5 and args[3] == "--synth-log":
        log_path = args[4]
        args = args[:3]
    if len(args) != 3 or args[0] not in ("record", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, report_path, baseline_path = args
    report = load(report_path)
    cells = report["yosys_cells"]
    if mode == "record":
        baseline = {"board": report["board"], "config": report["config"],
                    "made_by": "scripts/fpga/baseline",
                    "cells": {r: cells.get(r, 0) for r in RESOURCES}}
        with open(baseline_path, "w", encoding="utf-8") as f:
            json.dump(baseline, f, indent=2)
            f.write("\n")
        print(f"wrote {baseline_path}: {baseline['cells']}")
        return 0
    baseline = load(baseline_path)
    bad = not report["fits"]
    print(f"{'ok  ' if report['fits'] else 'FAIL'} fits the LFE5U-85F")
    print(f"     {'resource':<15} {'baseline':>9} {'now':>9} {'change':>8}")
    for r in RESOURCES:
        was, now = baseline["cells"][r], cells.get(r, 0)
        change = (now - was) / was if was else (0.0 if now == 0 else float("inf"))
        ok = abs(change) <= TOLERANCE
        bad |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} {r:<15} {was:>9} {now:>9} {100 * change:>+7.1f}%")
    if log_path:
        failures = memories_in_place(log_path)
        for f in failures:
            print(f"FAIL {f}")
        if not failures:
            print("ok   every SRAM in DP16KD block RAM, every FIFO in LUT RAM")
        bad |= bool(failures)
    if bad:
        print(f"a resource moved by more than {100 * TOLERANCE:.0f}% of the baseline: if the "
              "change is intended, record it with scripts/fpga/baseline")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
