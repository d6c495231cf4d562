"""SQLite group commit: the transactions of one loop turn share one COMMIT.

(store/group_commit.py)
"""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import peewee as pw
import pytest

from corridorquest.store import Store
from corridorquest.store.models import Session, User

pytestmark = pytest.mark.backend_neutral  # SQLite's group commit, whatever the URL says


def add_user(name: str) -> int:
    return int(User.create(username=name, email=f"{name}@x.test", password_hash="h").id)


def committed_usernames(path: Path) -> set[str]:
    """What another connection sees: only committed rows."""
    with sqlite3.connect(path) as other:
        return {row[0] for row in other.execute("SELECT username FROM user")}


def test_a_failing_transaction_of_a_batch_rolls_back_only_itself(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'cq.db'}")

    def add_then_fail(name: str) -> None:
        add_user(name)
        raise ValueError("refused")

    async def batch() -> list[object]:
        return await asyncio.gather(
            store.transaction(add_user, "first"),
            store.transaction(add_then_fail, "ghost"),
            store.transaction(add_user, "first"),  # sees the first one's uncommitted row
            store.transaction(add_user, "last"),
            return_exceptions=True,
        )

    try:
        first, failed, duplicate, last = asyncio.run(batch())
        assert isinstance(first, int) and isinstance(last, int)
        assert isinstance(failed, ValueError)
        assert isinstance(duplicate, pw.IntegrityError)
        assert committed_usernames(tmp_path / "cq.db") == {"first", "last"}
    finally:
        store.close()


def test_a_failing_commit_fails_every_transaction_of_the_batch(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'cq.db'}")

    def orphan_session() -> None:
        """A session of no user, its foreign key checked only at COMMIT."""
        store.db.execute_sql("PRAGMA defer_foreign_keys = ON")
        Session.create(token_hash="t", user=12345, expires_at=datetime.now() + timedelta(1))

    async def batch() -> list[object]:
        return await asyncio.gather(
            store.transaction(add_user, "before"),
            store.transaction(orphan_session),
            store.transaction(add_user, "after"),
            return_exceptions=True,
        )

    async def later() -> int:
        return await store.transaction(add_user, "later")

    try:
        outcomes = asyncio.run(batch())
        assert all(isinstance(o, pw.IntegrityError) for o in outcomes), outcomes
        assert committed_usernames(tmp_path / "cq.db") == set()
        assert asyncio.run(later()) > 0  # the next batch starts afresh
        assert committed_usernames(tmp_path / "cq.db") == {"later"}
    finally:
        store.close()


def test_a_transaction_answers_only_once_its_writes_are_committed(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'cq.db'}")
    seen_during: list[tuple[bool, set[str]]] = []

    async def watch() -> None:
        task = asyncio.ensure_future(store.transaction(add_user, "slowpoke"))
        await asyncio.sleep(0)  # the transaction has run, its COMMIT not yet
        seen_during.append((task.done(), committed_usernames(tmp_path / "cq.db")))
        await task

    try:
        asyncio.run(watch())
        assert seen_during == [(False, set())]  # not answered while uncommitted
        assert committed_usernames(tmp_path / "cq.db") == {"slowpoke"}
    finally:
        store.close()


@pytest.mark.parametrize("batches", [1, 3])
def test_every_batch_commits_even_when_one_runs_after_another(tmp_path: Path, batches: int) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'cq.db'}")

    async def rounds() -> None:
        for n in range(batches):
            await asyncio.gather(*(store.transaction(add_user, f"u{n}x{i}") for i in range(5)))

    try:
        asyncio.run(rounds())
        assert len(committed_usernames(tmp_path / "cq.db")) == 5 * batches
    finally:
        store.close()


def test_a_synchronous_run_commits_the_open_batch_first(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'cq.db'}")

    async def mixed() -> int:
        task = asyncio.ensure_future(store.transaction(add_user, "async"))
        await asyncio.sleep(0)
        store.run(add_user, "sync")  # e.g. start-up work on the loop
        assert committed_usernames(tmp_path / "cq.db") == {"async", "sync"}
        return await task

    try:
        assert asyncio.run(mixed()) > 0
    finally:
        store.close()


def test_a_nested_savepoint_that_fails_undoes_only_its_own_writes(tmp_path: Path) -> None:
    """Every savepoint has one name; SQLite releases or rolls back the innermost one."""
    store = Store.open(f"sqlite:///{tmp_path / 'cq.db'}")

    def outer(name: str) -> None:
        add_user(name)
        try:
            with store.db.atomic():
                add_user(f"{name}-inner")
                with store.db.atomic():
                    add_user(f"{name}-innermost")
                raise ValueError("undo the inner part")
        except ValueError:
            pass
        with store.db.atomic():
            add_user(f"{name}-kept")

    async def batch() -> None:
        await asyncio.gather(store.transaction(outer, "a"), store.transaction(outer, "b"))

    try:
        asyncio.run(batch())
        assert committed_usernames(tmp_path / "cq.db") == {"a", "a-kept", "b", "b-kept"}
    finally:
        store.close()


def test_the_statements_of_many_requests_stay_prepared(tmp_path: Path) -> None:
    """Savepoints add no statement text per request (the connection's cache keeps ours)."""
    store = Store.open(f"sqlite:///{tmp_path / 'cq.db'}")
    texts: set[str] = set()

    async def many() -> None:
        conn = store.db.connection()
        conn.set_trace_callback(texts.add)
        for i in range(50):
            await asyncio.gather(*(store.transaction(add_user, f"u{i}-{j}") for j in range(4)))
        conn.set_trace_callback(None)

    try:
        asyncio.run(many())
        savepoints = {text for text in texts if "SAVEPOINT" in text}
        assert len(savepoints) == 2  # SAVEPOINT and RELEASE, one name for all 200
        assert len(committed_usernames(tmp_path / "cq.db")) == 200
    finally:
        store.close()


def test_the_server_checkpoints_the_log_off_the_event_loop(tmp_path: Path) -> None:
    """With checkpoints on their own thread the write-ahead log stays small, no COMMIT
    checkpoints, and every committed row is in the database file once the store closes."""
    path = tmp_path / "cq.db"
    store = Store.open(f"sqlite:///{path}")
    store.start_server_mode()
    wal = Path(f"{path}-wal")

    async def write_a_lot() -> int:
        largest = 0
        for i in range(150):
            await asyncio.gather(*(store.transaction(add_user, f"u{i}-{j}") for j in range(20)))
            largest = max(largest, wal.stat().st_size)
            if i % 10 == 0:
                await asyncio.sleep(0.3)  # pacing: the checkpointer's turn
        return largest

    try:
        assert store.db.execute_sql("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        largest = asyncio.run(write_a_lot())
        # uncheckpointed, the log of 3,000 users with their three indexes grows past 4 MB
        assert largest < 1_500_000
        assert store._checkpointer is not None and store._checkpointer.checkpoints > 0
    finally:
        store.close()
    assert len(committed_usernames(path)) == 3000
