"""accel.run_tflite against `accel run`: the same outputs and report for the same model and
input on every backend."""
import json
import sys

import numpy as np
import pytest

import accel
from conftest import REPO, without_timings

sys.path.insert(0, str(REPO / "scripts" / "models"))
from mutate_model import REFUSALS, edit_model, mutate  # noqa: E402  (edits of the digits model)


def cli_run(cli, tmp_path, model, *options):
    """`accel run`: the model's output and its --report."""
    cli.ok("run", model, "--output", tmp_path / "y.npy", "--report", tmp_path / "report.json",
           *options)
    return np.load(tmp_path / "y.npy"), json.loads((tmp_path / "report.json").read_text())


@pytest.mark.parametrize("backend", ["ref", "fsim", "verilator"])
def test_run_matches_cli(cli, tmp_path, models_dir, backend):
    model = models_dir / "digits.tflite"
    outputs, report = accel.run_tflite(model, backend=backend, seed=5,
                                       check=backend != "ref")
    want_y, want_report = cli_run(cli, tmp_path, model, "--backend", backend, "--seed", "5",
                                  *(["--check"] if backend != "ref" else []))
    assert len(outputs) == 1
    np.testing.assert_array_equal(outputs[0], want_y)
    assert without_timings(report) == without_timings(want_report)
    if backend != "ref":
        assert report["check"]["bit_exact"] is True


def test_match_is_the_cli_option(cli, tmp_path, models_dir):
    model = models_dir / "digits.tflite"
    outputs, report = accel.run_tflite(model, backend="fsim", seed=3, check=True, match="opt")
    want_y, _ = cli_run(cli, tmp_path, model, "--backend", "fsim", "--seed", "3", "--match", "opt")
    np.testing.assert_array_equal(outputs[0], want_y)
    assert report["check"]["bit_exact"] is True
    for bad in ("REF", 1):
        with pytest.raises(accel.Error, match=r"^match: "):
            accel.run_tflite(model, backend="ref", match=bad)


def test_given_input(cli, tmp_path, models_dir, rng):
    model = models_dir / "digits.tflite"
    shape = accel.run_tflite(model, backend="ref")[1]["operators"][0]["input_shapes"][0]
    x = rng.integers(-128, 128, size=shape, dtype=np.int8)
    outputs, _ = accel.run_tflite(model, [x], backend="fsim")
    np.save(tmp_path / "x.npy", x)
    want_y, _ = cli_run(cli, tmp_path, model, "--backend", "fsim", "--input", tmp_path / "x.npy")
    np.testing.assert_array_equal(outputs[0], want_y)


def test_float_model_takes_float32(models_dir, rng):
    model = models_dir / "float_io.tflite"
    report = accel.run_tflite(model, backend="ref")[1]
    x = rng.uniform(-1, 1, size=report["operators"][0]["input_shapes"][0]).astype(np.float32)
    outputs, _ = accel.run_tflite(model, x, backend="fsim")
    assert outputs[0].dtype == np.float32
    with pytest.raises(accel.Error, match=r"^inputs\[0\]: dtype float64, expected float32$"):
        accel.run_tflite(model, x.astype(np.float64), backend="fsim")


def test_run_errors_name_the_argument(cli, tmp_path, models_dir):
    model = models_dir / "digits.tflite"
    with pytest.raises(accel.Error, match=r"^inputs\[0\]: shape \(2, 2\) but the model's input"):
        accel.run_tflite(model, [np.zeros((2, 2), dtype=np.int8)], backend="ref")
    with pytest.raises(accel.Error, match=r"^inputs: the model has 1 inputs, 2 given$"):
        accel.run_tflite(model, [np.zeros((2, 2), dtype=np.int8)] * 2, backend="ref")
    for options, message in (({"backend": "ref", "check": True},
                              "check: compares a device with the golden reference; the 'ref' "
                              "backend is the reference"),
                             ({"seed": -1}, "seed: expected an integer in [0, 2^63-1], got -1"),
                             ({"device": "uart:"}, "device uart:: names no serial port "
                                                   "(uart:/dev/ttyUSB0)")):
        with pytest.raises(accel.Error) as raised:
            accel.run_tflite(model, **options)
        assert str(raised.value) == message
    missing = tmp_path / "missing.tflite"
    with pytest.raises(accel.Error) as raised:
        accel.run_tflite(missing, backend="ref")
    assert str(raised.value) == cli.error("run", missing, "--backend", "ref")


def test_a_check_that_fails_raises_check_error(models_dir, monkeypatch):
    """The extension's word that a tensor differed (no healthy backend makes one) is
    accel.CheckError, with the run's report."""
    model = models_dir / "digits.tflite"
    outputs, report = accel.run_tflite(model, backend="fsim", check=True)
    failure = "check: operator 0 (CONV_2D) wrote tensor 'x' with 1 elements unlike ..."
    monkeypatch.setattr(accel._accel, "run_tflite", lambda *args: (outputs, report, failure))
    with pytest.raises(accel.CheckError) as raised:
        accel.run_tflite(model, backend="fsim", check=True)
    assert str(raised.value) == failure and raised.value.report == report


@pytest.mark.parametrize("mutation", sorted(REFUSALS))
def test_refused_models_raise_the_clis_error(cli, tmp_path, models_dir, mutation):
    model = tmp_path / f"{mutation}.tflite"
    mutate(models_dir / "digits.tflite", mutation, model)
    with pytest.raises(accel.Error) as raised:
        accel.run_tflite(model, backend="fsim")
    assert REFUSALS[mutation][1] in str(raised.value)
    assert str(raised.value) == cli.error("run", model, "--backend", "fsim")


def test_names_from_the_file_stay_on_one_line(tmp_path, models_dir):
    """A tensor name is the file's: its control bytes are quoted, never printed raw."""
    model = tmp_path / "renamed.tflite"

    def rename_input(m):
        m.subgraphs[0].tensors[m.subgraphs[0].inputs[0]].name = b"in\nput"

    edit_model(models_dir / "digits.tflite", rename_input, model)
    with pytest.raises(accel.Error, match=r"^inputs\[0\]: shape \(2, 2\) but the model's input "
                                          r"'in\\x0aput' is \(1, 8, 8, 1\)$"):
        accel.run_tflite(model, [np.zeros((2, 2), dtype=np.int8)], backend="ref")


def test_inferences_match_cli(cli, tmp_path, models_dir):
    model = models_dir / "digits.tflite"
    outputs, report = accel.run_tflite(model, backend="fsim", seed=5, check=True, inferences=3)
    want_y, want_report = cli_run(cli, tmp_path, model, "--backend", "fsim", "--seed", "5",
                                  "--check", "--inferences", "3")
    np.testing.assert_array_equal(outputs[0], want_y)
    assert without_timings(report) == without_timings(want_report)
    assert report["inferences"] == 3
    assert report["check"]["tensors_compared"] == 3 * sum(
        o["where"] == "device" for o in report["operators"])
    steady = report["steady_state"]
    # The digits model's weights fit the default config's buffer: later inferences read less.
    assert report["resident_constants"]["tensors"]
    assert steady["dram_read_bytes"] < report["totals"]["dram_read_bytes"]
    assert steady["device_predicted_cycles"] < report["totals"]["device_predicted_cycles"]


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2", None])
def test_inferences_must_be_a_positive_integer(models_dir, bad):
    with pytest.raises(accel.Error, match=r"^inferences: "):
        accel.run_tflite(models_dir / "digits.tflite", backend="fsim", inferences=bad)


def test_inferences_past_the_library_bound_are_refused(models_dir):
    with pytest.raises(accel.Error, match=r"^inferences: 10000000: must be in \[1, 1000000\]$"):
        accel.run_tflite(models_dir / "digits.tflite", backend="fsim", inferences=10**7)


def test_the_rtl_runs_the_steady_state_faster(models_dir):
    """The digits model's constants fit the default config: on the RTL, every operator that
    keeps them on chip takes fewer cycles in the second inference, and the others as many."""
    _, report = accel.run_tflite(models_dir / "digits.tflite", backend="verilator", seed=3,
                                 check=True, inferences=2)
    assert 0 < report["steady_state"]["device_cycles"] < report["totals"]["device_cycles"]
    kept = 0
    for op in report["operators"]:
        if op["where"] != "device":
            continue
        if op["weights_resident"] or op["params_resident"]:
            kept += 1
            assert op["steady"]["cycles"] < op["cycles"], op["index"]
            assert op["steady"]["dram_read_bytes"] < op["dram_read_bytes"], op["index"]
        else:
            assert op["steady"]["dram_read_bytes"] == op["dram_read_bytes"], op["index"]
    assert kept > 0
