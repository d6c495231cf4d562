"""CI's two passes (.ci/run) run every test at least once.

The whole suite runs on SQLite; the suites that touch the database run again on
PostgreSQL, without the tests marked `backend_neutral` (pyproject.toml's markers,
docs/contributing/testing.md). So a backend_neutral test must not be one that only runs
on PostgreSQL: it would run in neither pass.
"""

from __future__ import annotations

import itertools
import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# a module that skips itself without PostgreSQL: by hand, or with tests/support/scale_out.py's mark
POSTGRES_ONLY = re.compile(
    r"skipif\(\s*not os\.environ\.get\(\"CQ_TEST_DATABASE_URL\"\)|\bON_POSTGRESQL\b"
)


def _test_commands() -> list[list[str]]:
    """The `dev.py test` commands of .ci/run (continued lines joined): the SQLite pass (the
    one run with `env -u CQ_TEST_DATABASE_URL`), then the PostgreSQL pass (both run at
    once: .ci/run starts the PostgreSQL pass in the background first)."""
    script = (ROOT / ".ci" / "run").read_text().replace("\\\n", " ")
    sqlite, postgres = [], []
    for line in script.splitlines():
        words = shlex.split(line, comments=True)
        if "dev.py" in words and words[words.index("dev.py") + 1:][:1] == ["test"]:
            command = list(
                itertools.takewhile(
                    lambda word: word not in {"||", "&&", "&", "|"} and not word.startswith(">")
                    and not word.startswith("2>"),
                    words[words.index("dev.py") + 2:],
                )
            )
            (sqlite if "CQ_TEST_DATABASE_URL" in words else postgres).append(command)
    return sqlite + postgres


def test_the_postgresql_pass_leaves_out_what_the_sqlite_pass_ran_and_nothing_else() -> None:
    sqlite_pass, postgres_pass = _test_commands()
    assert sqlite_pass == [], "the SQLite pass is the whole suite, unfiltered"
    assert postgres_pass[:2] == ["-m", "not backend_neutral"]


def test_no_postgresql_only_test_is_marked_backend_neutral() -> None:
    both = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if "mark.backend_neutral" in (text := path.read_text()) and POSTGRES_ONLY.search(text)
    ]
    assert both == [], f"these would run in neither pass: {both}"
