"""Writes the golden files of the kit's host operators: per operator, a tiny int8 TFLite
model and what LiteRT's reference kernels (BUILTIN_REF, the kit's oracle) make of an input.

    op_goldens.py --output-dir tests/golden/ops [--seed S] [NAME ...]

For each NAME (default: all; see OPERATORS) it builds a TensorFlow function around the
operator, converts it with full-integer quantization (int8 input, output and operator,
calibrated on random floats from --seed), checks that the model holds the operator as an
int8 operator, runs it on random int8 inputs from --seed and writes

    NAME.tflite            the model
    NAME.input<i>.npy      its i-th input (int8)
    NAME.output<i>.npy     LiteRT's i-th output (int8)

tests/unit/test_op_goldens.cpp runs every model through the kit's golden evaluator and
compares each output bit for bit. The same command writes the same bytes: every random
draw comes from --seed and TensorFlow's ops are deterministic.
"""

import argparse
import contextlib
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")  # as generate.py: CPU-independent floats

import numpy as np

from generate import reference_interpreter  # LiteRT with BUILTIN_REF, as generate.py runs it

CALIBRATION_SAMPLES = 16
# The input of the element-wise operators of one input: every int8 value once (shuffled),
# so that their golden output is their whole table.
UNARY = (1, 8, 8, 4)


def operators(tf):
    """NAME -> (TFLite operator, input shapes, function, positive inputs only). Binary
    operators broadcast one way or another; rank-4 NHWC tensors as in an image model."""
    return {
        "sub": ("SUB", [(1, 4, 4, 3), (1, 1, 1, 3)], lambda x, y: x - y, False),
        "sub_relu": ("SUB", [(1, 4, 4, 3), (1, 4, 4, 3)], lambda x, y: tf.nn.relu(x - y), False),
        "maximum": ("MAXIMUM", [(1, 4, 4, 3), (1, 1, 4, 1)], tf.maximum, False),
        "minimum": ("MINIMUM", [(1, 4, 4, 3), (1, 4, 4, 3)], tf.minimum, False),
        "squared_difference": ("SQUARED_DIFFERENCE", [(1, 4, 4, 3), (1, 1, 1, 3)],
                               tf.math.squared_difference, False),
        "abs": ("ABS", [UNARY], lambda x: tf.abs(x) * 0.5, False),
        # Straight on the input: after another operator, the converter fuses them.
        "relu": ("RELU", [UNARY], tf.nn.relu, False),
        "relu6": ("RELU6", [UNARY], lambda x: tf.nn.relu6(x), False),
        "relu_n1_to_1": ("RELU_N1_TO_1", [UNARY],
                         lambda x: tf.minimum(tf.maximum(x, -1.0), 1.0), False),
        "exp": ("EXP", [UNARY], tf.exp, False),
        "rsqrt": ("RSQRT", [UNARY], tf.math.rsqrt, True),
        "prelu_channel": ("PRELU", [(1, 4, 4, 3)], prelu([0.1, -0.3, 0.7], tf), False),
        "prelu_single": ("PRELU", [(1, 4, 4, 3)], prelu([0.25], tf), False),
        # A dynamic batch (None: 1 in the model's shape), or the converter reshapes instead.
        "squeeze": ("SQUEEZE", [(None, 1, None, 3)], lambda x: tf.squeeze(x, axis=[1]), False),
        "expand_dims": ("EXPAND_DIMS", [(None, None, 3)], lambda x: tf.expand_dims(x, 2), False),
        "transpose": ("TRANSPOSE", [(1, 2, 4, 3)], lambda x: tf.transpose(x, [0, 3, 1, 2]), False),
        "slice": ("SLICE", [(1, 4, 5, 3)], lambda x: tf.slice(x, [0, 1, 0, 1], [1, 2, -1, 2]),
                  False),
        "split": ("SPLIT", [(1, 2, 2, 6)], lambda x: tuple(tf.split(x, 3, axis=3)), False),
        "split_v": ("SPLIT_V", [(1, 2, 6, 2)], lambda x: tuple(tf.split(x, [1, 3, 2], axis=2)),
                    False),
        "unpack": ("UNPACK", [(1, 3, 2, 4)], lambda x: tuple(tf.unstack(x, axis=1)), False),
    }


def prelu(alpha, tf):
    """Keras's PReLU, relu(x) + relu(-x) * -alpha, alpha [1, 1, C] for an NHWC input: the
    pattern the converter fuses."""
    negated = tf.constant(-np.array(alpha, np.float32).reshape(1, 1, -1))
    return lambda x: tf.nn.relu(x) + tf.nn.relu(-x) * negated


class Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def convert(tf, name, shapes, fn, positive, rng):
    specs = [tf.TensorSpec(s, tf.float32, name=f"input{i}") for i, s in enumerate(shapes)]
    module = tf.Module()
    module.f = tf.function(fn, input_signature=specs)
    concrete = module.f.get_concrete_function()
    low = 0.05 if positive else -2.0
    calibration = [[rng.uniform(low, 2.0, [d or 1 for d in s]).astype(np.float32) for s in shapes]
                   for _ in range(CALIBRATION_SAMPLES)]
    conv = tf.lite.TFLiteConverter.from_concrete_functions([concrete], module)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = lambda: iter(calibration)
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = tf.int8
    conv.inference_output_type = tf.int8
    with contextlib.redirect_stdout(sys.stderr):
        return conv.convert()


def check_operator(it, name, op_name):
    ops = it._get_ops_details()  # the only listing of operators the interpreter offers
    found = [op for op in ops if op["op_name"] == op_name]
    if not found:
        raise SystemExit(f"error: {name}: the model holds {[o['op_name'] for o in ops]}, "
                         f"no {op_name}")
    types = {t["index"]: t["dtype"] for t in it.get_tensor_details()}
    for op in found:
        data = [types[t] for t in op["inputs"]]  # SPLIT's axis comes first, in int32
        if np.int8 not in data or types[op["outputs"][0]] != np.int8:
            raise SystemExit(f"error: {name}: {op_name} is not an int8 operator")


def inputs(it, positive, rng):
    out = []
    for d in it.get_input_details():
        zero_point = d["quantization"][1]
        low = zero_point if positive else -128  # RSQRT: no value below the zero point
        if tuple(d["shape"]) == UNARY:
            every = np.resize(np.arange(low, 128), np.prod(UNARY))  # repeated when positive
            out.append(rng.permutation(every).astype(np.int8).reshape(UNARY))
        else:
            out.append(rng.integers(low, 128, d["shape"], dtype=np.int8))
    return out


def write(path, data):
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main():
    p = Parser(description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*", metavar="NAME", help="operators to write (all)")
    p.add_argument("--output-dir", required=True)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    import tensorflow as tf
    tf.get_logger().setLevel("ERROR")
    tf.random.set_seed(args.seed)
    tf.config.experimental.enable_op_determinism()
    table = operators(tf)
    unknown = [n for n in args.names if n not in table]
    if unknown:
        p.error(f"unknown operator {unknown[0]} ({', '.join(table)})")
    os.makedirs(args.output_dir, exist_ok=True)
    for name in args.names or table:
        op_name, shapes, fn, positive = table[name]
        # One stream per operator: writing one alone gives the same files.
        rng = np.random.default_rng([args.seed, list(table).index(name)])
        model = convert(tf, name, shapes, fn, positive, rng)
        it = reference_interpreter(model)
        check_operator(it, name, op_name)
        xs = inputs(it, positive, rng)
        for d, x in zip(it.get_input_details(), xs):
            it.set_tensor(d["index"], x)
        it.invoke()
        base = os.path.join(args.output_dir, name)
        write(f"{base}.tflite", model)
        for i, x in enumerate(xs):
            np.save(f"{base}.input{i}.npy", x)
        outputs = it.get_output_details()
        for i, d in enumerate(outputs):
            np.save(f"{base}.output{i}.npy", it.get_tensor(d["index"]))
        print(f"{name}: {op_name}, {len(xs)} input(s), {len(outputs)} output(s)")


if __name__ == "__main__":
    main()
