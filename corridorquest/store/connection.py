"""Connecting to the database that DATABASE_URL names (SQLite file or PostgreSQL).

`connect(url)` gives a peewee database, not yet connected, with the SQLite pragmas (WAL
mode, `synchronous`, foreign keys, the busy timeout) and the statement cache that every
connection of ours uses. `Store.open` (store/facade.py) binds the models to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import peewee as pw
from playhouse.pool import PooledPostgresqlDatabase

from corridorquest.store import sql_log
from corridorquest.store.checkpoints import WAL_LIMIT_BYTES
from corridorquest.store.file_modes import create_private_file

sql_log.install()  # LOG_LEVEL=DEBUG logs statements, never the values they carry

# The page size of a NEW database file (an existing file keeps the one it was made with:
# SQLite changes it only by rewriting the whole file). Every COMMIT writes each page it
# changed to the log whole, and a batch of moves changes one page of each index per game
# (game_action's `(game_id, n)` index, game_message's too when a message is written, the
# game's row): with 2 KiB pages a move writes half the bytes to the log, and the
# checkpoint half the bytes back: about 3 % more moves per second under load
# (benchmarks/README.md, "SQLite's page size"). Set before `journal_mode`: a database in
# WAL mode keeps its page size.
SQLITE_PAGE_SIZE = 2048

SQLITE_PRAGMAS = {
    "page_size": SQLITE_PAGE_SIZE,
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
