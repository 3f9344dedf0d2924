"""Writes the int8 TFLite models that the kit's whole-network tests run.

    generate.py MODEL --output PATH.tflite [--resolution N] [--seed S] [--test-set PATH.npz]

MODEL is resnet18 (built here: keras.applications has none), mobilenetv2, resnet50,
mobilenetv3_small (hard-swish, squeeze-excite: MUL, HARD_SWISH), efficientnet_b0
(swish and squeeze-excite: LOGISTIC, MUL), yolo_tiny (a small YOLO-style detector:
LeakyReLU, nearest upsampling, a concatenation and a sigmoid head, 64x64), dynamic_batch
(a small CNN with Flatten converted with the default dynamic batch: its new shape is
computed by SHAPE, STRIDED_SLICE and PACK), digits (a small CNN trained on
scikit-learn's 8x8 digits), float_io (a small random CNN with float32 input and output,
so QUANTIZE and DEQUANTIZE at its edges, and a CONCATENATION and a DEPTHWISE_CONV_2D
inside), unsupported_op (a Dense then elu: an ELU operator the kit does not support), or
one of the four MLPerf Tiny v1.x reference networks, with the layer structures of
mlcommons/tiny's training scripts: resnet8 (image classification, CIFAR-10 32x32x3, 10
classes), ds_cnn (keyword spotting, DS-CNN small on 49x10x1 MFCCs, 12 classes),
mobilenet_v1_025 (visual wake words, MobileNetV1 alpha 0.25 at 96x96x3, 2 classes) and
fc_autoencoder (anomaly detection, a 640-wide log-mel frame through a 128-128-128-128-8
bottleneck and back).
The ImageNet models, yolo_tiny and the MLPerf Tiny models have random weights and batch-norm statistics
measured on random inputs, so that activations stay in a sane range; the converter
folds batch norm into the convolutions. Every model but float_io and unsupported_op is
fully int8 (input, output and every operator); all run batch 1 (dynamic_batch's batch is
dynamic in its signature, 1 in its shape), with per-channel weights (FULLY_CONNECTED's
too).

The same command writes a byte-identical file: every random draw comes from --seed,
and TensorFlow's ops are made deterministic (checked for every model, two runs each,
and across two fresh virtual environments). Another CPU or other package versions may
still round floats differently and so give other bytes.

Prints the operator types the model holds (count per type), flags those the kit does
not run, and for digits the float and int8 test accuracies (int8 with LiteRT's
reference kernels, the kit's oracle).
"""

import argparse
import contextlib
import os
import sys
from collections import Counter

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # TF's start-up chatter is not ours
# oneDNN's kernels reorder float sums depending on the CPU; plain kernels keep the
# weights, the calibration and so the file the same wherever it is generated.
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np

IMAGENET_MODELS = ("resnet18", "mobilenetv2", "resnet50", "mobilenetv3_small", "efficientnet_b0")
MLPERF_TINY_MODELS = ("resnet8", "ds_cnn", "mobilenet_v1_025", "fc_autoencoder")
MODELS = IMAGENET_MODELS + MLPERF_TINY_MODELS + (
    "digits", "float_io", "unsupported_op", "yolo_tiny", "dynamic_batch")

# The operators the kit's model runner supports; anything else is reported.
SUPPORTED_OPS = {
    "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "MAX_POOL_2D",
    "AVERAGE_POOL_2D", "MEAN", "PAD", "RESHAPE", "SOFTMAX", "QUANTIZE", "DEQUANTIZE",
    "CONCATENATION", "SHAPE", "STRIDED_SLICE", "PACK", "LOGISTIC", "TANH", "HARD_SWISH",
    "LEAKY_RELU", "MUL", "RESIZE_NEAREST_NEIGHBOR",
}

CALIBRATION_SAMPLES = 8  # random inputs for the ImageNet models' batch norm and ranges


class Parser(argparse.ArgumentParser):
    def error(self, message):
        # One line, as every tool of the kit does, instead of argparse's usage block.
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def parse_args():
    p = Parser(description=__doc__.splitlines()[0])
    p.add_argument("model", choices=MODELS)
    p.add_argument("--output", required=True, help="the .tflite file to write")
    p.add_argument("--resolution", type=int, help="input height and width (ImageNet models; 224)")
    p.add_argument("--seed", type=int, default=0, help="seed of every random draw (0)")
    p.add_argument("--test-set", help="digits: write its int8 test set (x, labels) here as .npz")
    a = p.parse_args()
    if a.resolution is not None:
        if a.model not in IMAGENET_MODELS:
            p.error(f"--resolution applies to {', '.join(IMAGENET_MODELS)}, not {a.model}")
        if not 32 <= a.resolution <= 1024:
            p.error(f"--resolution must be in [32, 1024], got {a.resolution}")
    if a.test_set and a.model != "digits":
        p.error("--test-set applies to digits only")
    if a.seed < 0:
        p.error(f"--seed must be >= 0, got {a.seed}")
    for path in (a.output, a.test_set):
        if path and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            p.error(f"the directory of {path} does not exist")
    return a


# ---------------------------------------------------------------------------- models

def resnet18(res):
    """ResNet-18 with the classic (PyTorch) conv shapes: symmetric padding is an explicit
    ZeroPadding2D before a 'valid' conv, because TF's 'same' pads stride-2 layers
    asymmetrically (0 before, 1 after) where the classic network pads 1 on each side."""
    L = keras.layers

    def conv_bn(x, filters, kernel, stride, name, relu=True):
        pad = (kernel - 1) // 2
        padding = "valid"
        if pad > 0 and stride > 1:
            x = L.ZeroPadding2D(pad, name=f"{name}_pad")(x)
        elif pad > 0:
            padding = "same"  # stride 1: the same symmetric padding, and no PAD op
        x = L.Conv2D(filters, kernel, stride, padding=padding, use_bias=False, name=name)(x)
        x = L.BatchNormalization(name=f"{name}_bn")(x)
        return L.ReLU(name=f"{name}_relu")(x) if relu else x

    def basic_block(x, filters, stride, name):
        shortcut = x
        if stride != 1 or x.shape[-1] != filters:
            shortcut = conv_bn(x, filters, 1, stride, f"{name}_downsample", relu=False)
        y = conv_bn(x, filters, 3, stride, f"{name}_conv1")
        y = conv_bn(y, filters, 3, 1, f"{name}_conv2", relu=False)
        y = L.Add(name=f"{name}_add")([y, shortcut])
        return L.ReLU(name=f"{name}_out")(y)

    inp = keras.Input((res, res, 3), batch_size=1, name="input")
    x = conv_bn(inp, 64, 7, 2, "conv1")
    # Zero padding before the max pool is exact here: its input is >= 0 after ReLU.
    x = L.ZeroPadding2D(1, name="maxpool_pad")(x)
    x = L.MaxPooling2D(3, 2, padding="valid", name="maxpool")(x)
    for stage, filters in enumerate((64, 128, 256, 512), start=1):
        for block in range(2):
            stride = 2 if stage > 1 and block == 0 else 1
            x = basic_block(x, filters, stride, f"layer{stage}_{block}")
    x = L.GlobalAveragePooling2D(name="avgpool")(x)
    # A random bias, as a trained fc has. The applications' Dense layers keep their zero
    # bias, which the converter drops: both forms of FULLY_CONNECTED are in the set.
    x = L.Dense(1000, activation="softmax", name="fc",
                bias_initializer=keras.initializers.RandomUniform(-0.1, 0.1))(x)
    return keras.Model(inp, x, name="resnet18")


def imagenet_model(name, res):
    if name == "resnet18":
        return resnet18(res)
    inp = keras.Input((res, res, 3), batch_size=1, name="input")  # batch 1: static shapes
    if name == "mobilenetv2":
        app = keras.applications.MobileNetV2(weights=None, alpha=1.0, input_tensor=inp)
    elif name == "mobilenetv3_small":
        # The inputs are already in [-1, 1]: no Rescaling layer in front. The logits are
        # the output: LiteRT's reference SOFTMAX aborts on this random network's logits.
        app = keras.applications.MobileNetV3Small(weights=None, input_tensor=inp,
                                                  include_preprocessing=False,
                                                  classifier_activation=None)
    elif name == "efficientnet_b0":
        app = keras.applications.EfficientNetB0(weights=None, input_tensor=inp)
    else:
        app = keras.applications.ResNet50(weights=None, input_tensor=inp)
    # Re-wrapped so that the model takes one tensor, not the list that input_tensor gives.
    return keras.Model(inp, app.output, name=app.name)


def calibrate_batch_norm(model, x, rng):
    """Random scales and shifts, and moving statistics equal to each layer's input
    statistics on x: a random-weight network then keeps unit-scale activations instead
    of exploding or vanishing, like a trained one."""
    bns = [l for l in model.layers if isinstance(l, keras.layers.BatchNormalization)]
    for bn in bns:
        n = bn.gamma.shape[0]
        bn.gamma.assign(rng.uniform(0.5, 1.5, n).astype(np.float32))
        bn.beta.assign(rng.uniform(-0.25, 0.25, n).astype(np.float32))
        bn.momentum = 0.0  # one training-mode pass sets the moving statistics outright
    # Training mode normalizes every layer with its batch statistics, so the statistics a
    # layer records are those of its input as it will be at inference.
    model(x, training=True)


def digits_data(seed):
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    d = load_digits()
    x = (d.images / 16.0).astype(np.float32)[..., None]  # pixels 0..16 -> [0, 1]
    return train_test_split(x, d.target.astype(np.int32), test_size=0.25,
                            random_state=seed, stratify=d.target)


def digits_model():
    L = keras.layers
    inp = keras.Input((8, 8, 1), batch_size=1, name="input")
    x = L.Conv2D(16, 3, padding="same", activation="relu", name="conv1")(inp)
    x = L.Conv2D(32, 3, padding="same", activation="relu", name="conv2")(x)
    x = L.MaxPooling2D(2, name="maxpool")(x)                    # 4x4
    x = L.Conv2D(32, 3, padding="same", activation="relu", name="conv3")(x)
    x = L.AveragePooling2D(2, name="avgpool")(x)                # 2x2
    x = L.Flatten(name="flatten")(x)
    x = L.Dense(10, activation="softmax", name="fc")(x)
    return keras.Model(inp, x, name="digits")


def float_io_model():
    inp = keras.Input((12, 12, 3), batch_size=1, name="input")
    a = keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="conv_a")(inp)
    b = keras.layers.Conv2D(8, 1, name="conv_b")(inp)
    x = keras.layers.Concatenate(name="concat")([a, b])
    x = keras.layers.DepthwiseConv2D(3, strides=2, padding="same", activation="relu6",
                                     name="depthwise")(x)
    x = keras.layers.GlobalAveragePooling2D(name="pool")(x)
    x = keras.layers.Dense(10, name="fc")(x)
    return keras.Model(inp, x, name="float_io")


def yolo_tiny_model():
    """A YOLOv3-tiny-like detector at 64x64: conv + batch norm + LeakyReLU(0.1) blocks,
    max pools, a 1x1 conv upsampled (nearest) and concatenated with an earlier route,
    and a 1x1 head of 3 anchors x (4 box + 1 objectness + 3 classes) through a sigmoid."""
    L = keras.layers

    def block(x, filters, kernel, name):
        x = L.Conv2D(filters, kernel, padding="same", use_bias=False, name=name)(x)
        x = L.BatchNormalization(name=f"{name}_bn")(x)
        return L.LeakyReLU(negative_slope=0.1, name=f"{name}_leaky")(x)

    inp = keras.Input((64, 64, 3), batch_size=1, name="input")
    x = block(inp, 16, 3, "conv1")
    x = L.MaxPooling2D(2, name="pool1")(x)                      # 32x32
    x = block(x, 32, 3, "conv2")
    x = L.MaxPooling2D(2, name="pool2")(x)                      # 16x16
    route = block(x, 64, 3, "conv3")
    x = L.MaxPooling2D(2, name="pool3")(route)                  # 8x8
    x = block(x, 128, 3, "conv4")
    x = block(x, 32, 1, "conv5")
    # Resizing, not UpSampling2D: Keras 3 upsamples by repeating (TILE and RESHAPE).
    x = L.Resizing(16, 16, interpolation="nearest", name="upsample")(x)  # 16x16
    x = L.Concatenate(name="concat")([x, route])
    x = block(x, 64, 3, "conv6")
    x = L.Conv2D(3 * (5 + 3), 1, name="head")(x)
    x = L.Activation("sigmoid", name="sigmoid")(x)
    return keras.Model(inp, x, name="yolo_tiny")


def dynamic_batch_model():
    """No batch size: the converter keeps the batch dynamic (shape_signature -1), so
    Flatten computes its new shape in the graph from the input's."""
    L = keras.layers
    inp = keras.Input((8, 8, 1), name="input")
    x = L.Conv2D(8, 3, padding="same", activation="relu", name="conv")(inp)
    x = L.Flatten(name="flatten")(x)
    x = L.Dense(10, activation="softmax", name="fc")(x)
    return keras.Model(inp, x, name="dynamic_batch")


def unsupported_op_model():
    inp = keras.Input((16,), batch_size=1, name="input")
    x = keras.layers.Dense(16, name="fc")(inp)
    x = keras.layers.Activation("elu", name="elu")(x)  # ELU is outside the kit's ops
    return keras.Model(inp, x, name="unsupported_op")


# The MLPerf Tiny reference networks. Their training scripts' L2 regularizers and
# he_normal initializers only shape training, so they are left out; Dropout is kept,
# although the converter drops it, so that the layer lists read like the references'.

def resnet8_model():
    """ResNet-8 (MLPerf Tiny image classification): a 16-channel 3x3 stem, then three
    residual stacks of 16, 32 and 64 channels (two 3x3 convs each; the second and third
    stacks stride 2 with a 1x1 stride-2 conv, without batch norm, on the shortcut), an
    8x8 average pool and a 10-way softmax. TF's 'same' padding, as the reference has."""
    L = keras.layers

    def conv_bn(x, filters, kernel, stride, name, relu=True):
        x = L.Conv2D(filters, kernel, stride, padding="same", name=name)(x)
        x = L.BatchNormalization(name=f"{name}_bn")(x)
        return L.ReLU(name=f"{name}_relu")(x) if relu else x

    inp = keras.Input((32, 32, 3), batch_size=1, name="input")
    x = conv_bn(inp, 16, 3, 1, "conv1")
    for stack, filters in enumerate((16, 32, 64), start=1):
        stride = 1 if stack == 1 else 2
        y = conv_bn(x, filters, 3, stride, f"stack{stack}_conv1")
        y = conv_bn(y, filters, 3, 1, f"stack{stack}_conv2", relu=False)
        if stride != 1:
            x = L.Conv2D(filters, 1, stride, padding="same", name=f"stack{stack}_shortcut")(x)
        x = L.Add(name=f"stack{stack}_add")([x, y])
        x = L.ReLU(name=f"stack{stack}_out")(x)
    x = L.AveragePooling2D(8, name="avgpool")(x)
    x = L.Flatten(name="flatten")(x)
    x = L.Dense(10, activation="softmax", name="fc")(x)
    return keras.Model(inp, x, name="resnet8")


def ds_cnn_model():
    """DS-CNN small (MLPerf Tiny keyword spotting): a 10x4 stride-2 conv to 64 channels
    on the 49x10 MFCCs (25x5 out), four depthwise-separable blocks (3x3 depthwise, 1x1
    to 64, batch norm and ReLU after each), a 24x5 average pool and a 12-way softmax."""
    L = keras.layers
    inp = keras.Input((49, 10, 1), batch_size=1, name="input")
    x = L.Conv2D(64, (10, 4), strides=(2, 2), padding="same", name="conv1")(inp)
    x = L.BatchNormalization(name="conv1_bn")(x)
    x = L.ReLU(name="conv1_relu")(x)
    x = L.Dropout(0.2, name="dropout1")(x)
    for i in range(1, 5):
        x = L.DepthwiseConv2D(3, padding="same", name=f"dw{i}")(x)
        x = L.BatchNormalization(name=f"dw{i}_bn")(x)
        x = L.ReLU(name=f"dw{i}_relu")(x)
        x = L.Conv2D(64, 1, padding="same", name=f"pw{i}")(x)
        x = L.BatchNormalization(name=f"pw{i}_bn")(x)
        x = L.ReLU(name=f"pw{i}_relu")(x)
    x = L.Dropout(0.4, name="dropout2")(x)
    x = L.AveragePooling2D((24, 5), name="avgpool")(x)  # the reference's (49 // 2, 10 // 2)
    x = L.Flatten(name="flatten")(x)
    x = L.Dense(12, activation="softmax", name="fc")(x)
    return keras.Model(inp, x, name="ds_cnn")


def mobilenet_v1_025_model():
    """MobileNetV1 alpha 0.25 (MLPerf Tiny visual wake words) at 96x96: an 8-channel 3x3
    stride-2 stem, thirteen depthwise-separable blocks (3x3 depthwise, 1x1 pointwise,
    batch norm and ReLU after each) to 256 channels at 3x3, a 3x3 average pool and a
    2-way softmax."""
    L = keras.layers

    def bn_relu(x, name):
        x = L.BatchNormalization(name=f"{name}_bn")(x)
        return L.ReLU(name=f"{name}_relu")(x)

    inp = keras.Input((96, 96, 3), batch_size=1, name="input")
    x = bn_relu(L.Conv2D(8, 3, strides=2, padding="same", name="conv1")(inp), "conv1")
    blocks = [(16, 1), (32, 2), (32, 1), (64, 2), (64, 1), (128, 2)] + [(128, 1)] * 5 + [
        (256, 2), (256, 1)]
    for i, (filters, stride) in enumerate(blocks, start=2):
        x = bn_relu(L.DepthwiseConv2D(3, strides=stride, padding="same", name=f"dw{i}")(x),
                    f"dw{i}")
        x = bn_relu(L.Conv2D(filters, 1, padding="same", name=f"pw{i}")(x), f"pw{i}")
    x = L.AveragePooling2D(x.shape[1:3], name="avgpool")(x)
    x = L.Flatten(name="flatten")(x)
    x = L.Dense(2, activation="softmax", name="fc")(x)
    return keras.Model(inp, x, name="mobilenet_v1_025")


def fc_autoencoder_model():
    """The MLPerf Tiny anomaly-detection autoencoder: 640 -> 128 x4 -> 8 -> 128 x4 -> 640,
    each hidden Dense followed by batch norm and ReLU, the output Dense linear."""
    L = keras.layers
    inp = keras.Input((640,), batch_size=1, name="input")
    x = inp
    for i, units in enumerate((128, 128, 128, 128, 8, 128, 128, 128, 128), start=1):
        x = L.Dense(units, name=f"fc{i}")(x)
        x = L.BatchNormalization(name=f"fc{i}_bn")(x)
        x = L.ReLU(name=f"fc{i}_relu")(x)
    x = L.Dense(640, name="fc10")(x)
    return keras.Model(inp, x, name="fc_autoencoder")


MLPERF_TINY_BUILDERS = {"resnet8": resnet8_model, "ds_cnn": ds_cnn_model,
                        "mobilenet_v1_025": mobilenet_v1_025_model,
                        "fc_autoencoder": fc_autoencoder_model}


# ------------------------------------------------------------------------ conversion

def convert_int8(model, representative, io_type="int8"):
    """Full-integer quantization: int8 operators, per-channel weights, and int8 input
    and output (or float32 ones, which the converter quantizes and dequantizes)."""
    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = lambda: ([x[None]] for x in representative)
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    io = tf.int8 if io_type == "int8" else tf.float32
    conv.inference_input_type = io
    conv.inference_output_type = io
    with contextlib.redirect_stdout(sys.stderr):  # Keras's export talks on stdout
        return conv.convert()


def reference_interpreter(model_bytes, resolver="BUILTIN_REF"):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    it = Interpreter(model_content=model_bytes,
                     experimental_op_resolver_type=getattr(OpResolverType, resolver))
    it.allocate_tensors()
    return it


def report_operators(it):
    """Prints the count per operator type; returns the unsupported ones' descriptions."""
    ops = it._get_ops_details()  # the only listing of operators the interpreter offers
    tensors = {t["index"]: t["name"] for t in it.get_tensor_details()}
    counts = Counter(op["op_name"] for op in ops)
    print("operators: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    # The input's name tells the layer when the output is the model's, named by TF only.
    return [f"{op['op_name']} (operator {op['index']}, input '{tensors[op['inputs'][0]]}', "
            f"output '{tensors[op['outputs'][0]]}')"
            for op in ops if op["op_name"] not in SUPPORTED_OPS]


def quantize(x, detail):
    scale, zero_point = detail["quantization"]
    info = np.iinfo(detail["dtype"])
    v = x / scale
    q = np.sign(v) * np.floor(np.abs(v) + 0.5) + zero_point  # TFLite rounds half away from 0
    return np.clip(q, info.min, info.max).astype(detail["dtype"])


def int8_accuracy(it, x, labels):
    inp, out = it.get_input_details()[0], it.get_output_details()[0]
    hits = 0
    for xi, label in zip(quantize(x, inp), labels):
        it.set_tensor(inp["index"], xi[None])
        it.invoke()
        hits += int(np.argmax(it.get_tensor(out["index"])[0]) == label)
    return hits / len(labels)


def write_atomically(path, data):
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)  # a killed run leaves no half-written model behind


def main():
    args = parse_args()

    global tf, keras  # imported only now, so that a bad argument fails in no time
    import tensorflow as tf
    import keras
    tf.get_logger().setLevel("ERROR")
    keras.utils.set_random_seed(args.seed)          # python, numpy and TF seeds
    tf.config.experimental.enable_op_determinism()  # same seed, same bytes
    rng = np.random.default_rng(args.seed)

    if args.model in IMAGENET_MODELS:
        res = args.resolution or 224
        model = imagenet_model(args.model, res)
        # Uniform [-1, 1]: the range MobileNetV2's preprocessing gives.
        calib = rng.uniform(-1, 1, (CALIBRATION_SAMPLES, res, res, 3)).astype(np.float32)
        calibrate_batch_norm(model, calib, rng)
        representative = rng.uniform(-1, 1, (CALIBRATION_SAMPLES, res, res, 3)).astype(np.float32)
    elif args.model in MLPERF_TINY_MODELS:
        model = MLPERF_TINY_BUILDERS[args.model]()
        shape = (CALIBRATION_SAMPLES,) + tuple(model.input.shape[1:])
        calibrate_batch_norm(model, rng.uniform(-1, 1, shape).astype(np.float32), rng)
        representative = rng.uniform(-1, 1, shape).astype(np.float32)
    elif args.model == "digits":
        x_train, x_test, y_train, y_test = digits_data(args.seed)
        model = digits_model()
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"])
        model.fit(x_train, y_train, epochs=30, batch_size=32, verbose=0)
        _, float_acc = model.evaluate(x_test, y_test, verbose=0)
        representative = x_train[:200]  # real images give the real activation ranges
    elif args.model == "yolo_tiny":
        model = yolo_tiny_model()
        calib = rng.uniform(-1, 1, (CALIBRATION_SAMPLES, 64, 64, 3)).astype(np.float32)
        calibrate_batch_norm(model, calib, rng)
        representative = rng.uniform(-1, 1, (CALIBRATION_SAMPLES, 64, 64, 3)).astype(np.float32)
    elif args.model == "dynamic_batch":
        model = dynamic_batch_model()
        representative = rng.uniform(-1, 1, (CALIBRATION_SAMPLES, 8, 8, 1)).astype(np.float32)
    elif args.model == "float_io":
        model = float_io_model()
        representative = rng.uniform(-1, 1, (CALIBRATION_SAMPLES, 12, 12, 3)).astype(np.float32)
    else:
        model = unsupported_op_model()
        representative = rng.uniform(-1, 1, (CALIBRATION_SAMPLES, 16)).astype(np.float32)

    tflite = convert_int8(model, representative,
                          "float32" if args.model == "float_io" else "int8")
    write_atomically(args.output, tflite)
    print(f"wrote {args.output} ({len(tflite)} bytes)")

    # unsupported_op's ELU has no reference kernel, and nothing of that model is compared
    # with LiteRT: its operators are listed through the builtin kernels instead.
    it = reference_interpreter(tflite, "BUILTIN_WITHOUT_DEFAULT_DELEGATES"
                               if args.model == "unsupported_op"
                               else "BUILTIN_REF")
    for kind, d in (("input", it.get_input_details()[0]), ("output", it.get_output_details()[0])):
        scale, zp = d["quantization"]
        print(f"{kind}: {d['dtype'].__name__} {d['shape'].tolist()} scale {scale:.6g} zero_point {zp}")
    unsupported = report_operators(it)
    for u in unsupported:
        print(f"unsupported by the kit: {u}")

    if args.model == "digits":
        print(f"float test accuracy: {float_acc:.4f} ({len(y_test)} images)")
        print(f"int8 test accuracy (LiteRT reference kernels): "
              f"{int8_accuracy(it, x_test, y_test):.4f}")
        if args.test_set:
            x_q = quantize(x_test, it.get_input_details()[0])
            tmp = f"{args.test_set}.tmp.npz"
            np.savez(tmp, x=x_q, labels=y_test)  # stored, not deflated: easy to read from C++
            os.replace(tmp, args.test_set)
            print(f"wrote {args.test_set} (x {x_q.dtype} {list(x_q.shape)}, labels int32)")


if __name__ == "__main__":
    main()
