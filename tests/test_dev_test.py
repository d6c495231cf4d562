"""`python3 dev.py test` lists the slowest tests of its run (15 unless told otherwise), so
that every CI log shows which tests take the time. Runs the checkout's .venv (set up by
`dev.py setup`) on one small, fast test module.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.server import ROOT

SMALL_MODULE = "tests/test_json_encoding.py"

needs_setup = pytest.mark.skipif(
    not (ROOT / ".venv" / ".installed").exists(), reason="needs dev.py setup"
)


def dev_test(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "dev.py"), "test", SMALL_MODULE, "-q", "-p", "no:cacheprovider",
         *args],
        capture_output=True, text=True, timeout=240, cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@needs_setup
def test_dev_py_test_lists_the_15_slowest_tests() -> None:
    assert "slowest 15 durations" in dev_test()


@needs_setup
def test_a_durations_option_of_ones_own_wins() -> None:
    out = dev_test("--durations=3")
    assert "slowest 3 durations" in out
    assert "slowest 15 durations" not in out
