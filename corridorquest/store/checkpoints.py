"""SQLite WAL checkpoints on their own thread and connection, off the event loop.

SQLite copies the write-ahead log back into the database file (a checkpoint) inside the
COMMIT that lets the log pass `wal_autocheckpoint` pages (1000 by default): a thousand
page writes and an fsync on the event loop, every fraction of a second under load, that
every request of that moment waits for. The server turns that off on its connection and
runs PASSIVE checkpoints here instead, a few times a second, from a second connection:
PASSIVE never waits for (or blocks) the writer, the sqlite3 module releases the GIL
meanwhile, so the copying runs on another core, and once the whole log is copied the next
transaction starts the log over, so it stays small.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 0.25


class Checkpointer:
    """A daemon thread that checkpoints the WAL of the SQLite file at `path`."""

    def __init__(self, path: str, interval: float = INTERVAL_SECONDS) -> None:
        self._path = path
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cq-checkpoint", daemon=True)
        self.checkpoints = 0  # completed checkpoint calls (for tests and diagnostics)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def _run(self) -> None:
        conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            while not self._stop.wait(self._interval):
                self.checkpoint(conn)
            self.checkpoint(conn)
        finally:
            conn.close()

    def checkpoint(self, conn: sqlite3.Connection) -> None:
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.checkpoints += 1
        except sqlite3.Error as error:  # the next round tries again
            log.warning("WAL checkpoint failed: %s", error)
