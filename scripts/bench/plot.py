#!/usr/bin/env python3
"""Plots of `make bench` (docs/cli.md, "accel bench"), with matplotlib.

  plot.py efficiency REPORTS.json OUT.png   efficiency per layer, the layer shapes on the
                                            x-axis: measured (bars) and as the cost model
                                            predicts it (dots)
  plot.py timeline TIMELINE.json OUT.png    what fetch, load, compute and drain do in every
                                            cycle of one layer, token waits, and when the
                                            DRAM moves a beat (accel bench --timeline)

REPORTS.json is the list `accel bench --json` writes; TIMELINE.json the Chrome trace
--timeline writes (the same file opens in Perfetto and chrome://tracing).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display: write files only
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib.patches import Patch  # noqa: E402

# The tracks of a --timeline file, top to bottom, and the colour of their slices.
TRACK_COLORS = {"fetch": "#8172B3", "load": "#4C72B0", "compute": "#55A868",
                "drain": "#C44E52", "DRAM read": "#937860", "DRAM write": "#DA8BC3"}
UNITS = ("load", "compute", "drain")  # the others' slices are DRAM beats
WAIT = "token wait"
WAIT_COLOR = "#BBBBBB"


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


def shape_label(r):
    """C10 / 14x14x256 / ->512 1x1/2: the layer under its bar."""
    layer = r["layer"]
    stride = layer["stride"][0]
    kernel = f"{layer['r']}x{layer['s']}" + (f"/{stride}" if stride != 1 else "")
    return f"{layer['name']}\n{layer['h']}x{layer['w']}x{layer['c']}\n->{layer['k']} {kernel}"


def efficiency(reports_path, out):
    reports = load(reports_path)
    if not isinstance(reports, list) or not reports:
        fail(f"{reports_path}: expected a non-empty list of layer reports")
    if any(r.get("cycles") is None for r in reports):
        fail(f"{reports_path}: has layers without measured cycles (an fsim run?); "
             "plot a verilator run")
    try:
        labels = [shape_label(r) for r in reports]
    except (KeyError, IndexError, TypeError) as e:
        fail(f"{reports_path}: not an accel bench --json file (missing {e})")
    measured = [r["efficiency"] for r in reports]
    predicted = [r["roofline_cycles"] / r["predicted_cycles"] for r in reports]
    total = sum(r["roofline_cycles"] for r in reports) / sum(r["cycles"] for r in reports)

    fig, ax = plt.subplots(figsize=(max(6.0, 0.95 * len(labels) + 2), 4.8))
    xs = range(len(labels))
    bars = ax.bar(xs, measured, color="#4C72B0", label="measured (roofline / cycles)")
    ax.scatter(xs, predicted, color="#DD8452", zorder=3, marker="D", s=28,
               label="predicted (roofline / predicted cycles)")
    for bar, value in zip(bars, measured):
        ax.annotate(f"{value:.2f}", (bar.get_x() + bar.get_width() / 2, value),
                    xytext=(0, 3), textcoords="offset points", ha="center", fontsize=8)
    ax.set_xticks(list(xs), labels, fontsize=7)
    ax.set_ylim(0, 1.3)
    ax.set_yticks([0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.axhline(1.0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("layer: input H x W x C -> output channels, kernel / stride")
    ax.set_ylabel("efficiency (roofline / cycles)")
    r0 = reports[0]
    ax.set_title(f"{len(labels)} layers on {r0['backend']}, hw {r0['hw']}: "
                 f"overall efficiency {total:.2f}")
    ax.legend(loc="upper center", ncol=2, fontsize=8, framealpha=0.9)
    fig.tight_layout()
    save(fig, out)


def timeline_slices(t, path):
    """{track: {slice name: [(begin, length), ...]}} of a Chrome trace from --timeline."""
    try:
        events = t["traceEvents"]
        names = {e["tid"]: e["args"]["name"] for e in events
                 if e["ph"] == "M" and e["name"] == "thread_name"}
        tracks = {name: {} for name in names.values()}
        for e in events:
            if e["ph"] == "X":
                tracks[names[e["tid"]]].setdefault(e["name"], []).append((e["ts"], e["dur"]))
    except (KeyError, TypeError) as e:
        fail(f"{path}: not an accel --timeline file (missing {e})")
    missing = [name for name in TRACK_COLORS if name not in tracks]
    if missing:
        fail(f"{path}: not an accel --timeline file (no track {missing[0]})")
    return tracks


def timeline(timeline_path, out):
    t = load(timeline_path)
    tracks = timeline_slices(t, timeline_path)
    other = t.get("otherData", {})
    cycles = other.get("cycles") or max(
        (b + d for slices in tracks.values() for spans in slices.values() for b, d in spans),
        default=1)

    order = list(TRACK_COLORS)
    fig, ax = plt.subplots(figsize=(11, 4.6))
    for row, track in enumerate(reversed(order)):
        y = row * 10
        ax.broken_barh(tracks[track].get(WAIT, []), (y + 1, 8), facecolors=WAIT_COLOR,
                       edgecolor="none")
        busy = [span for name, spans in tracks[track].items() if name != WAIT for span in spans]
        ax.broken_barh(busy, (y + 1, 8), facecolors=TRACK_COLORS[track], edgecolor="none")
        busy_cycles = sum(length for _, length in busy)
        ax.text(cycles * 1.005, y + 5, f"{100.0 * busy_cycles / max(cycles, 1):.0f}%",
                va="center", fontsize=8)
    ax.set_yticks([row * 10 + 5 for row in range(len(order))], list(reversed(order)))
    ax.set_xlim(0, cycles * 1.06)
    ax.set_xlabel("clock cycle since the layer started")
    ax.set_ylabel("unit / DRAM channel")
    ax.set_title(f"{other.get('title', '?')} on the Verilator device, hw {other.get('hw', '?')}: "
                 f"{cycles} cycles")
    ax.legend(handles=[Patch(color=WAIT_COLOR, label="waiting for a token")] +
              [Patch(color=TRACK_COLORS[u], label=f"{u} busy" if u in UNITS else f"{u}: a beat")
               for u in order],
              loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=7, fontsize=8,
              frameon=False)
    fig.tight_layout()
    save(fig, out)


def main(argv):
    if len(argv) != 4 or argv[1] not in ("efficiency", "timeline"):
        fail("usage: plot.py efficiency REPORTS.json OUT.png | timeline TIMELINE.json OUT.png")
    {"efficiency": efficiency, "timeline": timeline}[argv[1]](argv[2], argv[3])


if __name__ == "__main__":
    main(sys.argv)
