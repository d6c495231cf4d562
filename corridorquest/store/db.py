"""Database setup from DATABASE_URL and the ONE way into it for the async server.

Decision (docs/contributing/database.md): on SQLite each service runs its short
transaction inline on the event loop (sync peewee inside `db.atomic()`): the loop
serialises writers, so they never fight for SQLite's lock, and a transaction of a few
statements costs well under a millisecond. On PostgreSQL the same function runs in a
thread pool, each call on a pooled connection. Services never see the difference:

    game = await store.transaction(load_and_play, game_id, user_id, text)

Everything inside `fn` is synchronous peewee code; `fn` must not await or sleep.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ParamSpec, TypeVar
from urllib.parse import parse_qsl, unquote, urlsplit

import peewee as pw
from playhouse.pool import PooledPostgresqlDatabase

from corridorquest.store.checkpoints import Checkpointer
from corridorquest.store.migrations import migrate_database
from corridorquest.store.models import database

P = ParamSpec("P")
T = TypeVar("T")

SQLITE_PRAGMAS = {
    "journal_mode": "wal",
    "synchronous": "normal",
    "foreign_keys": 1,
    "busy_timeout": 5000,
}


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


def connect(url: str, pool_size: int = 8) -> pw.Database:
    """A peewee database for DATABASE_URL (SQLite file or PostgreSQL), not yet connected."""
    if url.startswith("sqlite:"):
        path = sqlite_path(url)
        if path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            path = str(Path(path).expanduser())
        return SqliteDatabase(
            path,
            pragmas=SQLITE_PRAGMAS,
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
    """

    def __init__(
        self,
        db: pw.Database,
        loop: asyncio.AbstractEventLoop,
        on_done: Callable[[_CommitBatch], None],
    ) -> None:
        self._db = db
        self._loop = loop
        self._on_done = on_done
        self._waiters: list[asyncio.Future[None]] = []
        self._txn = db.transaction()
        self._txn.__enter__()
        loop.call_soon(self.commit)

    async def run(self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
        """Run `fn` in a savepoint of the batch; return (or raise) after the COMMIT."""
        error: BaseException | None = None
        result: Any = None
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
            error = exc
        else:
            conn.execute(_RELEASE_SAVEPOINT)
        waiter = self._loop.create_future()
        self._waiters.append(waiter)
        await waiter
        if error is not None:
            raise error
        return result

    def commit(self) -> None:
        """COMMIT the batch (once); wake its transactions, with the error if it failed."""
        if self._txn is None:
            return
        txn, self._txn = self._txn, None
        self._on_done(self)
        failure: BaseException | None = None
        try:
            txn.__exit__(None, None, None)  # COMMIT; on failure peewee rolls back, re-raises
        except Exception as exc:
            failure = exc
        for waiter in self._waiters:
            if waiter.done():  # its request was cancelled meanwhile
                continue
            if failure is None:
                waiter.set_result(None)
            else:
                waiter.set_exception(failure)


class Store:
    """An open database plus the way to run a transaction from async code."""

    def __init__(self, db: pw.Database, pool_size: int = 8) -> None:
        self.db = db
        self.is_sqlite = isinstance(db, pw.SqliteDatabase)
        self._executor: ThreadPoolExecutor | None = None
        self._batch: _CommitBatch | None = None  # SQLite: the open group-commit batch
        self._checkpointer: Checkpointer | None = None
        if not self.is_sqlite:
            self._executor = ThreadPoolExecutor(pool_size, thread_name_prefix="cq-db")

    @classmethod
    def open(cls, url: str, pool_size: int = 8, migrate: bool = True) -> Store:
        """Connect (binding the models), and bring the schema up to date."""
        db = connect(url, pool_size)
        database.initialize(db)
        if migrate:
            migrate_database(db)
        return cls(db, pool_size)

    @property
    def supports_row_locks(self) -> bool:
        return not self.is_sqlite

    def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn` in one transaction, synchronously (startup, scripts, tests)."""
        if self._batch is not None:  # commit what the loop's transactions wrote first
            self._batch.commit()
        if self.is_sqlite:
            with self.db.atomic():
                return _with_memo(fn, args, kwargs)
        with self.db.connection_context(), self.db.atomic():
            return _with_memo(fn, args, kwargs)

    async def transaction(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn` in one transaction: inline on SQLite (group commit), in the pool on PostgreSQL.

        SQLite: `fn` runs at once inside a SAVEPOINT of the loop turn's shared transaction
        (`_CommitBatch`); this returns (or raises what `fn` raised) once that transaction
        has committed, so nothing acknowledged can be lost. If `fn` raises, only its own
        savepoint is rolled back; if the COMMIT fails, every transaction of the batch fails.
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
        """BEGIN the shared transaction of this loop turn; its COMMIT runs on the next turn."""
        batch = _CommitBatch(self.db, asyncio.get_running_loop(), self._batch_done)
        self._batch = batch
        return batch

    def _batch_done(self, batch: _CommitBatch) -> None:
        if self._batch is batch:
            self._batch = None

    def start_checkpoints(self) -> None:
        """SQLite file: checkpoint the WAL on a thread of its own, never in a COMMIT.

        For the server (`store.checkpoints` says why); scripts and tests keep SQLite's
        automatic checkpoints.
        """
        path = self.db.database if self.is_sqlite else ":memory:"
        if path == ":memory:" or self._checkpointer is not None:
            return
        self.db._pragmas = [*self.db._pragmas, ("wal_autocheckpoint", 0)]  # new connections
        self.db.execute_sql("PRAGMA wal_autocheckpoint = 0")
        self._checkpointer = Checkpointer(path)
        self._checkpointer.start()

    def close(self) -> None:
        if self._batch is not None:
            self._batch.commit()
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
