"""SQLite group commit: the transactions of one event-loop turn share one COMMIT."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import peewee as pw

from corridorquest.store.checkpoints import Checkpointer
from corridorquest.store.connection import SAVEPOINT_NAME
from corridorquest.store.lock_wait import BUSY, Queued, is_busy
from corridorquest.store.transaction_memo import close_batch_memo, open_batch_memo, with_memo

T = TypeVar("T")


class BatchOwner(Protocol):
    """What a batch uses of its store (`Store`, store/facade.py)."""

    db: pw.Database
    _lock_wait: float | None
    _queued: deque[Queued]
    _checkpointer: Checkpointer | None

    async def _queue_for_lock(
        self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> T: ...

    def _wake_lock_waiter(self) -> None: ...

    def _batch_done(self, batch: CommitBatch) -> None: ...

    def _restart_wal(self, checkpointer: Checkpointer) -> None: ...


_SAVEPOINT = f'SAVEPOINT "{SAVEPOINT_NAME}"'
_RELEASE_SAVEPOINT = f'RELEASE SAVEPOINT "{SAVEPOINT_NAME}"'
_ROLLBACK_TO_SAVEPOINT = f'ROLLBACK TO SAVEPOINT "{SAVEPOINT_NAME}"'


class CommitBatch:
    """SQLite group commit: the transactions of one event-loop turn share one COMMIT.

    Opening a batch runs BEGIN and schedules `commit` with `loop.call_soon`, so it runs
    after every callback already queued for this turn: each request handled meanwhile
    runs its transaction inline, one after the other (the loop serialises them), each in
    its own SAVEPOINT, and waits for the COMMIT before it answers. Later transactions of
    the batch see the earlier ones' writes (one connection, strictly serial), exactly as
    if each had committed on its own; the batch makes one WAL commit out of many.

    `immediate`: BEGIN IMMEDIATE, which takes the write lock at once (raises the
    busy error when another program holds it); the server opens such a batch for the
    writes that met another program's lock (`Store._queue_for_lock`).
    """

    def __init__(
        self, store: BatchOwner, loop: asyncio.AbstractEventLoop, immediate: bool = False
    ) -> None:
        self._store = store
        self._db = store.db
        self._loop = loop
        # (future, result, error) of each transaction, answered after the COMMIT
        self._waiters: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        self._txn = self._db.transaction("IMMEDIATE") if immediate else self._db.transaction()
        self._txn.__enter__()  # BEGIN (IMMEDIATE may raise SQLITE_BUSY: nothing is open then)
        open_batch_memo()
        loop.call_soon(self.commit)

    def execute(
        self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, BaseException | None]:
        """Run `fn` in a savepoint of the batch, now: (result, None) or (None, its error).

        `BUSY` as the error: `fn` met another program's write lock (only when the store
        waits for locks off the loop) and was rolled back to its savepoint.
        """
        # The savepoint's three statements straight on the connection: peewee's atomic()
        # costs several times what SQLite does here, on every request. A savepoint `fn`
        # opens itself (`db.atomic()`) nests inside this one (peewee sees the batch's
        # transaction open).
        conn = self._db.connection()
        conn.execute(_SAVEPOINT)
        try:
            result = with_memo(fn, args, kwargs)
        except BaseException as exc:  # rolled back to its savepoint; answered after the COMMIT
            conn.execute(_ROLLBACK_TO_SAVEPOINT)
            conn.execute(_RELEASE_SAVEPOINT)
            if not isinstance(exc, Exception):
                raise
            if self._store._lock_wait is not None and is_busy(exc):
                return None, BUSY
            return None, exc
        conn.execute(_RELEASE_SAVEPOINT)
        return result, None

    async def run(self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
        """Run `fn` in a savepoint of the batch; return (or raise) after the COMMIT."""
        result, error = self.execute(fn, args, kwargs)
        if error is BUSY:  # another program holds the write lock: wait for it off the loop
            return await self._store._queue_for_lock(fn, args, kwargs)
        waiter = self._loop.create_future()
        self._waiters.append((waiter, result, error))
        return await waiter  # type: ignore[no-any-return]

    def adopt(self, item: Queued) -> None:
        """Run a queued write in this (IMMEDIATE) batch; its caller is answered after the
        COMMIT like any other transaction of the batch."""
        result, error = self.execute(item.fn, item.args, item.kwargs)
        if error is BUSY:  # not expected while the batch holds the lock: queue it again
            self._store._queued.append(item)
            self._store._wake_lock_waiter()
            return
        self._waiters.append((item.future, result, error))

    def commit(self) -> None:
        """COMMIT the batch (once); wake its transactions, with the error if it failed."""
        if self._txn is None:
            return
        txn, self._txn = self._txn, None
        close_batch_memo()
        self._store._batch_done(self)
        failure: BaseException | None = None
        try:
            txn.__exit__(None, None, None)  # COMMIT; on failure peewee rolls back, re-raises
        except Exception as exc:
            failure = exc
        for waiter, result, error in self._waiters:
            if waiter.done():  # its request was cancelled meanwhile
                continue
            if failure is not None:
                waiter.set_exception(failure)
            elif error is not None:
                waiter.set_exception(error)
            else:
                waiter.set_result(result)
        checkpointer = self._store._checkpointer
        if checkpointer is not None and checkpointer.restart_wanted and failure is None:
            self._store._restart_wal(checkpointer)
