"""The int8 conv2d accelerator kit from Python (docs/python.md).

Tensors are numpy arrays of the dtypes the CLI's .npy files have: int8 activations and
weights, int32 bias and per-channel requantization. Every function calls the C++
runtime's typed API directly and returns what the matching command's --report/--json
would hold, as dicts. Bad input raises :class:`Error` (a ValueError) naming the argument,
a failing device :class:`DeviceError` (a RuntimeError), and ``check=True`` that finds
the device unlike the golden reference :class:`CheckError` (a RuntimeError).
"""
import numpy as np

from . import _accel
from ._accel import DeviceError, Error, HwConfig

# Shown as accel.Error, accel.HwConfig: where users import them from.
for _name in ("Error", "DeviceError", "HwConfig"):
    getattr(_accel, _name).__module__ = __name__

__version__ = _accel.__version__
__all__ = ["conv2d", "plan", "run_tflite", "explore", "HwConfig", "Error", "DeviceError", "CheckError",
           "shipped_configs", "verilator_configs"]

shipped_configs = _accel.shipped_configs
verilator_configs = _accel.verilator_configs


class CheckError(RuntimeError):
    """check=True found the device unlike the golden reference (where ``accel conv2d
    --check`` and ``accel run --check`` exit 1): neither bad input nor a device that
    stopped. ``report`` is the run's report dict and, for conv2d, ``y`` its output."""

    def __init__(self, message, report, y=None):
        super().__init__(message)
        self.report = report
        self.y = y


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _ints(name, value, counts):
    """An int, or a tuple of `counts` ints, as a tuple of ints (each an int32: the library
    checks the range that matters)."""
    if _is_int(value):
        values = (int(value),)
    elif isinstance(value, (tuple, list)) and len(value) in counts and all(map(_is_int, value)):
        values = tuple(int(v) for v in value)
    else:
        wanted = " or ".join(str(n) for n in counts)
        raise Error(f"{name}: expected an integer or a tuple of {wanted} integers, "
                    f"got {value!r}")
    for v in values:
        if not -2**31 <= v < 2**31:
            raise Error(f"{name}: {v} does not fit an int32")
    return values


def _pair(name, value):
    """S or (SH, SW): (SH, SW)."""
    v = _ints(name, value, (2,))
    return v * 2 if len(v) == 1 else v


def _pad(value):
    """P, (PH, PW) or (PT, PB, PL, PR): (PT, PB, PL, PR)."""
    v = _ints("pad", value, (2, 4))
    if len(v) == 1:
        return v * 4
    return (v[0], v[0], v[1], v[1]) if len(v) == 2 else v


def _int(name, value):
    """An int32 (the library checks the range that matters)."""
    if not _is_int(value):
        raise Error(f"{name}: expected an integer, got {value!r}")
    return _ints(name, value, (1,))[0]


def _float(name, value):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise Error(f"{name}: expected a number, got {value!r}") from None


def _trace_window(value):
    """(FROM, TO) cycles, or the CLI's "FROM:TO"."""
    if value is None:
        return None
    if isinstance(value, str):
        parts = value.split(":")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise Error(f"trace_window: expected (FROM, TO) or 'FROM:TO' in cycles, "
                        f"got {value!r}")
        return int(parts[0]), int(parts[1])
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(map(_is_int, value)) \
            and all(0 <= int(v) < 2**64 for v in value):
        return int(value[0]), int(value[1])
    raise Error(f"trace_window: expected (FROM, TO) or 'FROM:TO' in cycles, got {value!r}")


def _geometry(stride, pad, dilation):
    return {"stride": _pair("stride", stride), "pad": _pad(pad),
            "dilation": _pair("dilation", dilation)}


def _run(backend, device, check, trace, trace_window):
    """The run options: a board (device=) takes the place of the backend."""
    return {"backend": str(backend), "device": None if device is None else str(device),
            "check": bool(check), "trace": None if trace is None else str(trace),
            "trace_window": _trace_window(trace_window)}


def _per_channel(name, value):
    """An int32 for every channel, or an array of K int32 values."""
    return _int(name, value) if _is_int(value) else np.asarray(value)


def conv2d(x, w, bias=None, *, stride=1, pad=0, dilation=1, input_zero_point=0,
           output_zero_point=0, scale=None, multiplier=None, shift=None, act_min=None,
           act_max=None, relu=False, backend="verilator", hw="default", device=None,
           check=False, trace=None, trace_window=None):
    """One TFLite-compatible int8 conv2d, on the backend of your choice.

    x: int8 [N,H,W,C]; w: int8 [R,S,C,K]; bias: int32 [K] (default zeros). stride,
    dilation: S or (SH, SW); pad: P, (PH, PW) or (PT, PB, PL, PR). The requantization:
    ``scale``, or ``multiplier`` and ``shift`` (each an int, or an int32 array of K).
    backend: "verilator" (the default), "fsim" or "ref"; device: a board
    ("uart:/dev/ttyUSB0", "zynq:/dev/uio0,/dev/udmabuf0") instead. hw: an HwConfig, a
    config name of configs/hw/ or a YAML path. check: compare with the golden reference;
    outputs that differ raise CheckError (its ``y`` and ``report`` are the run's).
    trace: an FST waveform file (verilator), trace_window: its cycles (FROM, TO).

    Returns (y, report): the int8 [N,OH,OW,K] output and the ``accel conv2d --report``
    dict.
    """
    x, w = np.asarray(x), np.asarray(w)
    if scale is not None and (multiplier is not None or shift is not None):
        raise Error("scale: give either scale or multiplier with shift, not both")
    if scale is None and (multiplier is None or shift is None):
        raise Error("multiplier/shift: the requantization needs scale, or both multiplier "
                    "and shift")
    output_zero_point = _int("output_zero_point", output_zero_point)
    if relu and act_min is not None:
        raise Error("relu: sets act_min to the output zero point; do not also give act_min")
    layer = {**_geometry(stride, pad, dilation),
             "input_zero_point": _int("input_zero_point", input_zero_point),
             "output_zero_point": output_zero_point,
             "act_min": output_zero_point if relu else
             (-128 if act_min is None else _int("act_min", act_min)),
             "act_max": 127 if act_max is None else _int("act_max", act_max),
             "scale": None if scale is None else _float("scale", scale),
             "multiplier": None if multiplier is None else _per_channel("multiplier",
                                                                        multiplier),
             "shift": None if shift is None else _per_channel("shift", shift)}
    y, report, failure = _accel.conv2d(x, w, None if bias is None else np.asarray(bias), layer,
                                       _run(backend, device, check, trace, trace_window), hw)
    if failure is not None:
        raise CheckError(failure, report, y)
    return y, report


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
    if shape is None or kernel is None or out_channels is None:
        raise Error("plan: give x and w, or shape, kernel and out_channels")
    if _is_int(shape) or len(shape) != 4 or not all(map(_is_int, shape)):
        raise Error(f"shape: expected (N, H, W, C), got {shape!r}")
    options = {**_geometry(stride, pad, dilation), "shape": _ints("shape", tuple(shape), (4,)),
               "kernel": _pair("kernel", tuple(kernel) if np.ndim(kernel) else kernel),
               "out_channels": _int("out_channels", out_channels)}
    return _accel.plan(options, hw)


def run_tflite(path, inputs=None, *, backend="verilator", hw="default", seed=1, check=False,
               trace=None, trace_window=None, inferences=1, device=None, match="ref"):
    """A whole int8 TFLite model, as ``accel run`` runs it.

    inputs: one array per model input (int8, or float32 for a model that quantizes its
    own input); default: the same random draw as ``accel run --seed SEED``. check:
    compare every tensor a device operator writes with the golden reference; the first
    unlike it raises CheckError (its ``report`` is the run's). inferences: run the model
    that many times on one device, as ``accel run --inferences N``: the weights that fit
    stay in the weight buffer, and the report has the last inference as its
    ``steady_state``. device: a board instead of the backend, as ``accel run --device``
    ("uart:/dev/ttyUSB0"). match: the LiteRT kernels to be bit-exact with, as ``accel run
    --match``: "ref" (the reference kernels) or "opt" (the optimized ones). Returns
    (outputs, report): the list of the model's outputs (of the last inference) and the
    ``accel run --report`` dict.
    """
    if inputs is not None and not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    if not _is_int(seed) or not 0 <= int(seed) < 2**63:
        raise Error(f"seed: expected an integer in [0, 2^63-1], got {seed!r}")
    if not _is_int(inferences) or not 1 <= int(inferences) < 2**63:  # the library bounds it
        raise Error(f"inferences: expected an integer in [1, 2^63-1], got {inferences!r}")
    if not isinstance(match, str):  # the library checks the name
        raise Error(f"match: expected one of 'ref', 'opt', got {match!r}")
    arrays = None if inputs is None else [np.asarray(a) for a in inputs]
    outputs, report, failure = _accel.run_tflite(
        str(path), arrays, int(seed), int(inferences), match,
        _run(backend, device, check, trace, trace_window), hw)
    if failure is not None:
        raise CheckError(failure, report)
    return outputs, report


def explore(space, *, model=None, suite=None, out, budget=(), engine="local", jobs=0, chunk=0,
            synth=0, route=0, confirm=0, synth_cells=0, area="fpga", cache=None, accel=None):
    """A design-space sweep, as ``accel explore`` runs it (docs/explore.md).

    space: the SPACE.yaml path; model (a .tflite path) or suite (a workload suite's
    name); out: the directory of the results and of the jobs' files (run again to
    resume). budget: a string or strings ("ulx3s-85f", "sram=512KiB"). engine: "local"
    (GNU parallel) or "slurm". synth, route, confirm: how many points to synthesize,
    place and route, and run on the RTL. synth_cells: how many points to count the cells
    of (Yosys' generic synth); area: the front's area axis, "fpga" or "cells". accel:
    the accel executable the jobs run (default: the one built with this package). Returns the dict of OUT/points.json,
    with "log" the sweep's progress lines.
    """
    if (model is None) == (suite is None):
        raise Error("explore: give one of model= and suite=")
    budgets = [budget] if isinstance(budget, str) else list(budget)
    for name, value in (("jobs", jobs), ("chunk", chunk), ("synth", synth), ("route", route),
                        ("confirm", confirm), ("synth_cells", synth_cells)):
        if not _is_int(value) or value < 0:
            raise Error(f"{name}: expected a non-negative integer, got {value!r}")
    return _accel.explore(str(space), "" if model is None else str(model),
                          "" if suite is None else str(suite), str(out), budgets, str(engine),
                          int(jobs), int(chunk), int(synth), int(route), int(confirm),
                          int(synth_cells), str(area),
                          "" if cache is None else str(cache), "" if accel is None else str(accel))
