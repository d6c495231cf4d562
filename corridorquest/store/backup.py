"""`corridorquest backup` and `restore`: copies of an SQLite database file.

- `backup_sqlite`: SQLite's online backup (`sqlite3.Connection.backup`), in one step: the
  copy is read in one read transaction, a snapshot of the database as the last commit
  before it left it (in WAL mode a running server's writes go on meanwhile and are not in
  the copy). Every write the server acknowledged before the backup began is committed, so
  it is in the copy. The copy is written beside FILE under a temporary name and renamed
  to FILE only when complete: a FILE is never half-written. FILE is created mode 600 (it
  holds password hashes and e-mail addresses, store/file_modes.py). FILE may not be the
  database nor one of the files beside it that belong to it (its -wal, -shm, -journal, and
  the server's .lock): replacing one of those under a running server would lose
  acknowledged writes (or let a second server start).
- `stage_restore` copies FILE (the same way, read-only) to a temporary file beside the
  database, where `check` can read it without touching FILE; `install_restore` then moves
  it over the database file with one rename, after the old database's write-ahead log
  was checkpointed and its stale `-wal` and `-shm` files removed (they belong to the old
  file, and SQLite would apply a stale log to the new one).

The server must be stopped for a restore: the caller holds the server's lock
(`single_process.lock_sqlite_file`) for the whole of it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from corridorquest.store.file_modes import create_private_file, make_private_directory

SQLITE_HEADER = b"SQLite format 3\x00"
SIDE_FILES = ("-wal", "-shm", "-journal")
# what each file beside the database is, for the message that refuses it as a target
OWN_FILES = {
    "-wal": "its write-ahead log",
    "-shm": "its shared-memory index",
    "-journal": "its rollback journal",
    ".lock": "the running server's lock file",
}
BUSY_TIMEOUT_MS = 10_000


class BackupError(Exception):
    """The copy cannot be made (the message says why, in one line)."""


def is_sqlite_file(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return file.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def side_files(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in SIDE_FILES]


def _remove(paths: list[Path]) -> None:
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _fsync_dir(directory: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """Copy `source` into a new file `target` (mode 600), in one step (one read
    transaction)."""
    create_private_file(target)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)  # pages=-1: every page in one step, one consistent snapshot
        copy.execute("PRAGMA journal_mode = DELETE")  # a single file, no -wal beside it
        copy.commit()
    finally:
        copy.close()
    with target.open("rb+") as file:
        os.fsync(file.fileno())


def _open_source(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise BackupError(f"there is no database file {path}")
    if not is_sqlite_file(path):
        raise BackupError(f"{path} is not an SQLite database")
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return connection


def backup_sqlite(database: Path, target: Path, force: bool = False) -> int:
    """Copy the SQLite `database` (live or not) to `target`; returns the copy's size.

    Raises BackupError when `target` exists (and not `force`), or the copy fails.
    """
    target = target.expanduser()
    if target.resolve() == database.resolve():
        raise BackupError(f"{target} is the database itself")
    for suffix, what in OWN_FILES.items():
        if target.resolve() == database.resolve().with_name(database.resolve().name + suffix):
            raise BackupError(
                f"{target} belongs to the database {database} ({what}): choose another file"
            )
    if target.is_dir():
        raise BackupError(f"{target} is a directory")
    if target.exists() and not force:
        raise BackupError(f"{target} already exists (--force replaces it)")
    if not target.parent.is_dir():
        raise BackupError(f"the directory {target.parent} does not exist")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    _remove([partial, *side_files(partial)])
    try:
        source = _open_source(database)
        try:
            _copy(source, partial)
        finally:
            source.close()
        os.replace(partial, target)
        _fsync_dir(target.parent)
    except sqlite3.Error as error:
        raise BackupError(f"the backup failed: {error}") from None
    except OSError as error:
        raise BackupError(f"cannot write {target}: {error}") from None
    finally:
        _remove([partial, *side_files(partial)])
    return target.stat().st_size


def stage_restore(source: Path, database: Path) -> Path:
    """A private copy of the backup `source` beside `database`, for checking and then
    `install_restore`; raises BackupError when `source` is no SQLite file."""
    source = source.expanduser()
    staged = database.with_name(f".{database.name}.restore-{os.getpid()}")
    discard_staged(staged)
    make_private_directory(database.parent)
    try:
        connection = _open_source(source)
        try:
            _copy(connection, staged)
        finally:
            connection.close()
    except sqlite3.Error as error:
        discard_staged(staged)
        raise BackupError(f"{source} cannot be read as an SQLite database: {error}") from None
    except OSError as error:
        discard_staged(staged)
        raise BackupError(f"cannot copy {source}: {error}") from None
    return staged


def discard_staged(staged: Path) -> None:
    _remove([staged, *side_files(staged)])


def install_restore(staged: Path, database: Path) -> None:
    """Replace `database` with the checked `staged` copy (the server is stopped)."""
    if database.exists():
        # the old file's log into it, then away: nothing of it may meet the new file
        # (a damaged old file, which may well be why it is replaced, is simply replaced)
        with contextlib.suppress(sqlite3.Error):
            old = sqlite3.connect(database)
            try:
                old.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                old.close()
    # the checked copy becomes one closed file (its log, if any, folded into it)
    staged_db = sqlite3.connect(staged)
    try:
        staged_db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        staged_db.execute("PRAGMA journal_mode = DELETE")
    finally:
        staged_db.close()
    _remove(side_files(staged))
    # the new database file takes the old one's place in one rename
    _remove(side_files(database))
    os.replace(staged, database)
    _fsync_dir(database.parent)
