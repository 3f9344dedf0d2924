"""The network soak (docs/reliability.md, "Network soak"): random int8 networks
(random_network.py) run by `accel run` on each backend and by LiteRT's reference
interpreter (BUILTIN_REF), compared bit for bit.

    network_soak.py --accel BUILD/sw/accel [--networks N] [--seed S]
                    [--backends ref,fsim,verilator] [--hw HW.yaml] [--faults] [--save DIR]

Network i is made from seed S + i, so `--seed X --networks 1` replays the network of
seed X. LiteRT runs it first, in a process of its own (litert_run.py: it aborts on some
networks it refuses). Then, on each backend, `accel run` (with --check on a device)
either runs the network, its output and every tensor it wrote equal to LiteRT's, or
refuses it: exit 2 with one `error:` line, counted apart with its reason. Anything else
-- a difference, exit 0 on a network LiteRT refuses, another exit code, a crash, no end
within 600 s -- is a failure, printed with the seed; with --save, the network and its
input are kept in DIR as net_SEED.tflite and net_SEED.npy.

With --faults, the RTL runs each network under a DRAM fault plan (`accel run --faults`)
drawn from its seed as the layer soak draws its own: backpressure, stalls and reordering
each half the time, which must leave it equal to LiteRT, and an error response in a
quarter of the networks, which may instead end it with exit 3 and one line naming the
operator, the unit and the response, nothing written (a "device error").

Prints one line per network refused or failed on some backend, then the counts per
backend. Exits 1 on any failure, and when a backend ran no network equal to LiteRT (a
soak that compared nothing proves nothing).
"""

import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

warnings.filterwarnings("ignore")

import numpy as np
from ai_edge_litert.interpreter import Interpreter

import random_network
from litert_run import Parser

HERE = os.path.dirname(os.path.abspath(__file__))


def litert_tensors(path, x_path, work):
    """LiteRT's reference run of the network (litert_run.py, in its own process: LiteRT
    aborts on some networks it refuses): {'output' or tensor index: array} of its output
    and every tensor an operator wrote, or None when it refuses the network."""
    out = os.path.join(work, "litert")
    shutil.rmtree(out, ignore_errors=True)
    run = subprocess.run([sys.executable, os.path.join(HERE, "litert_run.py"), path,
                          "--input", x_path, "--output-dir", out, "--all-tensors"],
                         capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        return None
    return {"output": np.load(os.path.join(out, "output_0.npy")),
            **{int(n[len("tensor_"):-len(".npy")]): np.load(os.path.join(out, n))
               for n in os.listdir(out) if n.startswith("tensor_")}}


def operator_types(path):
    """The network's operator types, in order."""
    it = Interpreter(model_path=path)
    return [op["op_name"] for op in it._get_ops_details()]


def differences(dump, y_path, want):
    """The tensors accel wrote unlike LiteRT's: 'tensor T: N of M differ' each."""
    got = {"output": np.load(y_path)}
    for name in os.listdir(dump):
        got[int(re.fullmatch(r"tensor_(\d+)\.npy", name).group(1))] = np.load(
            os.path.join(dump, name))
    bad = []
    for t, g in got.items():
        w = want.get(t)
        if w is None:
            bad.append(f"tensor {t}: LiteRT wrote no such tensor")
        elif g.shape != w.shape or g.dtype != w.dtype:
            bad.append(f"tensor {t}: {g.dtype} {list(g.shape)}, LiteRT {w.dtype} {list(w.shape)}")
        elif not np.array_equal(g, w):
            bad.append(f"tensor {t}: {np.count_nonzero(g != w)} of {g.size} differ")
    return bad


def fault_plan(seed):
    """The --faults SPEC of network `seed`'s RTL run, drawn as tests/common/fault_run.cpp
    draws the layer soak's plans."""
    rng = np.random.default_rng([seed, 30])  # apart from the network's own draws
    spec = [f"seed={seed}"]
    if rng.random() < 0.5:
        spec.append(f"backpressure={rng.integers(1, 6) / 10}")
    if rng.random() < 0.5:
        spec.append(f"stall={rng.integers(1, 20) / 1000}")
    if rng.random() < 0.5:
        spec.append(f"reorder={rng.integers(2, 10) / 10}")
    if rng.random() < 0.25:
        spec.append(f"{rng.choice(['slverr', 'decerr'])}={rng.choice(['read', 'write'])}:"
                    f"{rng.integers(1, 200)}")
    return ",".join(spec)


DEVICE_ERROR = re.compile(r"error: device failure: operator \d+ \([A-Z_0-9]+\): verilator:\w+: "
                          r"(fetch|load|drain) unit: DRAM answered (SLVERR|DECERR) on a "
                          r"(read|write) at 0x[0-9a-f]{8}")


def run_accel(args, backend, path, x_path, work, want, faults):
    """('equal' | 'refused' | 'device error' | 'failed', what)."""
    dump, y = os.path.join(work, "tensors"), os.path.join(work, "y.npy")
    shutil.rmtree(dump, ignore_errors=True)
    os.makedirs(dump)
    if os.path.exists(y):
        os.remove(y)
    cmd = [args.accel, "run", path, "--backend", backend, "--input", x_path, "--output", y,
           "--dump-tensors", dump] + (["--check"] if backend != "ref" else [])
    if args.hw:
        cmd += ["--hw", args.hw]
    if faults:
        cmd += ["--faults", faults]
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "failed", "no end within 600 s"
    lines = run.stderr.splitlines()
    if run.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "):
        return "refused", lines[0][len("error: "):].replace(path + ": ", "")
    error_fault = "err=" in faults  # slverr= or decerr=
    if (run.returncode == 3 and error_fault and len(lines) == 1 and not run.stdout
            and DEVICE_ERROR.match(lines[0]) and not os.path.exists(y) and not os.listdir(dump)):
        return "device error", lines[0][len("error: device failure: "):][:160]
    if run.returncode != 0:
        return "failed", f"exit {run.returncode}: {run.stderr.strip()[:400]!r}"
    if want is None:
        return "failed", "exit 0 on a network LiteRT refuses"
    bad = differences(dump, y, want)
    if bad:
        return "failed", "; ".join(bad[:4])
    return "equal", ""


def parse_args():
    p = Parser(description=__doc__.splitlines()[0])
    p.add_argument("--accel", required=True, help="the accel binary")
    p.add_argument("--networks", type=int, default=300)
    p.add_argument("--seed", type=int, default=1, help="the first network's seed (1)")
    p.add_argument("--backends", default="ref,fsim,verilator")
    p.add_argument("--hw", help="hardware config YAML for accel")
    p.add_argument("--faults", action="store_true",
                   help="run the RTL under a DRAM fault plan drawn from each network's seed")
    p.add_argument("--save", help="directory for the networks that fail")
    args = p.parse_args()
    if args.networks < 1:
        p.error("--networks must be at least 1")
    if args.seed < 0:
        p.error("--seed must be at least 0")
    if not (os.path.isfile(args.accel) and os.access(args.accel, os.X_OK)):
        p.error(f"--accel {args.accel}: not an executable file")
    args.backends = args.backends.split(",")
    for b in args.backends:
        if b not in ("ref", "fsim", "verilator"):
            p.error(f"--backends: unknown backend {b!r}")
    return args


def print_counts(args, counts, reasons, ops, litert_refused, flat, seconds):
    print(f"{args.networks} networks (seeds {args.seed}..{args.seed + args.networks - 1}), "
          f"{litert_refused} refused by LiteRT, {sum(ops.values())} operators: "
          + ", ".join(f"{k} {v}" for k, v in sorted(ops.items())))
    print(f"{'backend':<10} {'networks':>8} {'equal':>6} {'refused':>8} {'device error':>13} "
          f"{'failed':>7}")
    for b in args.backends:
        c = counts[b]
        print(f"{b:<10} {args.networks:>8} {c['equal']:>6} {c['refused']:>8} "
              f"{c['device error']:>13} {c['failed']:>7}")
    for reason, n in reasons.most_common():
        print(f"refused in {n} runs: {reason}")
    print(f"networks whose output takes fewer than 3 values (their other tensors are compared "
          f"all the same): {flat}; {seconds:.0f} s")


def main():
    args = parse_args()
    random_network.import_tensorflow()
    counts = {b: collections.Counter() for b in args.backends}
    reasons, ops = collections.Counter(), collections.Counter()
    flat = litert_refused = 0
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        path, x_path = os.path.join(work, "net.tflite"), os.path.join(work, "x.npy")
        for seed in range(args.seed, args.seed + args.networks):
            data, what = random_network.network(seed)
            with open(path, "wb") as f:
                f.write(data)
            ops.update(operator_types(path))
            np.save(x_path, np.random.default_rng(seed).integers(-128, 128, Interpreter(
                model_path=path).get_input_details()[0]["shape"], dtype=np.int8))
            want = litert_tensors(path, x_path, work)
            litert_refused += want is None
            flat += want is not None and len(np.unique(want["output"])) < 3
            faults = fault_plan(seed) if args.faults else ""
            verdicts = {b: run_accel(args, b, path, x_path, work, want,
                                     faults if b == "verilator" else "")
                        for b in args.backends}
            for b, (v, why) in verdicts.items():
                counts[b][v] += 1
                if v == "refused":
                    reasons[why] += 1
            if any(v in ("refused", "failed") for v, _ in verdicts.values()):
                print(f"seed {seed} ({what}{', faults ' + faults if faults else ''}): " + "; ".join(
                    f"{b} {v}" + (f" ({why})" if why else "") for b, (v, why) in verdicts.items()),
                    flush=True)
            if args.save and any(v == "failed" for v, _ in verdicts.values()):
                os.makedirs(args.save, exist_ok=True)
                shutil.copy(path, os.path.join(args.save, f"net_{seed}.tflite"))
                shutil.copy(x_path, os.path.join(args.save, f"net_{seed}.npy"))
    print_counts(args, counts, reasons, ops, litert_refused, flat, time.monotonic() - start)
    failed = any(c["failed"] for c in counts.values())
    compared_nothing = [b for b in args.backends if counts[b]["equal"] == 0]
    if compared_nothing:
        print(f"no network ran equal to LiteRT on {', '.join(compared_nothing)}")
    return 1 if failed or compared_nothing else 0


if __name__ == "__main__":
    sys.exit(main())
