"""accel.explore against the accel explore CLI: the same sweep gives the same points."""
import json
from pathlib import Path

import pytest

import accel

SPACE = Path(__file__).resolve().parents[2] / "tests" / "explore" / "small_space.yaml"


def test_explore_matches_the_cli(cli, tmp_path):
    result = accel.explore(SPACE, suite="resnet18", out=tmp_path / "py", budget="sram=16KiB",
                           accel=cli.path)
    cli.ok("explore", "--space", SPACE, "--suite", "resnet18", "--out", tmp_path / "cli",
           "--budget", "sram=16KiB")
    assert result["points"] == json.loads((tmp_path / "cli" / "points.json").read_text())["points"]
    valid = [p for p in result["points"] if p["valid"]]
    assert len(valid) == 16 and all(p["cycles"] > 0 for p in valid)
    best = result["points"][result["best"]]
    assert best["sram_bytes"] <= 16 * 1024 and best["over_budget"] == ""


def test_explore_bad_input_raises_error(tmp_path):
    with pytest.raises(accel.Error, match="give one of"):
        accel.explore(SPACE, out=tmp_path)
    with pytest.raises(accel.Error, match="--budget 'ice40'"):
        accel.explore(SPACE, suite="resnet18", out=tmp_path, budget="ice40")
    with pytest.raises(accel.Error, match="--area 'luts'"):
        accel.explore(SPACE, suite="resnet18", out=tmp_path / "area", area="luts")
    assert not (tmp_path / "area").exists()
    with pytest.raises(accel.Error, match="synth_cells"):
        accel.explore(SPACE, suite="resnet18", out=tmp_path, synth_cells=-1)
