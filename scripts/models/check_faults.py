"""Checks `accel run --faults` on the digits model: the DRAM faults a network run
survives and those it must report (docs/reliability.md, "DRAM fault injection").

    check_faults.py BUILD/models/digits.tflite --accel BUILD/sw/accel

- Stalls, backpressure and reordering on the RTL: exit 0, `--check` bit-exact, and the
  same output as the functional simulator's.
- Each error response of ERRORS: exit 3, one `error: device failure: operator N (TYPE):
  ...` line naming the unit, the response and the address, nothing on stdout, and none
  of the outputs (--output, --report, --dump-tensors) written.

Prints one line per run and 'N passed, M failed'; exits 1 on any failure.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from ai_edge_litert.interpreter import Interpreter

SURVIVED = "seed=5,stall=0.05,backpressure=0.5,reorder=0.5"
# (SPEC, what the error line must say), for the digits network: a read early on (fetch's
# or load's), the first drain write, and a read far into the network under stalls (the
# N-th burst counts over every operator's programs: today the FULLY_CONNECTED's load).
ERRORS = [
    ("slverr=read:3", r"operator 0 \(CONV_2D\): verilator:\w+: (fetch|load) unit: DRAM answered "
                      r"SLVERR on a read at 0x[0-9a-f]{8}; the accelerator reported BUS_ERROR"),
    ("decerr=write:1", r"operator 0 \(CONV_2D\): verilator:\w+: drain unit: DRAM answered "
                       r"DECERR on a write at 0x[0-9a-f]{8}; the accelerator reported BUS_ERROR"),
    ("seed=2,stall=0.01,decerr=read:200",
     r"operator [1-9]\d* \([A-Z_0-9]+\): verilator:\w+: (fetch|load) unit: DRAM answered "
     r"DECERR on a read at 0x[0-9a-f]{8}; the accelerator reported BUS_ERROR"),
]


def accel_run(accel, model, x, work, extra):
    """The run's CompletedProcess, with --output, --report and --dump-tensors in `work`."""
    dump = os.path.join(work, "tensors")
    os.makedirs(dump, exist_ok=True)
    cmd = [accel, "run", model, "--input", x, "--output", os.path.join(work, "y.npy"),
           "--report", os.path.join(work, "report.json"), "--dump-tensors", dump] + extra
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def check_survived(accel, model, x, work):
    clean_dir, faulted_dir = os.path.join(work, "clean"), os.path.join(work, "faulted")
    clean = accel_run(accel, model, x, clean_dir, ["--backend", "fsim"])
    run = accel_run(accel, model, x, faulted_dir,
                    ["--backend", "verilator", "--faults", SURVIVED, "--check"])
    if clean.returncode != 0 or run.returncode != 0:
        return False, f"exit {clean.returncode} (fsim), {run.returncode}: {run.stderr.strip()!r}"
    same = np.array_equal(np.load(os.path.join(clean_dir, "y.npy")),
                          np.load(os.path.join(faulted_dir, "y.npy")))
    exact = "check: bit-exact" in run.stdout
    return same and exact, f"output equal to fsim's: {same}, --check bit-exact: {exact}"


def check_error(accel, model, x, work, spec, pattern):
    run = accel_run(accel, model, x, work, ["--backend", "verilator", "--faults", spec])
    lines = run.stderr.splitlines()
    written = sorted(os.listdir(work)) + sorted(os.listdir(os.path.join(work, "tensors")))
    ok = bool(run.returncode == 3 and len(lines) == 1 and not run.stdout
          and lines[0].startswith("error: device failure: ") and re.search(pattern, lines[0])
          and written == ["tensors"])
    return ok, f"exit {run.returncode}, written {written}, stderr {run.stderr.strip()!r}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("--accel", required=True)
    args = p.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as work:
        x = os.path.join(work, "x.npy")
        detail = Interpreter(model_path=args.model).get_input_details()[0]
        np.save(x, np.random.default_rng(3).integers(-128, 128, detail["shape"], dtype=np.int8))
        ok, what = check_survived(args.accel, args.model, x, work)
        print(f"{'ok  ' if ok else 'FAIL'} --faults {SURVIVED}: {what}")
        results.append(ok)
        for i, (spec, pattern) in enumerate(ERRORS):
            sub = os.path.join(work, f"error{i}")
            os.makedirs(sub)
            ok, what = check_error(args.accel, args.model, x, sub, spec, pattern)
            print(f"{'ok  ' if ok else 'FAIL'} --faults {spec}: {what}")
            results.append(ok)
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
