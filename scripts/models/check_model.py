"""Checks `accel run` on a model against TFLite itself: LiteRT's reference kernels.

    check_model.py MODEL.tflite --accel BUILD/sw/accel (--backend fsim|verilator|ref | --device SPEC)
                   [--seed S] [--hw HW.yaml] [--match ref|opt|xnnpack]

Draws a reproducible random input (int8, or float32 for a model that quantizes its own), runs the model in LiteRT's interpreter with
its reference kernels (OpResolverType.BUILTIN_REF; with --match, the kernels it names, as
litert_run.py does, and `accel run --match` the same), then `accel run` with --check (every
tensor a device operator writes against the kit's golden reference) and compares, bit
for bit, the model's outputs and the logits each SOFTMAX reads (with random weights the
softmax output is nearly flat, so the logits are the stronger check). Prints one line
per comparison and 'N passed, M failed'; exits 1 on any mismatch.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
warnings.filterwarnings("ignore", message=".*experimental_preserve_all_tensors")

import numpy as np
from ai_edge_litert.interpreter import Interpreter

from litert_run import RESOLVERS


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("--accel", required=True, help="the accel binary")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--backend", choices=["ref", "fsim", "verilator"])
    where.add_argument("--device", help="a board (accel run --device), e.g. uart:/dev/ttyUSB0")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--hw", help="hardware config YAML for accel")
    p.add_argument("--match", choices=sorted(RESOLVERS), default="ref",
                   help="the LiteRT kernels, and accel run --match (default ref)")
    p.add_argument("--inferences", type=int, default=1,
                   help="run the model N times on one device (accel run --inferences): every "
                        "inference checked, the last one's output compared")
    return p.parse_args()


def litert_reference(model, x, match):
    it = Interpreter(model_path=model, experimental_op_resolver_type=RESOLVERS[match],
                     experimental_preserve_all_tensors=True)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    outputs = [it.get_tensor(d["index"]) for d in it.get_output_details()]
    logits = {}
    for op in it._get_ops_details():
        if op["op_name"] == "SOFTMAX":
            t = int(op["inputs"][0])
            logits[t] = it.get_tensor(t)
    return outputs, logits


def compare(what, got, want):
    if got.shape != want.shape or got.dtype != want.dtype:
        print(f"FAIL {what}: accel {got.dtype} {list(got.shape)}, "
              f"LiteRT {want.dtype} {list(want.shape)}")
        return False
    bad = int(np.count_nonzero(got != want))
    diff = float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))) if got.size else 0
    print(f"{'ok  ' if bad == 0 else 'FAIL'} {what}: {got.size} elements, {bad} differ"
          + (f" (max {diff})" if bad else ""))
    return bad == 0


def main():
    args = parse_args()
    it = Interpreter(model_path=args.model)
    detail = it.get_input_details()[0]
    rng = np.random.default_rng(args.seed)
    if detail["dtype"] == np.float32:  # a model that quantizes its input itself
        x = rng.uniform(-1, 1, detail["shape"]).astype(np.float32)
    else:
        x = rng.integers(-128, 127, detail["shape"], dtype=np.int8, endpoint=True)
    outputs, logits = litert_reference(args.model, x, args.match)

    with tempfile.TemporaryDirectory() as work:
        np.save(os.path.join(work, "x.npy"), x)
        dump = os.path.join(work, "tensors")
        os.mkdir(dump)
        where = ["--device", args.device] if args.device else ["--backend", args.backend]
        cmd = [args.accel, "run", args.model, *where,
               "--input", os.path.join(work, "x.npy"), "--output", os.path.join(work, "y.npy"),
               "--dump-tensors", dump, "--match", args.match]
        if args.backend != "ref":
            cmd.append("--check")
        if args.hw:
            cmd += ["--hw", args.hw]
        if args.inferences != 1:
            cmd += ["--inferences", str(args.inferences)]
        run = subprocess.run(cmd, capture_output=True, text=True)
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr)
        if run.returncode != 0:
            print(f"accel run exited {run.returncode}")
            print("0 passed, 1 failed")
            return 1
        results = [compare("output 0", np.load(os.path.join(work, "y.npy")), outputs[0])]
        for t, want in sorted(logits.items()):
            path = os.path.join(dump, f"tensor_{t}.npy")
            if not os.path.exists(path):
                print(f"FAIL logits (tensor {t}): accel wrote no such tensor")
                results.append(False)
                continue
            results.append(compare(f"logits (tensor {t})", np.load(path), want))
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
