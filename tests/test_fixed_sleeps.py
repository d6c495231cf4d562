"""`dev.py lint` finds fixed waits in tests (issue 49): a sleep above 0.05 s without a
documented reason fails the lint; polls and marked pacings pass."""

from __future__ import annotations

from pathlib import Path

from tests.support.fixed_sleeps import fixed_sleeps, main

SAMPLE = """
import asyncio, time
time.sleep(0.5)  # its stream is open
time.sleep(0.05)
time.sleep(2)  # pacing: past the session's idle timeout (the subject)
async def f():
    await asyncio.sleep(1.0)
"""


def test_the_check_names_unmarked_fixed_waits_only() -> None:
    assert list(fixed_sleeps(SAMPLE)) == [(3, 0.5), (7, 1.0)]


def test_the_check_fails_on_a_file_with_one(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(SAMPLE)
    assert main([str(tmp_path)]) == 1
    (tmp_path / "test_x.py").write_text("import time\ntime.sleep(0.01)\n")
    assert main([str(tmp_path)]) == 0
