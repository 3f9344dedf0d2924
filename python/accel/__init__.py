"""The int8 conv2d accelerator kit from Python (docs/python.md).

Tensors are numpy arrays of the dtypes the CLI's .npy files have: int8 activations and
weights, int32 bias and per-channel requantization. Every function runs the same C++ as
the ``accel`` CLI and reports what its ``--report``/``--json`` write, as dicts. Bad input
raises :class:`Error` (a ValueError) and a failing device :class:`DeviceError` (a
RuntimeError), with the CLI's messages, which name the CLI's options (``--pad``).
"""
import json

import numpy as np

from . import _accel
from ._accel import DeviceError, Error, HwConfig

# Shown as accel.Error, accel.HwConfig: where users import them from.
for _name in ("Error", "DeviceError", "HwConfig"):
    getattr(_accel, _name).__module__ = __name__

__version__ = _accel.__version__
__all__ = ["conv2d", "plan", "run_tflite", "HwConfig", "Error", "DeviceError",
           "shipped_configs", "verilator_configs"]

shipped_configs = _accel.shipped_configs
verilator_configs = _accel.verilator_configs


def _option_text(name, value):
    """An option as the CLI spells it: 3 -> "3", (1, 2) -> "1,2"; None stays None."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return str(int(value))
    if isinstance(value, (tuple, list)) and value and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
        return ",".join(str(int(v)) for v in value)
    raise Error(f"{name}: expected an integer or a tuple of integers, got {value!r}")


def _per_channel(name, value):
    """An int broadcast to every channel (option text), or an array of K values."""
    if value is None or (isinstance(value, (int, np.integer)) and not isinstance(value, bool)):
        return _option_text(name, value), None
    return name, np.asarray(value)


def conv2d(x, w, bias=None, *, stride=1, pad=0, dilation=1, input_zero_point=0,
           output_zero_point=0, scale=None, multiplier=None, shift=None, act_min=None,
           act_max=None, relu=False, backend="verilator", hw="default", device=None,
           check=False, trace=None, trace_window=None):
    """One TFLite-compatible int8 conv2d, as ``accel conv2d`` runs it.

    x: int8 [N,H,W,C]; w: int8 [R,S,C,K]; bias: int32 [K] (default zeros). stride,
    dilation: S or (SH, SW); pad: P, (PH, PW) or (PT, PB, PL, PR). The requantization:
    ``scale``, or ``multiplier`` and ``shift`` (each an int, or an int32 array of K).
    backend: "verilator", "fsim" or "ref"; device: a board ("uart:/dev/ttyUSB0") instead.
    hw: an HwConfig, a config name of configs/hw/ or a YAML path. check: compare with the
    golden reference (the report's "bit_exact"). trace: an FST waveform file.

    Returns (y, report): the int8 [N,OH,OW,K] output and the ``--report`` dict.
    """
    multiplier_text, multiplier_values = _per_channel("multiplier", multiplier)
    shift_text, shift_values = _per_channel("shift", shift)
    options = {
        "stride": _option_text("stride", stride), "pad": _option_text("pad", pad),
        "dilation": _option_text("dilation", dilation),
        "input_zero_point": _option_text("input_zero_point", input_zero_point),
        "output_zero_point": _option_text("output_zero_point", output_zero_point),
        "scale": None if scale is None else repr(float(scale)),
        "multiplier": multiplier_text, "shift": shift_text,
        "act_min": _option_text("act_min", act_min), "act_max": _option_text("act_max", act_max),
        "relu": bool(relu), "backend": None if device is not None else backend,
        "device": device, "trace": None if trace is None else str(trace),
        "trace_window": trace_window,
    }
    y, report = _accel.conv2d(np.asarray(x), np.asarray(w),
                              None if bias is None else np.asarray(bias), multiplier_values,
                              shift_values, options, hw, bool(check))
    return y, json.loads(report)


def plan(x=None, w=None, *, shape=None, kernel=None, out_channels=None, stride=1, pad=0,
         dilation=1, hw="default"):
    """How a conv2d layer is tiled on a hardware config, without running it.

    The layer's shape comes from arrays x [N,H,W,C] and w [R,S,C,K] (only their shapes
    are used), or from shape=(N,H,W,C), kernel=R or (R,S) and out_channels=K. Returns the
    dict ``accel plan --json`` writes.
    """
    if x is not None or w is not None:
        if x is None or w is None or shape is not None or kernel is not None \
                or out_channels is not None:
            raise Error("plan: give x and w, or shape, kernel and out_channels")
        xs, ws = np.shape(x), np.shape(w)
        if len(xs) != 4 or len(ws) != 4:
            raise Error(f"plan: x must be [N,H,W,C] and w [R,S,C,K], got {xs} and {ws}")
        if ws[2] != xs[3]:
            raise Error(f"plan: w has C = {ws[2]} but x has C = {xs[3]}")
        shape, kernel, out_channels = xs, ws[:2], ws[3]
    options = {
        "shape": _option_text("shape", None if shape is None else tuple(shape)),
        "kernel": _option_text("kernel", None if kernel is None else
                               (tuple(kernel) if np.ndim(kernel) else kernel)),
        "out_channels": _option_text("out_channels", out_channels),
        "stride": _option_text("stride", stride), "pad": _option_text("pad", pad),
        "dilation": _option_text("dilation", dilation),
    }
    return json.loads(_accel.plan(options, hw))


def run_tflite(path, inputs=None, *, backend="verilator", hw="default", seed=1, check=False,
               trace=None, trace_window=None):
    """A whole int8 TFLite model, as ``accel run`` runs it.

    inputs: one array per model input (int8, or float32 for a model that quantizes its
    own input); default: the same random draw as ``accel run --seed SEED``. check:
    compare every tensor a device operator writes with the golden reference (the
    report's "check"). Returns (outputs, report): the list of the model's outputs and
    the ``--report`` dict.
    """
    if inputs is not None and not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    options = {"backend": backend, "seed": _option_text("seed", seed),
               "trace": None if trace is None else str(trace), "trace_window": trace_window}
    outputs, report = _accel.run_tflite(
        str(path), None if inputs is None else [np.asarray(a) for a in inputs], options, hw,
        bool(check))
    return outputs, json.loads(report)
