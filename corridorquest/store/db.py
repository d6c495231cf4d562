"""Database setup from DATABASE_URL and the ONE way into it for the async server.

Decision (docs/contributing/database.md): on SQLite each service runs its short
transaction inline on the event loop (sync peewee inside `db.atomic()`): the loop
serialises writers, so they never fight for SQLite's lock, and a transaction of a few
statements costs well under a millisecond. On PostgreSQL the same function runs in a
thread pool, each call on a pooled connection. Services never see the difference:

    game = await store.transaction(load_and_play, game_id, user_id, text)

Everything inside `fn` is synchronous peewee code; `fn` must not await or sleep.

The server (`Store.start_server_mode`) also keeps the WAL bounded (store/checkpoints.py)
and waits for another program's write lock without blocking the loop: its connection
has `busy_timeout=0`, a write that meets the lock is rolled back to its savepoint and
queued, and the queue is run in a batch opened with BEGIN IMMEDIATE, tried again every
few milliseconds until DATABASE_BUSY_TIMEOUT has passed; then the write fails with
`DatabaseBusy` (503 `database_busy`) having changed nothing.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import sqlite3
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar
from urllib.parse import parse_qsl, unquote, urlsplit

import peewee as pw
from playhouse.pool import PooledPostgresqlDatabase

from corridorquest.store import sql_log
from corridorquest.store.checkpoints import WAL_LIMIT_BYTES, Checkpointer
from corridorquest.store.file_modes import create_private_file
from corridorquest.store.migrations import migrate_database
from corridorquest.store.models import database

P = ParamSpec("P")
T = TypeVar("T")

log = logging.getLogger(__name__)
sql_log.install()  # LOG_LEVEL=DEBUG logs statements, never the values they carry

SQLITE_PRAGMAS = {
    "journal_mode": "wal",
    "synchronous": "normal",
    "foreign_keys": 1,
    "busy_timeout": 5000,
}


@dataclass(frozen=True)
class SqliteOptions:
    """The SQLite settings (settings.py): SQLITE_SYNCHRONOUS, DATABASE_BUSY_TIMEOUT,
    SQLITE_WAL_LIMIT."""

    synchronous: str = "normal"  # normal: durable across a crash of the process; full: of
    # the machine (an fsync per COMMIT)
    busy_timeout: float = 5.0  # seconds a write waits for another program's write lock
    wal_limit: int = WAL_LIMIT_BYTES  # the server restarts the log once it is this long


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


# Statements the sqlite3 module keeps prepared per connection (its default is 128). Every
# statement the server runs fits, so none is parsed again (a prepare costs 10-40 us).
SQLITE_CACHED_STATEMENTS = 512


SAVEPOINT_NAME = "cq_savepoint"


class SqliteDatabase(pw.SqliteDatabase):
    """peewee's SqliteDatabase whose savepoints all have one name.

    peewee names each savepoint `s<uuid4>`: a new SQL text per savepoint, which the sqlite3
    module prepares and caches like any other statement, so the two statements of every
    request's savepoint (group commit) pushed the server's real statements out of the
    connection's statement cache and each move re-prepared all of them. SQLite resolves
    RELEASE and ROLLBACK TO by name to the innermost savepoint of that name, so nested
    savepoints under one name behave exactly as differently named ones.
    """

    def savepoint(self) -> pw._savepoint:
        return pw._savepoint(self, sid=SAVEPOINT_NAME)


class DatabaseUrlError(ValueError):
    """DATABASE_URL cannot be used (message says why)."""


def sqlite_path(url: str) -> str:
    """`sqlite:///rel.db` -> `rel.db`, `sqlite:////abs/x.db` -> `/abs/x.db`."""
    if not url.startswith("sqlite://"):
        raise DatabaseUrlError(f"not an SQLite URL: {url!r}")
    path = url[len("sqlite://") :]
    if path.startswith("/"):
        path = path[1:]
    if not path:
        raise DatabaseUrlError("DATABASE_URL sqlite:/// needs a file path")
    return path


def sqlite_pragmas(options: SqliteOptions) -> dict[str, Any]:
    if options.synchronous not in ("normal", "full"):
        raise ValueError(f"SQLITE_SYNCHRONOUS must be normal or full, not {options.synchronous!r}")
    return {
        **SQLITE_PRAGMAS,
        "synchronous": options.synchronous,
        "busy_timeout": round(options.busy_timeout * 1000),
    }


def connect(url: str, pool_size: int = 8, sqlite: SqliteOptions | None = None) -> pw.Database:
    """A peewee database for DATABASE_URL (SQLite file or PostgreSQL), not yet connected."""
    if url.startswith("sqlite:"):
        path = sqlite_path(url)
        if path != ":memory:":
            # a new database file is the owner's alone (store/file_modes.py)
            create_private_file(Path(path).expanduser())
            path = str(Path(path).expanduser())
        return SqliteDatabase(
            path,
            pragmas=sqlite_pragmas(sqlite or SqliteOptions()),
            check_same_thread=False,
            cached_statements=SQLITE_CACHED_STATEMENTS,
        )
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql", "postgresql+pool"}:
        raise DatabaseUrlError(
            f"unsupported DATABASE_URL scheme {parts.scheme!r} (use sqlite:/// or postgresql://)"
        )
    name = parts.path.lstrip("/")
    if not name:
        raise DatabaseUrlError("DATABASE_URL needs a database name: postgresql://host/NAME")
    options: dict[str, Any] = dict(parse_qsl(parts.query))
    if parts.username:
        options["user"] = unquote(parts.username)
    if parts.password:
        options["password"] = unquote(parts.password)
    if parts.hostname:
        options["host"] = parts.hostname
    if parts.port:
        options["port"] = parts.port
    return PooledPostgresqlDatabase(
        name, max_connections=pool_size, stale_timeout=300, timeout=30, **options
    )


class _Memo(threading.local):
    value: dict[Any, Any] | None = None


_memo = _Memo()


def transaction_memo() -> dict[Any, Any]:
    """A dict that lives as long as the current transaction (empty when it starts).

    For what a transaction already read and a later step of the same transaction needs
    again (`game_access` keeps the loaded game in it). Outside `Store.run`/`transaction`
    it is a fresh dict every time, so nothing is ever remembered there.
    """
    memo = _memo.value
    return memo if memo is not None else {}


def _with_memo(fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
    """`fn(*args, **kwargs)` with a fresh transaction memo."""
    previous, _memo.value = _memo.value, {}
    try:
        return fn(*args, **kwargs)
    finally:
        _memo.value = previous


_SAVEPOINT = f'SAVEPOINT "{SAVEPOINT_NAME}"'
_RELEASE_SAVEPOINT = f'RELEASE SAVEPOINT "{SAVEPOINT_NAME}"'
_ROLLBACK_TO_SAVEPOINT = f'ROLLBACK TO SAVEPOINT "{SAVEPOINT_NAME}"'


class _CommitBatch:
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
        self, store: Store, loop: asyncio.AbstractEventLoop, immediate: bool = False
    ) -> None:
        self._store = store
        self._db = store.db
        self._loop = loop
        # (future, result, error) of each transaction, answered after the COMMIT
        self._waiters: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        self._txn = self._db.transaction("IMMEDIATE") if immediate else self._db.transaction()
        self._txn.__enter__()  # BEGIN (IMMEDIATE may raise SQLITE_BUSY: nothing is open then)
        loop.call_soon(self.commit)

    def execute(
        self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, BaseException | None]:
        """Run `fn` in a savepoint of the batch, now: (result, None) or (None, its error).

        `_BUSY` as the error: `fn` met another program's write lock (only when the store
        waits for locks off the loop) and was rolled back to its savepoint.
        """
        # The savepoint's three statements straight on the connection: peewee's atomic()
        # costs several times what SQLite does here, on every request. A savepoint `fn`
        # opens itself (`db.atomic()`) nests inside this one (peewee sees the batch's
        # transaction open).
        conn = self._db.connection()
        conn.execute(_SAVEPOINT)
        try:
            result = _with_memo(fn, args, kwargs)
        except BaseException as exc:  # rolled back to its savepoint; answered after the COMMIT
            conn.execute(_ROLLBACK_TO_SAVEPOINT)
            conn.execute(_RELEASE_SAVEPOINT)
            if not isinstance(exc, Exception):
                raise
            if self._store._lock_wait is not None and is_busy(exc):
                return None, _BUSY
            return None, exc
        conn.execute(_RELEASE_SAVEPOINT)
        return result, None

    async def run(self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
        """Run `fn` in a savepoint of the batch; return (or raise) after the COMMIT."""
        result, error = self.execute(fn, args, kwargs)
        if error is _BUSY:  # another program holds the write lock: wait for it off the loop
            return await self._store._queue_for_lock(fn, args, kwargs)
        waiter = self._loop.create_future()
        self._waiters.append((waiter, result, error))
        return await waiter  # type: ignore[no-any-return]

    def adopt(self, item: _Queued) -> None:
        """Run a queued write in this (IMMEDIATE) batch; its caller is answered after the
        COMMIT like any other transaction of the batch."""
        result, error = self.execute(item.fn, item.args, item.kwargs)
        if error is _BUSY:  # not expected while the batch holds the lock: queue it again
            self._store._queued.append(item)
            self._store._wake_lock_waiter()
            return
        self._waiters.append((item.future, result, error))

    def commit(self) -> None:
        """COMMIT the batch (once); wake its transactions, with the error if it failed."""
        if self._txn is None:
            return
        txn, self._txn = self._txn, None
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


class _Busy(Exception):
    """Marks a transaction that met another program's write lock (never raised)."""


_BUSY = _Busy()


@dataclass
class _Queued:
    """A write waiting for another program's write lock (SQLite, the server)."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    future: asyncio.Future[Any]
    since: float  # loop time of its first try
    deadline: float  # loop time after which it fails with DatabaseBusy


class Store:
    """An open database plus the way to run a transaction from async code."""

    def __init__(
        self, db: pw.Database, pool_size: int = 8, sqlite: SqliteOptions | None = None
    ) -> None:
        self.db = db
        self.is_sqlite = isinstance(db, pw.SqliteDatabase)
        self.sqlite_options = sqlite or SqliteOptions()
        self._executor: ThreadPoolExecutor | None = None
        self._batch: _CommitBatch | None = None  # SQLite: the open group-commit batch
        self._checkpointer: Checkpointer | None = None
        # SQLite server mode: seconds a write waits for another program's write lock
        # (None: SQLite's own busy timeout waits, blocking, as in scripts and tests)
        self._lock_wait: float | None = None
        self._queued: deque[_Queued] = deque()  # writes waiting for that lock, in order
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
                return _with_memo(fn, args, kwargs)
        with self.db.connection_context(), self.db.atomic():
            return _with_memo(fn, args, kwargs)

    async def transaction(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn` in one transaction: inline on SQLite (group commit), in the pool on PostgreSQL.

        SQLite: `fn` runs at once inside a SAVEPOINT of the loop turn's shared transaction
        (`_CommitBatch`); this returns (or raises what `fn` raised) once that transaction
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
                        return _with_memo(fn, args, kwargs)
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

    def _open_batch(self) -> _CommitBatch:
        """BEGIN the shared transaction of this loop turn; its COMMIT runs on the next turn.

        While writes wait for another program's lock, first try to take it (BEGIN
        IMMEDIATE) and run them; when that fails, a plain BEGIN: reads go on meanwhile.
        """
        if self._queued:
            locked = self._open_locked_batch()
            if locked is not None:
                return locked
        batch = _CommitBatch(self, asyncio.get_running_loop())
        self._batch = batch
        return batch

    def _batch_done(self, batch: _CommitBatch) -> None:
        if self._batch is batch:
            self._batch = None

    # --- another program's write lock (SQLite, the server) ------------------------------

    def _open_locked_batch(self) -> _CommitBatch | None:
        """BEGIN IMMEDIATE and run the queued writes in it, in their order; None while
        another program still holds the write lock."""
        try:
            batch = _CommitBatch(self, asyncio.get_running_loop(), immediate=True)
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

    async def _queue_for_lock(
        self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> T:
        """Wait (off the loop's back) until the write lock is ours, then run `fn` in the
        batch that took it; DatabaseBusy once DATABASE_BUSY_TIMEOUT has passed."""
        assert self._lock_wait is not None
        loop = asyncio.get_running_loop()
        now = loop.time()
        future: asyncio.Future[T] = loop.create_future()
        self._queued.append(_Queued(fn, args, kwargs, future, now, now + self._lock_wait))
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
                return _with_memo(fn, args, kwargs)
        finally:
            self.db.execute_sql("PRAGMA busy_timeout = 0")

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


M = TypeVar("M", bound=pw.Model)


def lock_for_update(query: pw.ModelSelect[M]) -> pw.ModelSelect[M]:
    """`SELECT ... FOR UPDATE` where the database has row locks (PostgreSQL).

    On SQLite the loop already serialises every transaction of the process.
    """
    if isinstance(database.obj, pw.PostgresqlDatabase):
        return query.for_update()
    return query


def transaction_lock(name: str) -> None:
    """Inside a transaction: wait for and hold a lock on `name` until it ends.

    PostgreSQL: a transaction-scoped advisory lock, so concurrent transactions about the
    same thing (one idempotency key) run one after the other and the later one sees what
    the earlier committed. SQLite: nothing to do (the loop serialises transactions).
    """
    if isinstance(database.obj, pw.PostgresqlDatabase):
        database.obj.execute_sql("SELECT pg_advisory_xact_lock(hashtext(%s))", (name,))
