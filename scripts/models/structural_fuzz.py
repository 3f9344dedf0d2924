"""The structural fuzzer (docs/reliability.md, "Model validation"): random field edits
of a valid model, each run by `accel run` and by LiteRT's reference interpreter.

    structural_fuzz.py MODEL.tflite --accel BUILD/sw/accel [--backends ref,fsim]
                       [--mutants N] [--seed S] [--save DIR]

Each mutant takes one or two edits of MODEL's fields: a dimension of a shape, a
dimension more or fewer, the options of an operator (strides, dilations, windows,
padding, axes, keep_num_dims, activations), a scale or zero point, a quantized dimension,
an int32 constant's value (a shape, a bias), an operand or output of an operator, the
operator order, the graph's output, a tensor's type. On each backend `accel run` must
not crash; it may exit 0 only when LiteRT accepts the mutant, with the same output bit
for bit; otherwise it must exit 2 with one `error:` line. LiteRT runs in a child process:
it crashes on some mutants, which then count as refused by LiteRT.

Prints the counts and one line per failure; a failing mutant is saved in DIR (default:
none kept). Exits 1 on any failure.
"""

import argparse
import copy
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
warnings.filterwarnings("ignore")

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter, OpResolverType

from mutate_model import load_model, model_bytes

OPTION_FIELDS = ("strideW", "strideH", "dilationWFactor", "dilationHFactor", "filterWidth",
                 "filterHeight", "padding", "fusedActivationFunction", "depthMultiplier",
                 "beta", "axis")
SIZES = [0, 1, 2, 3, 4, 5, 7, 8, 16, 32, 127, 128, 1000]


def _tensor_shape(rng, g):
    t = g.tensors[rng.randrange(len(g.tensors))]
    if t.shape is not None and len(t.shape):
        s = list(t.shape)
        s[rng.randrange(len(s))] = rng.choice(SIZES)
        t.shape = np.array(s, np.int32)


def _tensor_rank(rng, g):
    t = g.tensors[rng.randrange(len(g.tensors))]
    s = [] if t.shape is None else list(t.shape)
    if s and rng.random() < 0.5:
        s.pop()
    else:
        s.insert(0, rng.choice([1, 2]))
    t.shape = np.array(s, np.int32)


def _options(rng, g):
    o = g.operators[rng.randrange(len(g.operators))].builtinOptions
    for field in OPTION_FIELDS:
        if o is not None and hasattr(o, field) and rng.random() < 0.4:
            setattr(o, field, rng.choice([0, 1, 2, 3, 5, 127]))
    if o is not None and hasattr(o, "keepNumDims"):
        o.keepNumDims = not o.keepNumDims


def _quantization(rng, g):
    q = g.tensors[rng.randrange(len(g.tensors))].quantization
    if q is None or q.scale is None:
        return
    if rng.random() < 0.4:
        q.scale = np.array([rng.choice([1e-6, 0.001, 0.5, 1.0, 1 / 256, 300.0])] * len(q.scale),
                           np.float32)
    elif rng.random() < 0.7:
        q.zeroPoint = np.array([rng.choice([-128, -1, 0, 5, 127])] * len(q.zeroPoint), np.int64)
    else:
        q.quantizedDimension = rng.choice([0, 1, 3])


def _constant(rng, g, model):
    t = g.tensors[rng.randrange(len(g.tensors))]
    b = model.buffers[t.buffer] if t.buffer < len(model.buffers) else None
    if t.type == schema.TensorType.INT32 and b is not None and b.data is not None and len(b.data) >= 4:
        values = np.frombuffer(bytes(bytearray(b.data)), np.int32).copy()
        values[rng.randrange(len(values))] = rng.choice([-1, 0, 1, 2, 64, 128, 1 << 30])
        b.data = np.frombuffer(values.tobytes(), np.uint8)


def _operand(rng, g):
    op = g.operators[rng.randrange(len(g.operators))]
    i = rng.randrange(len(op.inputs) + 1)
    if i < len(op.inputs):
        op.inputs[i] = rng.randrange(len(g.tensors))
    else:
        op.outputs = np.array([rng.randrange(len(g.tensors))], np.int32)


def _order(rng, g):
    i, j = rng.randrange(len(g.operators)), rng.randrange(len(g.operators))
    g.operators[i], g.operators[j] = g.operators[j], g.operators[i]


def _graph_output(rng, g):
    g.outputs = np.array([rng.randrange(len(g.tensors))], np.int32)


def _type(rng, g):
    g.tensors[rng.randrange(len(g.tensors))].type = rng.choice(
        [schema.TensorType.INT8, schema.TensorType.INT32, schema.TensorType.UINT8])


EDITS = [_tensor_shape, _tensor_shape, _tensor_rank, _options, _quantization, _constant,
         _operand, _order, _graph_output, _type]


def mutant(base, rng):
    model = copy.deepcopy(base)
    for _ in range(rng.choice([1, 2])):
        edit = rng.choice(EDITS)
        edit(rng, model.subgraphs[0], *([model] if edit is _constant else []))
    return model


def _litert_child(path, x, results):
    try:
        it = Interpreter(model_path=path, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
        it.allocate_tensors()
        inputs = it.get_input_details()
        if len(inputs) != 1 or list(inputs[0]["shape"]) != list(x.shape) or inputs[0]["dtype"] != x.dtype:
            results.put(None)  # not the input accel run is given
            return
        it.set_tensor(inputs[0]["index"], x)
        it.invoke()
        results.put([it.get_tensor(o["index"]) for o in it.get_output_details()])
    except Exception:  # LiteRT refuses the model
        results.put(None)


def litert_outputs(path, x):
    """(the mutant's outputs in LiteRT or None when LiteRT refuses it, whether LiteRT
    crashed on it)."""
    results = multiprocessing.Queue()
    child = multiprocessing.Process(target=_litert_child, args=(path, x, results))
    child.start()
    child.join(120)
    if child.exitcode != 0:
        child.kill()
        return None, True
    return results.get(), False


def verdict(accel, backend, path, x_path, y_path, want):
    """'equal', 'refused', or a failure's description."""
    if os.path.exists(y_path):
        os.remove(y_path)
    try:
        run = subprocess.run([accel, "run", path, "--backend", backend, "--input", x_path,
                              "--output", y_path], capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "no end within 600 s"
    if run.returncode == 2 and run.stderr.count("\n") == 1 and run.stderr.startswith("error: "):
        return "refused"
    if run.returncode != 0:
        return f"exit {run.returncode}: {run.stderr.strip()[:300]!r}"
    if want is None:
        return "exit 0 on a model LiteRT refuses"
    y = np.load(y_path)
    if len(want) != 1 or want[0].shape != y.shape or not np.array_equal(want[0], y):
        return f"exit 0 with an output unlike LiteRT's ({y.shape} vs {[w.shape for w in want]})"
    return "equal"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("--accel", required=True)
    p.add_argument("--backends", default="ref,fsim")
    p.add_argument("--mutants", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--save", help="directory for the mutants that fail")
    args = p.parse_args()
    multiprocessing.set_start_method("fork")
    base = load_model(args.model)
    rng = random.Random(args.seed)
    g = base.subgraphs[0]
    x_desc = g.tensors[g.inputs[0]]  # the one input accel run --input feeds
    draw = np.random.default_rng(args.seed)
    if x_desc.type == schema.TensorType.FLOAT32:
        x = draw.uniform(-1, 1, list(x_desc.shape)).astype(np.float32)
    else:
        x = draw.integers(-128, 128, list(x_desc.shape), dtype=np.int8)
    counts = {"refused": 0, "equal": 0, "failed": 0, "litert refused": 0, "litert crashed": 0}
    with tempfile.TemporaryDirectory() as work:
        x_path, path, y_path = (os.path.join(work, n) for n in ("x.npy", "m.tflite", "y.npy"))
        np.save(x_path, x)
        for i in range(args.mutants):
            with open(path, "wb") as f:
                f.write(model_bytes(mutant(base, rng)))
            want, crashed = litert_outputs(path, x)
            counts["litert refused"] += want is None
            counts["litert crashed"] += crashed
            for backend in args.backends.split(","):
                v = verdict(args.accel, backend, path, x_path, y_path, want)
                counts[v if v in counts else "failed"] += 1
                if v not in counts:
                    print(f"FAIL mutant {i} on {backend}: {v}")
                    if args.save:
                        os.makedirs(args.save, exist_ok=True)
                        with open(path, "rb") as src, open(
                                os.path.join(args.save, f"mutant_{args.seed}_{i}.tflite"), "wb") as dst:
                            dst.write(src.read())
    runs = args.mutants * len(args.backends.split(","))
    print(f"{args.mutants} mutants ({counts['litert refused']} refused by LiteRT, "
          f"{counts['litert crashed']} of them by crashing), {runs} runs: "
          f"{counts['refused']} refused, {counts['equal']} accepted and equal to LiteRT, "
          f"{counts['failed']} failed")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
