"""Waiting for another program's SQLite write lock without blocking the event loop.

The server's connection has `busy_timeout=0` (`Store.start_server_mode`): a write that
meets the lock is rolled back to its savepoint and queued here, and the queue is run in a
batch opened with BEGIN IMMEDIATE, tried again every few milliseconds until
DATABASE_BUSY_TIMEOUT has passed; then the write fails with `DatabaseBusy` (503
`database_busy`) having changed nothing.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sqlite3
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import peewee as pw

from corridorquest.store.transaction_memo import with_memo

T = TypeVar("T")

log = logging.getLogger("corridorquest.store.db")  # the name the log has always shown

# Seconds between two tries of the write lock while another program holds it.
LOCK_RETRY_SECONDS = 0.005


class DatabaseBusy(Exception):
    """Another program held the SQLite write lock for longer than the busy timeout.

    The write was not made (its savepoint was rolled back, nothing changed); the API
    answers 503 `database_busy` with `retry_after` seconds.
    """

    def __init__(self, waited: float, retry_after: int = 1) -> None:
        self.waited = waited
        self.retry_after = retry_after
        super().__init__(
            f"the database is locked by another program (waited {waited:.1f} s); "
            f"try again in {retry_after} s"
        )


_SQLITE_BUSY = 5


def is_busy(error: BaseException) -> bool:
    """Whether `error` (or the sqlite3 error peewee wrapped in it) is SQLITE_BUSY:
    "database is locked", the write lock held by another connection (also
    SQLITE_BUSY_SNAPSHOT: another connection wrote since this transaction's snapshot)."""
    seen = 0
    current: BaseException | None = error
    while current is not None and seen < 4:
        if isinstance(current, sqlite3.OperationalError):
            code = getattr(current, "sqlite_errorcode", None)
            if code is not None:
                return code & 0xFF == _SQLITE_BUSY
            return "database is locked" in str(current)
        seen += 1
        inner = current.args[0] if current.args else None
        current = inner if isinstance(inner, BaseException) else current.__context__
    return False


class _Busy(Exception):
    """Marks a transaction that met another program's write lock (never raised)."""


BUSY = _Busy()


@dataclass
class Queued:
    """A write waiting for another program's write lock (SQLite, the server)."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    future: asyncio.Future[Any]
    since: float  # loop time of its first try
    deadline: float  # loop time after which it fails with DatabaseBusy


class LockWaitQueue:
    """The store's queue of writes waiting for another program's write lock (a base of
    `Store`, store/facade.py, which holds these attributes)."""

    db: pw.Database
    _batch: Any  # the open group-commit batch, or None
    _lock_wait: float | None
    _queued: deque[Queued]
    _lock_waiter: asyncio.Task[None] | None
    _open_locked_batch: Callable[[], Any]

    async def _queue_for_lock(
        self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> T:
        """Wait (off the loop's back) until the write lock is ours, then run `fn` in the
        batch that took it; DatabaseBusy once DATABASE_BUSY_TIMEOUT has passed."""
        assert self._lock_wait is not None
        loop = asyncio.get_running_loop()
        now = loop.time()
        future: asyncio.Future[T] = loop.create_future()
        self._queued.append(Queued(fn, args, kwargs, future, now, now + self._lock_wait))
        self._wake_lock_waiter()
        return await future

    def _wake_lock_waiter(self) -> None:
        if self._lock_waiter is None or self._lock_waiter.done():
            self._lock_waiter = asyncio.get_running_loop().create_task(self._wait_for_lock())

    async def _wait_for_lock(self) -> None:
        """Try the write lock every few milliseconds while writes wait for it; fail those
        whose time is up. New requests meanwhile try it too (`_open_batch`)."""
        loop = asyncio.get_running_loop()
        retry_after = max(1, math.ceil(self._lock_wait or 1))
        refused = 0
        while self._queued:
            now = loop.time()
            while self._queued and (
                self._queued[0].deadline <= now or self._queued[0].future.done()
            ):
                item = self._queued.popleft()
                if not item.future.done():
                    item.future.set_exception(DatabaseBusy(now - item.since, retry_after))
                    refused += 1
                    if refused == 1:
                        log.warning(
                            "another program holds the SQLite write lock for longer than "
                            "DATABASE_BUSY_TIMEOUT (%s s): writes are answered 503 "
                            "database_busy until it lets go",
                            self._lock_wait,
                        )
            if not self._queued:
                break
            if self._batch is None and self._open_locked_batch() is not None:
                continue  # the queue ran in the batch that took the lock
            await asyncio.sleep(LOCK_RETRY_SECONDS)
        if refused:
            log.warning("%d writes were refused while another program held the lock", refused)

    def _run_waiting(
        self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> T:
        """`run` in server mode: SQLite's own busy timeout, blocking (start-up, scripts)."""
        wait_ms = round((self._lock_wait or 0) * 1000)
        self.db.execute_sql(f"PRAGMA busy_timeout = {wait_ms}")
        try:
            with self.db.atomic("IMMEDIATE"):
                return with_memo(fn, args, kwargs)
        finally:
            self.db.execute_sql("PRAGMA busy_timeout = 0")
