"""Checks that `accel run` refuses every mutation of mutate_model.py as docs/cli.md says
bad input is refused: exit 2, one line on stderr starting "error: " and naming what is
wrong, nothing on stdout, no output file written.

    check_refusals.py MODEL.tflite --accel BUILD/sw/accel --backend ref|fsim|verilator

Prints one line per mutation and 'N passed, M failed'; exits 1 on any failure.
"""

import argparse
import os
import subprocess
import sys
import tempfile

from mutate_model import REFUSALS, mutate


def check(accel, backend, model, phrase):
    out = model + ".y.npy"
    run = subprocess.run([accel, "run", model, "--backend", backend, "--output", out],
                         capture_output=True, text=True, timeout=300)
    lines = run.stderr.splitlines()
    ok = (run.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: ")
          and phrase in lines[0] and not run.stdout and not os.path.exists(out))
    return ok, f"exit {run.returncode}, stderr {run.stderr.strip()!r}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("--accel", required=True)
    p.add_argument("--backend", required=True, choices=["ref", "fsim", "verilator"])
    args = p.parse_args()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name, (_, phrase) in REFUSALS.items():
            mutant = os.path.join(work, f"{name}.tflite")
            mutate(args.model, name, mutant)
            ok, what = check(args.accel, args.backend, mutant, phrase)
            print(f"{'ok  ' if ok else 'FAIL'} {name}: {what}")
            passed += ok
            failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
