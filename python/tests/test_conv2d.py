"""accel.conv2d against `accel conv2d`: the same output and report for the same tensors
on every backend, and errors that name the argument."""
import json
import subprocess
import sys

import numpy as np
import pytest

import accel
from conftest import CONFIGS, without_timings


def layer_tensors(rng, c=16, k=8):
    x = rng.integers(-128, 128, size=(1, 9, 9, c), dtype=np.int8)
    w = rng.integers(-128, 128, size=(3, 3, c, k), dtype=np.int8)
    bias = rng.integers(-2000, 2000, size=(k,), dtype=np.int32)
    return x, w, bias


def cli_conv2d(cli, tmp_path, x, w, bias, *options):
    """`accel conv2d` on the same tensors: its output and its --report."""
    for name, array in (("x", x), ("w", w), ("bias", bias)):
        np.save(tmp_path / f"{name}.npy", array)
    cli.ok("conv2d", "--input", tmp_path / "x.npy", "--weights", tmp_path / "w.npy",
           "--bias", tmp_path / "bias.npy", "--output", tmp_path / "y.npy",
           "--report", tmp_path / "report.json", *options)
    return np.load(tmp_path / "y.npy"), json.loads((tmp_path / "report.json").read_text())


@pytest.mark.parametrize("backend", ["ref", "fsim", "verilator"])
def test_conv2d_matches_cli(cli, tmp_path, rng, backend):
    x, w, bias = layer_tensors(rng)
    y, report = accel.conv2d(x, w, bias, stride=(1, 2), pad=1, scale=0.0004, relu=True,
                             backend=backend)
    want_y, want_report = cli_conv2d(cli, tmp_path, x, w, bias, "--stride", "1,2", "--pad", "1",
                                     "--scale", "0.0004", "--relu", "--backend", backend)
    assert y.dtype == np.int8 and y.shape == (1, 9, 5, 8)
    np.testing.assert_array_equal(y, want_y)
    assert len(np.unique(y)) > 20  # the requantization spreads the outputs: not all clipped
    assert without_timings(report) == without_timings(want_report)
    assert report["backend"] == backend


def test_conv2d_check_and_tiny_config(cli, tmp_path, rng):
    x, w, bias = layer_tensors(rng, c=8, k=4)
    y, report = accel.conv2d(x, w, bias, pad=(1, 0), multiplier=1 << 30, shift=-9,
                             backend="verilator", hw="tiny", check=True)
    want_y, want_report = cli_conv2d(cli, tmp_path, x, w, bias, "--pad", "1,0",
                                     "--multiplier", str(1 << 30), "--shift", "-9",
                                     "--hw", CONFIGS / "tiny.yaml", "--check")
    np.testing.assert_array_equal(y, want_y)
    assert report["bit_exact"] is True and report["hw"] == "tiny"
    assert without_timings(report) == without_timings(want_report)


def test_per_channel_requantization(cli, tmp_path, rng):
    x, w, bias = layer_tensors(rng, k=4)
    multiplier = np.array([1 << 30, 1 << 29, 3 << 28, 1 << 30], dtype=np.int32)
    shift = np.array([-9, -8, -9, -10], dtype=np.int32)
    y, _ = accel.conv2d(x, w, bias, multiplier=multiplier, shift=shift, input_zero_point=3,
                        output_zero_point=-5, backend="fsim")
    np.save(tmp_path / "m.npy", multiplier)
    np.save(tmp_path / "s.npy", shift)
    want_y, _ = cli_conv2d(cli, tmp_path, x, w, bias, "--multiplier", tmp_path / "m.npy",
                           "--shift", tmp_path / "s.npy", "--input-zero-point", "3",
                           "--output-zero-point", "-5", "--backend", "fsim")
    np.testing.assert_array_equal(y, want_y)


# Bad arguments raise accel.Error naming the argument (the Python one, or the layer's
# field the library checks), before anything runs.
@pytest.mark.parametrize("options, message", [
    ({"pad": (1, 2, 3)}, "pad: expected an integer or a tuple of 2 or 4 integers, got (1, 2, 3)"),
    ({"stride": 0}, "stride 0,0: each must be in [1, 65536]"),
    ({"backend": "gpu"}, "backend 'gpu': expected 'verilator', 'fsim' or 'ref' (a board is "
                         "device=)"),
    ({"backend": "ref", "check": True}, "check: compares a device with the golden reference; "
                                        "the 'ref' backend is the reference"),
    ({"act_min": 10, "act_max": 5}, "act min 10 > act max 5: the range is empty"),
    ({"relu": True, "act_min": 0}, "relu: sets act_min to the output zero point; do not also "
                                   "give act_min"),
    ({"input_zero_point": 200}, "input zero point 200: must be in [-128, 127]"),
    ({"shift": 3}, "multiplier/shift: the requantization needs scale, or both multiplier and "
                   "shift"),
    ({"trace": "t.fst", "backend": "fsim"}, "trace: only the verilator backend writes "
                                            "waveforms"),
    ({"trace_window": "1:2"}, "trace_window: limits a trace; give trace= too"),
    ({"trace_window": (9, 5), "trace": "t.fst"}, "trace_window: (9, 5) is empty; FROM must "
                                                 "be below TO"),
    ({"trace_window": "9-5", "trace": "t.fst"}, "trace_window: expected (FROM, TO) or "
                                                "'FROM:TO' in cycles, got '9-5'"),
    ({"device": "usb:0"}, "device usb:0: unknown; expected uart:PATH[@BAUD] (a board's "
                          "UART bridge over a serial port) or zynq:UIO,UDMABUF (the "
                          "accelerator in a Zynq's PL: /dev/uioN and /dev/udmabufN)"),
    ({"stride": (1, 1 << 40)}, "stride: 1099511627776 does not fit an int32"),
])
def test_errors_name_the_argument(rng, options, message):
    x, w, bias = layer_tensors(rng)
    options = {"scale": 0.001, **options}
    if "shift" in options:
        del options["scale"]
    with pytest.raises(accel.Error) as raised:
        accel.conv2d(x, w, bias, **options)
    assert str(raised.value) == message


def test_tensor_errors_name_the_arguments(rng):
    x, w, bias = layer_tensors(rng)
    with pytest.raises(accel.Error, match=r"^x: dtype int64, expected int8$"):
        accel.conv2d(x.astype(np.int64), w, scale=0.001)
    with pytest.raises(accel.Error, match=r"^w: weights have C = 16 but input x has C = 8$"):
        accel.conv2d(x[..., :8], w, scale=0.001)
    with pytest.raises(accel.Error, match=r"^bias: must have shape \(K,\) = \(8,\), "
                                          r"got \(3,\)$"):
        accel.conv2d(x, w, bias[:3], scale=0.001)
    with pytest.raises(accel.Error, match=r"^x: input must have a non-empty shape"):
        accel.conv2d(x[0], w, scale=0.001)


def test_exceptions_are_python_kinds():
    assert issubclass(accel.Error, ValueError)
    assert issubclass(accel.DeviceError, RuntimeError)
    assert not issubclass(accel.DeviceError, accel.Error)
    # A check that finds the device unlike the golden reference: neither bad input nor a
    # device that stopped (tests/unit/test_layer_run.cpp makes one).
    assert issubclass(accel.CheckError, RuntimeError)
    assert not issubclass(accel.CheckError, (accel.Error, accel.DeviceError))


@pytest.mark.parametrize("scale", ["nan", "inf"])
def test_non_finite_scales_are_refused(rng, scale):
    x, w, bias = layer_tensors(rng)
    with pytest.raises(accel.Error, match=rf"^scale {scale}: must be positive and finite$"):
        accel.conv2d(x, w, bias, scale=float(scale), backend="fsim")


def test_a_check_that_fails_raises_check_error(rng, monkeypatch):
    """No healthy backend differs from the reference (tests/unit/test_layer_run.cpp spoils
    a device's output to see the runtime find it): here the extension says it did, and
    accel.conv2d raises with the run's output and report."""
    x, w, bias = layer_tensors(rng)
    y, report = accel.conv2d(x, w, bias, scale=0.001, backend="fsim", check=True)
    assert report["bit_exact"] is True
    failure = "check: 1 of 648 outputs differ from the golden reference; y[0,0,0,0]: ..."
    monkeypatch.setattr(accel._accel, "conv2d",
                        lambda *args: (y, {**report, "bit_exact": False}, failure))
    with pytest.raises(accel.CheckError) as raised:
        accel.conv2d(x, w, bias, scale=0.001, backend="fsim", check=True)
    assert str(raised.value) == failure
    assert raised.value.report["bit_exact"] is False
    np.testing.assert_array_equal(raised.value.y, y)


def test_exotic_layouts_read_the_same_values(rng):
    """Negative strides, Fortran order and broadcasting (zero strides) are copied element
    by element, as a C-ordered copy of the same values is."""
    x, w, bias = layer_tensors(rng)
    broadcast = np.broadcast_to(x[:, :1], x.shape)
    reversed_rows = np.ascontiguousarray(x[:, ::-1])[:, ::-1]
    assert broadcast.strides[1] == 0 and reversed_rows.strides[1] < 0
    every_other_channel = np.repeat(x, 2, axis=3)[..., ::2]
    for view in (broadcast, reversed_rows, np.asfortranarray(x), every_other_channel):
        want, _ = accel.conv2d(np.ascontiguousarray(view), w, bias, scale=0.001, backend="ref")
        got, _ = accel.conv2d(view, np.asfortranarray(w), bias[::-1][::-1], scale=0.001,
                              backend="ref")
        np.testing.assert_array_equal(got, want)
        assert np.unique(got).size > 10  # outputs that are not all clipped


@pytest.mark.parametrize("shape", [(1, 1 << 20, 1 << 20, 16), (1, 1 << 16, 1 << 12, 16)])
def test_inputs_beyond_4_gib_are_refused_before_any_allocation(shape):
    """A broadcast array describes 16 TiB (issue 30's R4: once a SIGSEGV) or 4 GiB in a
    few bytes; its size is checked before anything is copied."""
    x = np.broadcast_to(np.int8(0), shape)
    w = np.zeros((1, 1, 16, 16), np.int8)
    with pytest.raises(accel.Error, match=r"^x: shape \(1, \d+, \d+, 16\) is larger than the "
                                          r"4 GiB a device addresses$"):
        accel.conv2d(x, w, scale=0.001, backend="fsim")


@pytest.mark.parametrize("rows, message", [
    (1 << 15, "x: 2147483648 bytes of shape (1, 32768, 16384, 4): out of memory: the tensors "
              "are too large for this machine"),
    (1 << 14, "out of memory: the tensors are too large for this machine"),
])
def test_an_allocation_that_fails_is_an_accel_error(rows, message):
    """Under a 1.5 GiB address-space limit, a 2 GiB input cannot be copied; a 1 GiB one
    can, and the run's own allocations fail: accel.Error (the CLI's exit 2) either way,
    never MemoryError."""
    script = (
        "import resource, numpy as np, accel\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 << 29, 3 << 29))\n"
        f"x = np.broadcast_to(np.int8(1), (1, {rows}, 1 << 14, 4))\n"
        "try:\n"
        "    accel.conv2d(x, np.ones((1, 1, 4, 4), np.int8), scale=0.001, backend='ref')\n"
        "except accel.Error as e:\n"
        "    print(e)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == message + "\n"
