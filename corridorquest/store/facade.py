"""The store: an open database and the ONE way into it for the async server.

Decision (docs/contributing/database.md): on SQLite each service runs its short
transaction inline on the event loop (sync peewee inside `db.atomic()`): the loop
serialises writers, so they never fight for SQLite's lock, and a transaction of a few
statements costs well under a millisecond. On PostgreSQL the same function runs in a
thread pool, each call on a pooled connection. Services never see the difference:

    game = await store.transaction(load_and_play, game_id, user_id, text)

Everything inside `fn` is synchronous peewee code; `fn` must not await or sleep.

The server (`Store.start_server_mode`) also keeps the WAL bounded (store/checkpoints.py)
and waits for another program's write lock without blocking the loop
(store/lock_wait.py). The rooms: store/connection.py (DATABASE_URL -> database, the SQLite
pragmas), store/group_commit.py (one COMMIT per loop turn), store/lock_wait.py,
store/transaction_memo.py.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

import peewee as pw
from playhouse.pool import PooledPostgresqlDatabase

from corridorquest.store.checkpoints import Checkpointer
from corridorquest.store.connection import SqliteOptions, connect
from corridorquest.store.group_commit import CommitBatch
from corridorquest.store.lock_wait import DatabaseBusy, LockWaitQueue, Queued, is_busy
from corridorquest.store.migrations import migrate_database
from corridorquest.store.models import database
from corridorquest.store.transaction_memo import with_memo

P = ParamSpec("P")
T = TypeVar("T")

log = logging.getLogger("corridorquest.store.db")  # the name the log has always shown


class Store(LockWaitQueue):
    """An open database plus the way to run a transaction from async code."""

    def __init__(
        self, db: pw.Database, pool_size: int = 8, sqlite: SqliteOptions | None = None
    ) -> None:
        self.db = db
        self.is_sqlite = isinstance(db, pw.SqliteDatabase)
        self.sqlite_options = sqlite or SqliteOptions()
        self._executor: ThreadPoolExecutor | None = None
        self._batch: CommitBatch | None = None  # SQLite: the open group-commit batch
        self._checkpointer: Checkpointer | None = None
        # SQLite server mode: seconds a write waits for another program's write lock
        # (None: SQLite's own busy timeout waits, blocking, as in scripts and tests)
        self._lock_wait: float | None = None
        self._queued: deque[Queued] = deque()  # writes waiting for that lock, in order
        self._lock_waiter: asyncio.Task[None] | None = None
        if not self.is_sqlite:
            self._executor = ThreadPoolExecutor(pool_size, thread_name_prefix="cq-db")

    @classmethod
    def open(
        cls,
        url: str,
        pool_size: int = 8,
        migrate: bool = True,
        sqlite: SqliteOptions | None = None,
    ) -> Store:
        """Connect (binding the models), and bring the schema up to date."""
        db = connect(url, pool_size, sqlite)
        database.initialize(db)
        if migrate:
            migrate_database(db)
        return cls(db, pool_size, sqlite)

    @property
    def supports_row_locks(self) -> bool:
        return not self.is_sqlite

    def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn` in one transaction, synchronously (startup, scripts, tests)."""
        if self._batch is not None:  # commit what the loop's transactions wrote first
            self._batch.commit()
        if self.is_sqlite:
            if self._lock_wait is not None and not self.db.in_transaction():
                return self._run_waiting(fn, args, kwargs)
            # IMMEDIATE: the write lock (waiting out the busy timeout) before the first
            # read, so a read-then-write cannot fail at once on a snapshot that a write of
            # the running server made stale (SQLITE_BUSY without waiting, in WAL mode).
            with self.db.atomic("IMMEDIATE"):
                return with_memo(fn, args, kwargs)
        with self.db.connection_context(), self.db.atomic():
            return with_memo(fn, args, kwargs)

    async def transaction(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn` in one transaction: inline on SQLite (group commit), in the pool on PostgreSQL.

        SQLite: `fn` runs at once inside a SAVEPOINT of the loop turn's shared transaction
        (`CommitBatch`); this returns (or raises what `fn` raised) once that transaction
        has committed, so nothing acknowledged can be lost when the process dies (a
        crash, kill -9); under SQLITE_SYNCHRONOUS=normal (the default) a power loss or an
        OS crash may still lose the last commits, under `full` it cannot. If `fn` raises,
        only its own savepoint is rolled back; if the COMMIT fails, every transaction of
        the batch fails. Server mode: a transaction that meets another program's write
        lock is run again once the lock is free, or fails with DatabaseBusy.
        """
        if self._executor is None:
            batch = self._batch
            if batch is None:
                if self.db.in_transaction():  # nested in `run` (scripts, start-up)
                    with self.db.atomic():
                        return with_memo(fn, args, kwargs)
                batch = self._open_batch()
            return await batch.run(fn, args, kwargs)
        loop = asyncio.get_running_loop()
        call = functools.partial(self.run, fn, *args, **kwargs)
        return await loop.run_in_executor(self._executor, call)

    async def autocommit(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn` whose statements may each commit on their own (a lookup, a one-row touch).

        SQLite: at once, inline, without a savepoint and without waiting for a COMMIT. With
        no transaction open each statement is its own transaction; while a group-commit
        batch is open the statements join it, see what the batch wrote so far (requests
        not yet answered) and commit with it. That is what `fn` allows: no statement
        depends on another, and none is an answer a client waits for (the session lookup
        of every request, its touch once a minute). A request no longer waits one batch
        for its session lookup before its own transaction can start. PostgreSQL: as
        `transaction`.
        """
        if self._executor is None:
            return fn(*args, **kwargs)
        return await self.transaction(fn, *args, **kwargs)

    def _open_batch(self) -> CommitBatch:
        """BEGIN the shared transaction of this loop turn; its COMMIT runs on the next turn.

        While writes wait for another program's lock, first try to take it (BEGIN
        IMMEDIATE) and run them; when that fails, a plain BEGIN: reads go on meanwhile.
        """
        if self._queued:
            locked = self._open_locked_batch()
            if locked is not None:
                return locked
        batch = CommitBatch(self, asyncio.get_running_loop())
        self._batch = batch
        return batch

    def _batch_done(self, batch: CommitBatch) -> None:
        if self._batch is batch:
            self._batch = None

    # --- another program's write lock (SQLite, the server) ------------------------------

    def _open_locked_batch(self) -> CommitBatch | None:
        """BEGIN IMMEDIATE and run the queued writes in it, in their order; None while
        another program still holds the write lock."""
        try:
            batch = CommitBatch(self, asyncio.get_running_loop(), immediate=True)
        except pw.OperationalError as error:
            if is_busy(error):
                return None
            raise
        self._batch = batch
        queued, self._queued = self._queued, deque()
        for item in queued:
            if not item.future.done():  # its request may have been cancelled meanwhile
                batch.adopt(item)
        return batch

    # --- the server's SQLite mode -----------------------------------------------------

    def start_server_mode(self) -> None:
        """SQLite file, the server: checkpoints off the loop, a bounded log, lock waits
        off the loop.

        - The WAL is checkpointed on a thread of its own, never in a COMMIT, and restarted
          by the writer once it passes SQLITE_WAL_LIMIT (`store.checkpoints` says why);
          `journal_size_limit` keeps the file at that size once it restarted.
        - The writer's connection has `busy_timeout=0`: a write that meets another
          program's write lock waits for it asynchronously (`_queue_for_lock`), for at
          most DATABASE_BUSY_TIMEOUT, instead of SQLite sleeping on the event loop.

        Scripts and tests keep SQLite's automatic checkpoints and blocking busy timeout.
        """
        path = self.db.database if self.is_sqlite else ":memory:"
        if path == ":memory:" or self._checkpointer is not None:
            return
        options = self.sqlite_options
        server_pragmas = [
            ("wal_autocheckpoint", 0),
            ("journal_size_limit", options.wal_limit),
            ("busy_timeout", 0),
        ]
        self.db._pragmas = [  # new connections
            *(item for item in self.db._pragmas if item[0] != "busy_timeout"),
            *server_pragmas,
        ]
        for name, value in server_pragmas:
            self.db.execute_sql(f"PRAGMA {name} = {value}")
        self._lock_wait = options.busy_timeout
        self._checkpointer = Checkpointer(path, wal_limit=options.wal_limit)
        self._checkpointer.start()

    def _restart_wal(self, checkpointer: Checkpointer) -> None:
        """At a batch boundary: a RESTART checkpoint, so the next write starts the log over.

        The checkpointer thread asked (the log passed SQLITE_WAL_LIMIT) and has just copied
        nearly all of it; this copies what was committed since and never waits (the
        connection's busy timeout is 0): when a reader of another program still uses the
        log it gives up, and the thread asks again after its next checkpoint.
        """
        try:
            busy = self.db.connection().execute("PRAGMA wal_checkpoint(RESTART)").fetchone()[0]
        except sqlite3.Error as error:
            log.warning("WAL restart failed: %s", error)
            busy = 1
        finally:  # only now: until then the thread keeps off the checkpoint lock
            checkpointer.restart_wanted = False
        if not busy:
            checkpointer.restarts += 1

    def close(self) -> None:
        if self._batch is not None:
            self._batch.commit()
        while self._queued:  # writes still waiting for another program's lock: refused
            item = self._queued.popleft()
            if not item.future.done():
                item.future.set_exception(DatabaseBusy(0.0))
        if self._lock_waiter is not None:
            self._lock_waiter.cancel()
            self._lock_waiter = None
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        if isinstance(self.db, PooledPostgresqlDatabase):
            self.db.close_all()
        elif not self.db.is_closed():
            self.db.close()
