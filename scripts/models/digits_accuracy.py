"""The digits CNN's int8 test accuracy on the accelerator and in TFLite.

    digits_accuracy.py MODEL.tflite TEST.npz --accel BUILD/sw/accel --backend fsim|verilator

Runs every test image through `accel run` and through LiteRT's reference kernels,
prints both accuracies and how many predictions and output elements differ, and exits
1 unless every output is bit-exact (then the accuracies are equal too).
"""

import argparse
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("test_set")
    p.add_argument("--accel", required=True)
    p.add_argument("--backend", required=True, choices=["ref", "fsim", "verilator"])
    args = p.parse_args()

    data = np.load(args.test_set)
    xs, labels = data["x"], data["labels"]
    it = Interpreter(model_path=args.model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    inp, out = it.get_input_details()[0], it.get_output_details()[0]

    right_accel = right_litert = differing_outputs = differing_predictions = 0
    with tempfile.TemporaryDirectory() as work:
        x_path, y_path = os.path.join(work, "x.npy"), os.path.join(work, "y.npy")
        for x, label in zip(xs, labels):
            x = x[np.newaxis]
            it.set_tensor(inp["index"], x)
            it.invoke()
            want = it.get_tensor(out["index"])
            np.save(x_path, x)
            run = subprocess.run([args.accel, "run", args.model, "--backend", args.backend,
                                  "--input", x_path, "--output", y_path],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                sys.stderr.write(run.stderr)
                print(f"accel run exited {run.returncode}")
                return 1
            got = np.load(y_path)
            differing_outputs += int(np.count_nonzero(got != want))
            differing_predictions += int(np.argmax(got) != np.argmax(want))
            right_accel += int(np.argmax(got) == label)
            right_litert += int(np.argmax(want) == label)
    n = len(labels)
    print(f"digits, {n} test images: accuracy on the accelerator ({args.backend}) "
          f"{right_accel / n:.4f}, in TFLite (reference kernels) {right_litert / n:.4f}; "
          f"{differing_predictions} predictions and {differing_outputs} output elements differ")
    return 0 if differing_outputs == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
