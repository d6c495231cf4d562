"""The server's SQLite mode waits for another program's write lock off the event loop.

(store/lock_wait.py and store/facade.py, `Store.start_server_mode`; the end-to-end view is
tests/api/test_database_lock.py.)
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from corridorquest.store import DatabaseBusy, SqliteOptions, Store
from corridorquest.store.models import User

pytestmark = pytest.mark.backend_neutral  # SQLite's write lock, whatever the URL says


def add_user(name: str) -> int:
    return int(User.create(username=name, email=f"{name}@x.test", password_hash="h").id)


def count_users() -> int:
    return int(User.select().count())


def committed_usernames(path: Path) -> list[str]:
    with sqlite3.connect(path) as other:
        return [row[0] for row in other.execute("SELECT username FROM user ORDER BY id")]


def server_store(path: Path, busy_timeout: float) -> Store:
    store = Store.open(f"sqlite:///{path}", sqlite=SqliteOptions(busy_timeout=busy_timeout))
    store.start_server_mode()
    return store


def test_writes_wait_for_the_lock_in_order_while_reads_and_the_loop_go_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cq.db"
    store = server_store(path, busy_timeout=5.0)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("CREATE TABLE note (text TEXT)")
    ticks = 0

    async def scenario() -> tuple[int, bool, int, list[int]]:
        nonlocal ticks
        other.execute("BEGIN IMMEDIATE")
        writes = [asyncio.ensure_future(store.transaction(add_user, n)) for n in ("a", "b")]
        read = asyncio.ensure_future(store.transaction(count_users))
        later = asyncio.ensure_future(store.transaction(add_user, "c"))
        for _ in range(20):  # 0.2 s: the loop keeps turning
            await asyncio.sleep(0.01)
            ticks += 1
        counted, waiting = await read, not any(w.done() for w in [*writes, later])
        # the other program writes and commits: the waiting writes' snapshot is stale now
        other.execute("INSERT INTO note (text) VALUES ('edited by hand')")
        other.execute("COMMIT")
        ids = [await w for w in [*writes, later]]
        return counted, waiting, ticks, ids

    try:
        counted, waiting, turned, ids = asyncio.run(scenario())
        assert counted == 0 and waiting and turned == 20
        assert ids == sorted(ids)  # in the order they were made
        assert committed_usernames(path) == ["a", "b", "c"]
        assert other.execute("SELECT text FROM note").fetchall() == [("edited by hand",)]
    finally:
        other.close()
        store.close()


def test_past_the_busy_timeout_a_write_fails_with_database_busy_and_changes_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cq.db"
    store = server_store(path, busy_timeout=0.3)
    other = sqlite3.connect(path, isolation_level=None)

    async def scenario() -> None:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseBusy) as refused:
            await store.transaction(add_user, "late")
        assert refused.value.retry_after == 1 and refused.value.waited >= 0.3
        other.execute("ROLLBACK")
        await store.transaction(add_user, "after")

    try:
        asyncio.run(scenario())
        assert committed_usernames(path) == ["after"]
    finally:
        other.close()
        store.close()
