"""Small random int8 networks over the operators the kit runs (docs/networks.md), built
with Keras and converted to int8 by TensorFlow's TFLite converter: the inputs of the
network soak (network_soak.py).

    random_network.py SEED --output NET.tflite     (prints the network's layers)

A seed makes the network: its input shape, its layers and their options, its weights and
its calibration data: batch 1 (2 in about one in seven), 3-24 x 3-24 pixels of 1-32
channels, then one to five blocks drawn from convolutions (1-40 channels, kernels 1-5,
strides 1-3, dilations 1-2, SAME or VALID, no activation, ReLU or ReLU6 fused), depthwise
convolutions (multiplier 1 or 2, strides 1-2, dilations 1-2), max and average pools
(windows 2-3, strides 1-3), zero padding before a VALID convolution (a PAD the kit folds),
residual ADDs (an activation fused or not) and concatenations along the channels, and a
head: nothing, a global average (MEAN, keeping the dimensions or not) or a flatten
(RESHAPE) then FULLY_CONNECTED, or a FULLY_CONNECTED over every pixel's channels; then
perhaps SOFTMAX.
"""

import contextlib
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")  # the same file wherever it is made

import numpy as np

from generate import write_atomically
from litert_run import Parser

CALIBRATION_SAMPLES = 8


def _activation(rng):
    return rng.choice([None, "relu", "relu6"])


def _window(rng, x, kernel, dilation=1):
    """A padding for a window of `kernel` taps over x: VALID only when it fits."""
    reach = (kernel - 1) * dilation + 1
    fits = reach <= min(x.shape[1], x.shape[2])
    return "valid" if fits and rng.random() < 0.5 else "same"


def _init(rng):
    return keras.initializers.RandomNormal(stddev=0.3, seed=int(rng.integers(1 << 30)))


def _conv(rng, x, name, channels=None, stride=None):
    kernel = int(rng.integers(1, 6))
    stride = int(rng.integers(1, 4)) if stride is None else stride
    dilation = int(rng.choice([1, 2])) if stride == 1 and kernel > 1 else 1
    return keras.layers.Conv2D(
        int(rng.integers(1, 41)) if channels is None else channels, kernel, strides=stride,
        dilation_rate=dilation, padding=_window(rng, x, kernel, dilation),
        activation=_activation(rng), bias_initializer=_init(rng), name=name)(x)


def _depthwise(rng, x, name):
    kernel = int(rng.integers(1, 6))
    stride = int(rng.integers(1, 3))
    dilation = int(rng.choice([1, 2])) if stride == 1 and kernel > 1 else 1
    return keras.layers.DepthwiseConv2D(
        kernel, strides=stride, dilation_rate=dilation,
        depth_multiplier=int(rng.choice([1, 1, 2])), padding=_window(rng, x, kernel, dilation),
        activation=_activation(rng), bias_initializer=_init(rng), name=name)(x)


def _pool(rng, x, name):
    # Not 1x1: after a strided 1x1 AVERAGE_POOL_2D the converter quantizes the next
    # convolution's output with a scale that changes from run to run (0.005, then 1e28),
    # so the network would not replay from its seed.
    size = int(rng.integers(2, 4))
    layer = keras.layers.MaxPooling2D if rng.random() < 0.5 else keras.layers.AveragePooling2D
    return layer(size, strides=int(rng.integers(1, 4)), padding=_window(rng, x, size),
                 name=name)(x)


def _pad(rng, x, name):
    pads = ((int(rng.integers(0, 3)), int(rng.integers(0, 3))),
            (int(rng.integers(0, 3)), int(rng.integers(0, 3))))
    x = keras.layers.ZeroPadding2D(pads, name=name)(x)
    return keras.layers.Conv2D(int(rng.integers(1, 25)), 3 if min(x.shape[1:3]) >= 3 else 1,
                               padding="valid", bias_initializer=_init(rng),
                               name=name + "_conv")(x)


def _residual(rng, x, name):
    kernel = int(rng.integers(1, 6))
    branch = keras.layers.Conv2D(  # SAME and stride 1: the sum's two shapes agree
        x.shape[3], kernel, padding="same", dilation_rate=int(rng.choice([1, 2])),
        activation=_activation(rng), bias_initializer=_init(rng), name=name + "_branch")(x)
    y = keras.layers.Add(name=name)([x, branch])
    act = _activation(rng)
    return keras.layers.Activation(act, name=name + "_act")(y) if act else y


def _concatenation(rng, x, name):
    a = keras.layers.Conv2D(int(rng.integers(1, 17)), 1, activation=_activation(rng),
                            name=name + "_a")(x)
    b = keras.layers.Conv2D(int(rng.integers(1, 17)), 3, padding="same",
                            activation=_activation(rng), name=name + "_b")(x)
    parts = [a, b, x] if rng.random() < 0.3 else [a, b]
    return keras.layers.Concatenate(name=name)(parts)


BLOCKS = {"conv": _conv, "depthwise": _depthwise, "pool": _pool, "pad": _pad,
          "residual": _residual, "concatenation": _concatenation}


def _head(rng, x):
    head = rng.choice(["none", "mean", "flatten", "pixels"])
    if head == "none":
        return x
    if head == "mean":  # MEAN, perhaps keeping the dimensions for a RESHAPE
        keep = bool(rng.random() < 0.3)
        x = keras.layers.GlobalAveragePooling2D(keepdims=keep, name="mean")(x)
        if keep:
            x = keras.layers.Flatten(name="flatten")(x)
    elif head == "flatten":
        x = keras.layers.Flatten(name="flatten")(x)
    # "pixels": the Dense over the channels of every pixel of the 4-D activation
    x = keras.layers.Dense(int(rng.integers(2, 17)), activation=_activation(rng),
                           bias_initializer=_init(rng), name="fc")(x)
    if rng.random() < 0.3:
        x = keras.layers.Softmax(name="softmax")(x)
    return x


def draw_network(rng, seed):
    """A Keras model drawn from `rng` and the names of its blocks."""
    batch = 2 if rng.random() < 0.15 else 1
    shape = (int(rng.integers(3, 25)), int(rng.integers(3, 25)), int(rng.integers(1, 33)))
    inp = keras.Input(shape, batch_size=batch, name="input")
    x = inp
    blocks = [str(b) for b in rng.choice(list(BLOCKS), size=int(rng.integers(1, 6)))]
    for i, block in enumerate(blocks):
        x = BLOCKS[block](rng, x, f"{block}{i}")
    x = _head(rng, x)
    return keras.Model(inp, x, name=f"net{seed}"), blocks


def lively(model, samples):
    """Whether every layer's output varies over the calibration samples: the converter
    gives a constant one (a ReLU that never fires) a scale the kit and LiteRT may refuse
    (7.8e-9 before a SOFTMAX)."""
    probe = keras.Model(model.inputs, [layer.output for layer in model.layers[1:]])
    per_sample = [[np.asarray(t) for t in keras.tree.flatten(probe(s))] for s in samples]
    return all(np.ptp(np.stack(layer)) > 0 for layer in zip(*per_sample))


def convert(model, samples):
    """The model, fully int8 (int8 input and output), calibrated on `samples`."""
    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = lambda: ([s] for s in samples)
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = tf.int8
    conv.inference_output_type = tf.int8
    with quiet():
        return conv.convert()


@contextlib.contextmanager
def quiet():
    """Keras's export and the converter talk on stdout and stderr, from Python and C++
    alike: silenced at the file descriptors."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        os.dup2(null.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)


def import_tensorflow():
    """Imported only when a network is made, so that bad arguments fail in no time."""
    global tf, keras
    import tensorflow as tf
    import keras
    tf.get_logger().setLevel("ERROR")
    tf.config.experimental.enable_op_determinism()


def network(seed):
    """(the .tflite bytes of `seed`'s network, a one-line description of it): the first
    network drawn from the seed whose every layer varies over its calibration samples."""
    keras.utils.set_random_seed(seed)
    rng = np.random.default_rng(seed)
    while True:
        model, blocks = draw_network(rng, seed)
        shape = tuple(model.inputs[0].shape)
        samples = rng.uniform(-1, 1, (CALIBRATION_SAMPLES,) + shape).astype(np.float32)
        if lively(model, samples):
            return (convert(model, samples),
                    f"{'x'.join(str(d) for d in shape)}: {', '.join(blocks)}")


def main():
    p = Parser(description=__doc__.splitlines()[0])
    p.add_argument("seed", type=int)
    p.add_argument("--output", required=True)
    args = p.parse_args()
    if args.seed < 0:
        p.error(f"the seed must be at least 0, got {args.seed}")
    if not os.path.isdir(os.path.dirname(os.path.abspath(args.output))):
        p.error(f"the directory of {args.output} does not exist")
    import_tensorflow()
    data, what = network(args.seed)
    write_atomically(args.output, data)
    print(f"seed {args.seed}: {what}; wrote {args.output} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
