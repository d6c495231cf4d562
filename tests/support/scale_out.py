"""Several server processes on one PostgreSQL database: the scale-out tests (SPEC §11).

`ON_POSTGRESQL` skips a test module unless CQ_TEST_DATABASE_URL is set (on SQLite a second
server process refuses to start: tests/operations/test_server_cli.py); `processes` starts
server processes on a database, all at once (they race from their start), and stops them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support.server import free_port, server_env, start_process, stop, wait_until_up

ON_POSTGRESQL = pytest.mark.skipif(
    not os.environ.get("CQ_TEST_DATABASE_URL"),
    reason="several server processes share PostgreSQL only (set CQ_TEST_DATABASE_URL)",
)


@contextmanager
def processes(database_url: str, places: list[Path], **settings: Any) -> Iterator[list[str]]:
    """One server process per place (its files there) on `database_url` with `settings`,
    all started before any is waited for; their base URLs once all answer; stopped after."""
    started = []
    try:
        for where in places:
            where.mkdir(parents=True, exist_ok=True)
            port = free_port()
            process, log_path = start_process(
                where, server_env(where, database_url, port, **settings)
            )
            started.append((f"http://127.0.0.1:{port}", process, log_path))
        for base_url, process, log_path in started:
            wait_until_up(base_url, process, log_path)
        yield [base_url for base_url, _, _ in started]
    finally:
        for _, process, _ in started:
            stop(process)


@contextmanager
def second_api(database_url: str, where: Path, **settings: Any) -> Iterator[str]:
    """The /api/v1 URL of one more server process on `database_url` (stopped after)."""
    with processes(database_url, [where], **settings) as (base_url,):
        yield base_url + "/api/v1"
