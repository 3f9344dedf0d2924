"""Fixtures of the accel package's tests: the accel CLI to compare with, the repository's
configs and the generated test models (tests/python/CMakeLists.txt sets ACCEL_BIN and
ACCEL_MODELS_DIR)."""
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
CONFIGS = REPO / "configs" / "hw"

# Keys of the reports that are wall times, which differ from run to run.
TIMINGS = {"sim_seconds", "sim_cycles_per_second", "host_seconds", "device_seconds",
           "wall_seconds"}


def without_timings(value):
    """The report with every wall-time key left out, at any depth."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


class Cli:
    """The accel CLI, run as a user runs it."""

    def __init__(self, path):
        self.path = path

    def run(self, *args):
        """Runs accel with `args`; returns the completed process."""
        return subprocess.run([self.path, *map(str, args)], capture_output=True, text=True,
                              check=False)

    def ok(self, *args):
        done = self.run(*args)
        assert done.returncode == 0, done.stderr
        return done

    def error(self, *args):
        """The message of `error: ...` of a run that must fail with exit code 2."""
        done = self.run(*args)
        assert done.returncode == 2, (done.returncode, done.stderr)
        first = done.stderr.splitlines()[0]
        assert first.startswith("error: ")
        return first[len("error: "):]


def environment_path(variable, what):
    """The path in an environment variable that tests/python/CMakeLists.txt sets."""
    path = os.environ.get(variable)
    if not path:
        pytest.fail(f"{variable} must name {what} (tests/python/CMakeLists.txt sets it)")
    return Path(path)


@pytest.fixture(scope="session")
def cli():
    return Cli(environment_path("ACCEL_BIN", "the accel CLI"))


@pytest.fixture(scope="session")
def models_dir():
    return environment_path("ACCEL_MODELS_DIR", "the generated test models")


@pytest.fixture
def rng():
    return np.random.default_rng(7)
