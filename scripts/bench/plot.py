#!/usr/bin/env python3
"""Plots of `make bench` (docs/cli.md, "accel bench"), with matplotlib.

  plot.py efficiency REPORTS.json OUT.png   efficiency per layer: measured (bars) and as the
                                            cost model predicts it (dots)
  plot.py timeline TIMELINE.json OUT.png    load/compute/drain busy and wait intervals of one
                                            layer (accel bench --timeline)

REPORTS.json is the list `accel bench --json` writes; TIMELINE.json what --timeline writes.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display: write files only
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib.patches import Patch  # noqa: E402

UNIT_COLORS = {"load": "#4C72B0", "compute": "#55A868", "drain": "#C44E52"}


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")


def save(fig, out):
    """Writes the PNG atomically: a failed plot never leaves half a file."""
    tmp = out + ".tmp"
    fig.savefig(tmp, dpi=120, format="png")
    plt.close(fig)
    os.replace(tmp, out)


def efficiency(reports_path, out):
    reports = load(reports_path)
    if not isinstance(reports, list) or not reports:
        fail(f"{reports_path}: expected a non-empty list of layer reports")
    if any(r.get("cycles") is None for r in reports):
        fail(f"{reports_path}: has layers without measured cycles (an fsim run?); "
             "plot a verilator run")
    names = [r["layer"]["name"] for r in reports]
    measured = [r["efficiency"] for r in reports]
    predicted = [r["roofline_cycles"] / r["predicted_cycles"] for r in reports]
    total = sum(r["roofline_cycles"] for r in reports) / sum(r["cycles"] for r in reports)

    fig, ax = plt.subplots(figsize=(max(6.0, 0.7 * len(names) + 2), 4.2))
    xs = range(len(names))
    bars = ax.bar(xs, measured, color="#4C72B0", label="measured (roofline / cycles)")
    ax.scatter(xs, predicted, color="#DD8452", zorder=3, marker="D", s=28,
               label="predicted (roofline / predicted cycles)")
    for bar, value in zip(bars, measured):
        ax.annotate(f"{value:.2f}", (bar.get_x() + bar.get_width() / 2, value),
                    xytext=(0, 3), textcoords="offset points", ha="center", fontsize=8)
    ax.set_xticks(list(xs), names)
    ax.set_ylim(0, 1.3)
    ax.set_yticks([0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.axhline(1.0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_ylabel("efficiency")
    r0 = reports[0]
    ax.set_title(f"{len(names)} layers on {r0['backend']}, hw {r0['hw']}: "
                 f"overall efficiency {total:.2f}")
    ax.legend(loc="upper center", ncol=2, fontsize=8, framealpha=0.9)
    fig.tight_layout()
    save(fig, out)


def timeline(timeline_path, out):
    t = load(timeline_path)
    try:
        units = t["units"]
        cycles = t["cycles"]
        order = ["load", "compute", "drain"]
        spans = {u: units[u] for u in order}
    except (KeyError, TypeError) as e:
        fail(f"{timeline_path}: not an accel bench --timeline file (missing {e})")

    fig, ax = plt.subplots(figsize=(11, 3.8))
    for row, unit in enumerate(reversed(order)):
        y = row * 10
        busy = [(b, e - b) for b, e in spans[unit]["busy"]]
        wait = [(b, e - b) for b, e in spans[unit]["wait"]]
        ax.broken_barh(wait, (y + 1, 8), facecolors="#DDDDDD", edgecolor="none")
        ax.broken_barh(busy, (y + 1, 8), facecolors=UNIT_COLORS[unit], edgecolor="none")
        busy_cycles = sum(w for _, w in busy)
        ax.text(cycles * 1.005, y + 5, f"{100.0 * busy_cycles / max(cycles, 1):.0f}% busy",
                va="center", fontsize=8)
    ax.set_yticks([row * 10 + 5 for row in range(3)], list(reversed(order)))
    ax.set_xlim(0, cycles * 1.09)
    ax.set_xlabel("cycle")
    ax.set_title(f"layer {t['layer']} ({t.get('shape', '')}) on the Verilator device, "
                 f"hw {t.get('hw', '?')}: {cycles} cycles")
    ax.legend(handles=[Patch(color=UNIT_COLORS[u], label=f"{u} busy") for u in order] +
              [Patch(color="#DDDDDD", label="waiting for a token")],
              loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=4, fontsize=8, frameon=False)
    fig.tight_layout()
    save(fig, out)


def main(argv):
    if len(argv) != 4 or argv[1] not in ("efficiency", "timeline"):
        fail("usage: plot.py efficiency REPORTS.json OUT.png | timeline TIMELINE.json OUT.png")
    {"efficiency": efficiency, "timeline": timeline}[argv[1]](argv[2], argv[3])


if __name__ == "__main__":
    main(sys.argv)
