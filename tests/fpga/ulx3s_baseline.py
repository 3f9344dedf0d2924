#!/usr/bin/env python3
"""The ULX3S synthesis baseline (docs/fpga.md, "In make test").

  ulx3s_baseline.py record REPORT.json BASELINE.json   write the baseline from a report
  ulx3s_baseline.py check REPORT.json BASELINE.json    the report's resources against it

REPORT.json is what scripts/fpga/run --synth-only writes. check exits 1 when the design
does not fit or a resource moved by more than TOLERANCE of its baseline, either way: a
growth is a cost to look at, a drop a baseline to record again (scripts/fpga/baseline)."""
import json
import sys

# The resources held to the baseline: Yosys' cell types.
RESOURCES = ["LUT4", "TRELLIS_FF", "CCU2C", "DP16KD", "MULT18X18D"]
TOLERANCE = 0.10


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"error: {path}: {e}", file=sys.stderr)
        sys.exit(2)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("record", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, report_path, baseline_path = sys.argv[1:]
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
    print(f"     {'resource':<12} {'baseline':>9} {'now':>9} {'change':>8}")
    for r in RESOURCES:
        was, now = baseline["cells"][r], cells.get(r, 0)
        change = (now - was) / was if was else (0.0 if now == 0 else float("inf"))
        ok = abs(change) <= TOLERANCE
        bad |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} {r:<12} {was:>9} {now:>9} {100 * change:>+7.1f}%")
    if bad:
        print(f"a resource moved by more than {100 * TOLERANCE:.0f}% of the baseline: if the "
              "change is intended, record it with scripts/fpga/baseline")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
