"""SQLITE_SYNCHRONOUS reaches the server's connection: `full` for commits that survive a
power loss, `normal` (the default) for commits that survive a crash of the server."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from corridorquest.services.context import ServiceContext
from corridorquest.settings import Settings

pytestmark = pytest.mark.backend_neutral  # SQLite's setting, whatever the URL says

LEVELS = {"normal": 1, "full": 2}  # what PRAGMA synchronous answers


@pytest.mark.parametrize("value", [None, "normal", "full", "FULL"])
def test_the_server_connection_commits_as_the_setting_says(
    tmp_path: Path, value: str | None
) -> None:
    overrides = {"DATABASE_URL": f"sqlite:///{tmp_path / 'cq.db'}", "DATA_DIR": str(tmp_path)}
    if value is not None:
        overrides["SQLITE_SYNCHRONOUS"] = value
    settings = Settings.from_env(environ={}, overrides=overrides)
    ctx = ServiceContext.open(settings)
    try:
        level = ctx.store.db.execute_sql("PRAGMA synchronous").fetchone()[0]
    finally:
        asyncio.run(ctx.close())
    assert level == LEVELS[(value or "normal").lower()]
