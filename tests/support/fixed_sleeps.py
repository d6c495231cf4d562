"""The lint check of fixed waits in tests (`python3 dev.py lint`; issue 49).

A test waits for the event it needs (a stream's first event, a log line, a row) with a
deadline, never for a fixed time. This check lists every `sleep(N)` (time.sleep,
asyncio.sleep, ...) in tests/ whose literal N is above 0.05 s, unless its line says why
it is a documented pacing with a `# pacing: <why>` comment: a poll's interval is at most
0.05 s; a fixed wait is allowed only where the test asserts that something does *not*
happen, where a time must pass on the server's clock (an expiry, a timeout) or as a load's
pace (docs/contributing/testing.md, "Waiting in tests").

    python -m tests.support.fixed_sleeps [PATH ...]   exit 1 and list them, if any
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

LONGEST_POLL = 0.05
MARK = "# pacing:"


def fixed_sleeps(source: str) -> Iterator[tuple[int, float]]:
    """(line, seconds) of each sleep with a literal above LONGEST_POLL and no MARK."""
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
            node.func, "id", ""
        )
        first = node.args[0]
        if name != "sleep" or not isinstance(first, ast.Constant):
            continue
        if not isinstance(first.value, int | float) or first.value <= LONGEST_POLL:
            continue
        if MARK not in lines[node.lineno - 1]:
            yield node.lineno, float(first.value)


def main(argv: list[str]) -> int:
    roots = [Path(arg) for arg in argv] or [Path(__file__).resolve().parents[1]]
    found = 0
    for root in roots:
        for path in sorted(root.rglob("*.py") if root.is_dir() else [root]):
            for line, seconds in fixed_sleeps(path.read_text(encoding="utf-8")):
                found += 1
                print(f"{path}:{line}: a fixed wait of {seconds:g} s: wait for the event "
                      f"(or say '{MARK} why' if it is one)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
