"""accel.plan against `accel plan --json`, and accel.HwConfig against the config files."""
import json

import numpy as np
import pytest

import accel
from conftest import CONFIGS


@pytest.mark.parametrize("hw", ["default", "tiny"])
def test_plan_matches_cli(cli, tmp_path, hw):
    plan = accel.plan(shape=(1, 56, 56, 64), kernel=3, out_channels=128, stride=2, pad=1,
                      hw=hw)
    cli.ok("plan", "--shape", "1,56,56,64", "--kernel", "3", "--out-channels", "128",
           "--stride", "2", "--pad", "1", "--hw", CONFIGS / f"{hw}.yaml",
           "--json", tmp_path / "plan.json")
    assert plan == json.loads((tmp_path / "plan.json").read_text())
    assert plan["predicted_cycles"] > plan["ideal_cycles"] > 0


def test_plan_of_arrays_is_the_plan_of_their_shapes():
    x = np.zeros((1, 14, 14, 32), dtype=np.int8)
    w = np.zeros((3, 1, 32, 16), dtype=np.int8)
    assert accel.plan(x, w, pad=(1, 0)) == accel.plan(shape=x.shape, kernel=(3, 1),
                                                       out_channels=16, pad=(1, 0))


def test_plan_errors_name_the_layer():
    with pytest.raises(accel.Error) as raised:
        accel.plan(shape=(1, 8, 8, 4), kernel=3, out_channels=0)
    assert str(raised.value) == "dimension K = 0: must be in [1, 16777216]"
    with pytest.raises(accel.Error) as raised:
        accel.plan(shape=(1, 8, 8, 4), kernel=9, out_channels=4)
    assert str(raised.value) == ("output would be empty (0x0): the dilated 9x9 kernel does "
                                 "not fit the padded 8x8 input")
    with pytest.raises(accel.Error) as raised:
        accel.plan(shape=(1, 8, 8), kernel=3, out_channels=4)
    assert str(raised.value) == "shape: expected (N, H, W, C), got (1, 8, 8)"
    with pytest.raises(accel.Error) as raised:
        accel.plan(shape=(1, 1 << 40, 8, 4), kernel=3, out_channels=4)
    assert str(raised.value) == "shape: 1099511627776 does not fit an int32"


def test_hw_config_fields_and_errors(cli, tmp_path):
    tiny = accel.HwConfig.load(str(CONFIGS / "tiny.yaml"))
    assert tiny == accel.HwConfig.shipped("tiny")
    assert (tiny.name, tiny.block_in, tiny.block_out) == ("tiny", 4, 4)
    assert tiny.pes == tiny.batch * tiny.block_in * tiny.block_out
    assert set(accel.verilator_configs()) <= set(accel.shipped_configs())
    assert accel.plan(shape=(1, 8, 8, 4), kernel=1, out_channels=4, hw=tiny)["hw"] == "tiny"
    bad = tmp_path / "bad.yaml"
    bad.write_text((CONFIGS / "tiny.yaml").read_text().replace("block_in: 4", "block_in: 3"))
    with pytest.raises(accel.Error) as raised:
        accel.HwConfig.load(str(bad))
    assert str(raised.value) == cli.error("plan", "--shape", "1,8,8,4", "--kernel", "1",
                                          "--out-channels", "4", "--hw", bad)
