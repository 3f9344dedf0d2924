"""Runs a TFLite model in LiteRT's interpreter: the oracle for the kit's `accel run`.

    litert_run.py MODEL.tflite --output-dir DIR [--input X.npy ...] [--seed S]
                  [--all-tensors] [--match ref|opt|xnnpack]

--match picks LiteRT's kernels, as `accel run --match` picks the rounding to reproduce:
ref (the default) the reference kernels (BUILTIN_REF), whose integer arithmetic is the
plainest statement of TFLite's int8 semantics; opt the builtin optimized kernels without
any delegate (BUILTIN_WITHOUT_DEFAULT_DELEGATES); xnnpack the default interpreter
(optimized kernels with the XNNPACK delegate; --default-interpreter says the same).
Each rounds differently (docs/semantics.md, "Matching a runtime"). With --all-tensors
as well, XNNPACK still runs, one delegated operator at a time, so its intermediate
tensors are kept and comparable.

Writes every model output as DIR/output_<i>.npy. With --all-tensors it also writes every
tensor that an operator produces as DIR/tensor_<index>.npy (index: the tensor's index
in the subgraph) and DIR/tensors.json mapping each index to its name, shape, dtype,
scale, zero_point and produced_by_operator_index. Without --input (one per model input,
in order) the inputs are reproducible random draws from --seed.
"""

import argparse
import json
import os
import sys
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# LiteRT warns that preserving all tensors is for debugging: that is the point here.
warnings.filterwarnings("ignore", message=".*experimental_preserve_all_tensors")

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType


# accel run --match's names for LiteRT's op resolvers.
RESOLVERS = {"ref": OpResolverType.BUILTIN_REF,
             "opt": OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
             "xnnpack": OpResolverType.AUTO}


class Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def parse_args():
    p = Parser(description=__doc__.splitlines()[0])
    p.add_argument("model", help="the .tflite model")
    p.add_argument("--input", action="append", default=[], metavar="X.npy",
                   help="a model input (repeat for each input, in order)")
    p.add_argument("--output-dir", required=True, help="where the .npy files go (created)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (0)")
    p.add_argument("--all-tensors", action="store_true",
                   help="also write every tensor an operator produces, and tensors.json")
    p.add_argument("--match", choices=sorted(RESOLVERS), default="ref",
                   help="LiteRT's kernels: ref, opt or xnnpack (default ref)")
    p.add_argument("--default-interpreter", action="store_const", dest="match",
                   const="xnnpack", help="the same as --match xnnpack")
    return p.parse_args()


def make_interpreter(args):
    if not os.path.isfile(args.model):
        fail(f"no such model file: {args.model}")
    resolver = RESOLVERS[args.match]
    try:
        it = Interpreter(model_path=args.model, experimental_op_resolver_type=resolver,
                         experimental_preserve_all_tensors=args.all_tensors)
        it.allocate_tensors()
    except (ValueError, RuntimeError) as e:
        fail(f"{args.model}: {str(e).strip().splitlines()[0]}")
    return it


def random_input(detail, rng):
    shape, dtype = detail["shape"], detail["dtype"]
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    return rng.uniform(-1, 1, shape).astype(dtype)


def load_inputs(it, args):
    details = it.get_input_details()
    if not args.input:
        rng = np.random.default_rng(args.seed)
        return [random_input(d, rng) for d in details]
    if len(args.input) != len(details):
        fail(f"the model has {len(details)} inputs, {len(args.input)} --input given")
    inputs = []
    for path, d in zip(args.input, details):
        try:
            x = np.load(path)
        except (OSError, ValueError) as e:
            fail(f"cannot read {path}: {e}")
        if x.dtype != d["dtype"] or list(x.shape) != d["shape"].tolist():
            fail(f"{path} is {x.dtype} {list(x.shape)}; the model input '{d['name']}' "
                 f"wants {np.dtype(d['dtype'])} {d['shape'].tolist()}")
        inputs.append(x)
    return inputs


def tensor_entry(detail, op_index):
    q = detail["quantization_parameters"]
    scales, zero_points = q["scales"].tolist(), q["zero_points"].tolist()
    # One number for per-tensor quantization, a list for per-channel.
    return {
        "name": detail["name"],
        "shape": detail["shape"].tolist(),
        "dtype": np.dtype(detail["dtype"]).name,
        "scale": scales[0] if len(scales) == 1 else scales,
        "zero_point": zero_points[0] if len(zero_points) == 1 else zero_points,
        "produced_by_operator_index": op_index,
    }


def main():
    args = parse_args()
    it = make_interpreter(args)
    inputs = load_inputs(it, args)
    os.makedirs(args.output_dir, exist_ok=True)

    for x, d in zip(inputs, it.get_input_details()):
        it.set_tensor(d["index"], x)
    it.invoke()

    outputs = it.get_output_details()
    for i, d in enumerate(outputs):
        np.save(os.path.join(args.output_dir, f"output_{i}.npy"), it.get_tensor(d["index"]))
    written = len(outputs)

    if args.all_tensors:
        details = {d["index"]: d for d in it.get_tensor_details()}
        table = {}
        # _get_ops_details is LiteRT's only listing of operators with their tensors.
        for op in it._get_ops_details():
            # XNNPACK's nodes come after the model's operators and repeat their outputs.
            if op["op_name"] == "DELEGATE":
                continue
            for t in op["outputs"]:
                t = int(t)
                if t < 0:  # an optional output the operator does not produce
                    continue
                np.save(os.path.join(args.output_dir, f"tensor_{t}.npy"), it.get_tensor(t))
                table[str(t)] = tensor_entry(details[t], int(op["index"]))
        with open(os.path.join(args.output_dir, "tensors.json"), "w") as f:
            json.dump(table, f, indent=1)
        written += len(table)

    print(f"ran {args.model} with LiteRT's {args.match} kernels; wrote {written} arrays to "
          f"{args.output_dir}")


if __name__ == "__main__":
    main()
