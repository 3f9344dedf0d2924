#!/usr/bin/env python3
"""The JSON Schemas of docs/schemas/ against real outputs of the accel CLI.

Runs accel to write every kind of JSON it writes (conv2d --report on each backend and
--timeline, plan --json, bench --json, exec --counters, run --report), validates each
against its schema (draft 2020-12), and then damages each document -- a required key
removed, a value of the wrong type -- to show that its schema rejects it.

  check_schemas.py --accel ACCEL --schemas DIR --hw-dir DIR --model MODEL.tflite

Prints one line per check and "N passed, M failed"; exits 1 if anything failed.
"""
import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

# A workload small enough for the Verilator device: two layers, one of them strided.
WORKLOAD = """name: schemas
layers:
  - {name: S1, h: 6, w: 5, cin: 20, cout: 12, kernel: 3, pad: 1, stride: 1}
  - {name: S2, h: 8, w: 8, cin: 8, cout: 16, kernel: 1, pad: 0, stride: 2}
"""

# A LOAD of one input entry from byte 128 and a FINISH (docs/isa.md, "Encoding"), then
# the data: the program of docs/cli.md's accel exec example.
PROGRAM = (bytes([1, 0, 0, 0, 128, 0, 0, 0, 1, 0, 1, 0, 1, 0]) + bytes(50) +
           bytes([4]) + bytes(63) + bytes(range(64)))


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def expect(self, ok, what):
        print(("ok     " if ok else "FAILED ") + what)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def run(accel, *args):
    r = subprocess.run([accel, *args], capture_output=True, text=True, check=False)
    if r.returncode != 0:
        sys.exit(f"error: accel {' '.join(args)}: exit {r.returncode}\n{r.stderr}")


def load_schemas(folder):
    schemas = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".schema.json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                schemas[name] = json.load(f)
    registry = Registry().with_resources(
        (name, Resource.from_contents(s)) for name, s in schemas.items())
    return schemas, registry


def write_outputs(accel, d, hw_dir, model):
    """Runs accel; returns [(output file, schema name)]."""
    p = lambda name: os.path.join(d, name)  # noqa: E731
    run(accel, "random", "--shape", "1,7,6,40", "--seed", "1", "--output", p("x.npy"))
    run(accel, "random", "--shape", "3,3,40,24", "--seed", "2", "--output", p("w.npy"))
    layer = ["--input", p("x.npy"), "--weights", p("w.npy"), "--pad", "1", "--scale", "0.0005"]
    run(accel, "conv2d", *layer, "--backend", "ref", "--output", p("y_ref.npy"),
        "--report", p("conv2d-ref.json"))
    run(accel, "conv2d", *layer, "--backend", "fsim", "--check", "--output", p("y_fsim.npy"),
        "--report", p("conv2d-fsim.json"))
    run(accel, "conv2d", *layer, "--backend", "verilator", "--check", "--hw",
        os.path.join(hw_dir, "tiny.yaml"), "--output", p("y_ver.npy"),
        "--report", p("conv2d-verilator.json"), "--timeline", p("timeline-conv2d.json"))
    run(accel, "plan", "--shape", "1,56,56,64", "--kernel", "3", "--out-channels", "64",
        "--pad", "1", "--json", p("plan.json"))
    run(accel, "plan", "--shape", "1,28,28,64", "--kernel", "1", "--out-channels", "128",
        "--stride", "2", "--json", p("plan-lowered.json"))
    with open(p("w.yaml"), "w", encoding="utf-8") as f:
        f.write(WORKLOAD)
    run(accel, "bench", "--workload", p("w.yaml"), "--backend", "verilator", "--check",
        "--json", p("bench-verilator.json"), "--timeline", "S1", p("timeline-bench.json"))
    run(accel, "bench", "--workload", p("w.yaml"), "--backend", "fsim", "--json",
        p("bench-fsim.json"))
    with open(p("program.bin"), "wb") as f:
        f.write(PROGRAM)
    for backend in ("fsim", "verilator"):
        run(accel, "exec", "--dram", p("program.bin"), "--insn-addr", "0", "--insn-count", "2",
            "--backend", backend, "--counters", p(f"exec-{backend}.json"))
    run(accel, "run", model, "--backend", "fsim", "--check", "--report", p("run-fsim.json"))
    run(accel, "run", model, "--backend", "ref", "--report", p("run-ref.json"))
    run(accel, "run", model, "--backend", "verilator", "--check", "--inferences", "2",
        "--report", p("run-steady.json"))
    return [(p("conv2d-ref.json"), "conv2d-report.schema.json"),
            (p("conv2d-fsim.json"), "conv2d-report.schema.json"),
            (p("conv2d-verilator.json"), "conv2d-report.schema.json"),
            (p("plan.json"), "plan.schema.json"),
            (p("plan-lowered.json"), "plan.schema.json"),
            (p("bench-verilator.json"), "bench.schema.json"),
            (p("bench-fsim.json"), "bench.schema.json"),
            (p("timeline-conv2d.json"), "timeline.schema.json"),
            (p("timeline-bench.json"), "timeline.schema.json"),
            (p("exec-fsim.json"), "exec-counters.schema.json"),
            (p("exec-verilator.json"), "exec-counters.schema.json"),
            (p("run-fsim.json"), "run-report.schema.json"),
            (p("run-ref.json"), "run-report.schema.json"),
            (p("run-steady.json"), "run-report.schema.json")]


# Keys that are there only with --check, or with --inferences N > 1 (an operator's
# "steady"): a document without them is valid.
OPTIONAL = {"bit_exact", "check", "steady"}


def objects(doc):
    """Paths to the objects a damage is tried in: the top object (a list's first item), the
    objects it holds, and the first and last objects of the lists it holds."""
    top = [0] if isinstance(doc, list) else []
    node = doc[0] if top else doc
    paths = [top]
    for key, value in node.items():
        if isinstance(value, dict):
            paths.append(top + [key])
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            paths += [top + [key, 0], top + [key, len(value) - 1]]
    return paths


def at(doc, path):
    for step in path:
        doc = doc[step]
    return doc


def damaged(doc):
    """(what, copy) pairs: each key of those objects removed, unless optional, and each
    value replaced by one of another type."""
    out = []
    for path in objects(doc):
        for key, value in at(doc, path).items():
            for what, new in (("without", None), ("mistyped", mistyped(value))):
                if (what == "without" and key in OPTIONAL) or (what == "mistyped" and new is None):
                    continue
                d = copy.deepcopy(doc)
                if new is None:
                    del at(d, path)[key]
                else:
                    at(d, path)[key] = new
                where = "/".join(str(p) for p in path + [key])
                out.append((f"{what} '{where}'", d))
    return out


def mistyped(value):
    if isinstance(value, bool):
        return "true"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return {"items": value}
    if isinstance(value, dict):
        return [value]
    return None  # null: fsim's cycles; a number is checked where the backend needs one


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--accel", required=True)
    ap.add_argument("--schemas", required=True)
    ap.add_argument("--hw-dir", required=True)
    ap.add_argument("--model", required=True)
    a = ap.parse_args()
    schemas, registry = load_schemas(a.schemas)
    checks = Checks()
    for name, schema in schemas.items():
        try:
            Draft202012Validator.check_schema(schema)
            checks.expect(True, f"{name} is a valid draft 2020-12 schema")
        except Exception as e:  # noqa: BLE001  (any error is the finding)
            checks.expect(False, f"{name}: {e}")
    with tempfile.TemporaryDirectory(prefix="accel-schemas ") as d:
        for path, name in write_outputs(a.accel, d, a.hw_dir, a.model):
            validator = Draft202012Validator(schemas[name], registry=registry)
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            errors = list(validator.iter_errors(doc))
            checks.expect(not errors, f"{os.path.basename(path)} matches {name}" +
                          (f": {errors[0].message} at {list(errors[0].path)}" if errors else ""))
            rejected = [what for what, bad in damaged(doc) if not validator.is_valid(bad)]
            missed = [what for what, bad in damaged(doc) if validator.is_valid(bad)]
            checks.expect(not missed, f"{name} rejects {os.path.basename(path)} "
                          f"{len(rejected)} ways damaged" +
                          (f"; accepts it {', '.join(missed)}" if missed else ""))
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
