"""A test module that runs on PostgreSQL only is in CI's PostgreSQL pass.

Such a module skips itself without CQ_TEST_DATABASE_URL (two server processes, the
scheduler's leader, cut connections), so the SQLite pass never runs it: if it lies outside
the paths the PostgreSQL pass of .ci/run names, it runs in neither pass, silently (as it
would have when tests/api/test_two_processes.py moved to tests/operations/ without the
pass naming tests/operations). tests/test_ci_passes.py: the other half, the marker.
"""

from __future__ import annotations

from pathlib import Path

from tests.test_ci_passes import POSTGRES_ONLY, ROOT, _test_commands


def _postgres_pass_paths() -> list[Path]:
    _, postgres_pass = _test_commands()
    return [ROOT / word for word in postgres_pass if word.startswith("tests")]


def _in_pass(module: Path, paths: list[Path]) -> bool:
    return any(module == path or path in module.parents for path in paths)


def test_every_postgresql_only_module_is_in_the_postgresql_pass() -> None:
    paths = _postgres_pass_paths()
    assert paths, "the PostgreSQL pass names no tests"
    postgres_only = [
        path
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if POSTGRES_ONLY.search(path.read_text())
    ]
    assert len(postgres_only) >= 3  # two processes, the scheduler's leader, cut connections
    outside = [str(p.relative_to(ROOT)) for p in postgres_only if not _in_pass(p, paths)]
    assert outside == [], f"these run in neither pass: {outside}"
