"""One server process per SQLite file: the lock `corridorquest serve` holds on `<db>.lock`.

SQLite would let a second server open the same file, and both would seem to work: but
each runs its transactions inline on its event loop (store/facade.py), so the two would wait
for each other's write lock there (up to the busy timeout, the whole process stalled) and
fail with "database is locked". The default file is per OS user, so a second clone's
server, or a second server on another port, would meet the first one's database without
anyone asking for it. So `serve` takes an exclusive lock on `<database file>.lock` before
it opens the database and holds it as long as the process lives; a second server stops at
start with a message that names the file and the process that holds it.

The lock is the operating system's (flock on POSIX, msvcrt.locking on Windows): it goes
with the process, however that ends, so a crashed server leaves no stale lock behind,
only the small file (which is never removed: removing a lock file races with the next
process that opens it). Tests and scripts that open the database in-process take no
lock; several processes on PostgreSQL need none.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from corridorquest.store.connection import sqlite_path

# Windows locks byte ranges, and nobody can read a locked byte: the lock is on a byte
# past the holder's description, which the next process reads for its message.
_WINDOWS_LOCK_OFFSET = 1 << 16


class DatabaseInUse(RuntimeError):
    """Another process holds the SQLite file's lock (the message says which)."""


def sqlite_file(database_url: str) -> Path | None:
    """The SQLite database file of `database_url`; None for PostgreSQL and `:memory:`."""
    if not database_url.startswith("sqlite:"):
        return None
    path = sqlite_path(database_url)
    if path == ":memory:":
        return None
    return Path(path).expanduser().resolve()


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


@dataclass
class ServerLock:
    """The held lock of one SQLite file; `release` (or the process's end) lets it go."""

    database: Path
    path: Path
    _fd: int | None

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file releases the lock
            self._fd = None


def _try_lock(fd: int) -> bool:
    try:
        if sys.platform == "win32":
            import msvcrt

            os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _holder(path: Path) -> str:
    """What the lock file says about the process that holds it ("" when it says nothing)."""
    try:
        with path.open("rb") as file:
            info = json.loads(file.read(_WINDOWS_LOCK_OFFSET).decode())
    except (OSError, ValueError):
        return ""
    if not isinstance(info, dict):
        return ""
    parts = [f"pid {info.get('pid', '?')}"]
    if info.get("host") and info["host"] != socket.gethostname():
        parts.append(f"on host {info['host']}")
    if info.get("port") is not None:
        parts.append(f"port {info['port']}")
    if info.get("started"):
        parts.append(f"started {info['started']}")
    if info.get("cwd"):
        parts.append(f"in {info['cwd']}")
    return ", ".join(parts)


def lock_sqlite_file(database_url: str, port: int | None = None) -> ServerLock | None:
    """Hold `<file>.lock` of an SQLite `database_url` for the rest of this process.

    Returns None (nothing to hold) for PostgreSQL and `:memory:`; raises DatabaseInUse
    when another process holds it, OSError when the lock file cannot be created.
    """
    database = sqlite_file(database_url)
    if database is None:
        return None
    database.parent.mkdir(parents=True, exist_ok=True)
    path = lock_path(database)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)
    if not _try_lock(fd):
        os.close(fd)
        holder = _holder(path)
        raise DatabaseInUse(
            f"the SQLite database {database} is in use by another Corridor Quest server"
            f" ({holder or 'its lock file is ' + str(path)}). One server process per SQLite"
            " file: stop that one, or give this one a database of its own (DATA_DIR or"
            " DATABASE_URL); several processes need PostgreSQL (docs/administration.md)."
        )
    info = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "port": port,
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        "cwd": os.getcwd(),
    }
    os.lseek(fd, 0, os.SEEK_SET)
    os.ftruncate(fd, 0)
    os.write(fd, json.dumps(info).encode() + b"\n")
    return ServerLock(database, path, fd)
