"""SQLite WAL checkpoints on their own thread and connection, off the event loop.

SQLite copies the write-ahead log back into the database file (a checkpoint) inside the
COMMIT that lets the log pass `wal_autocheckpoint` pages (1000 by default): a thousand
page writes and an fsync on the event loop, every fraction of a second under load, that
every request of that moment waits for. The server turns that off on its connection and
runs PASSIVE checkpoints here instead, a few times a second, from a second connection:
PASSIVE never waits for (or blocks) the writer, and the sqlite3 module releases the GIL
meanwhile, so the copying runs on another core.

Copying is not enough to keep the log small. SQLite starts the log over only when a
write transaction begins while the WHOLE log has been copied, and with the group commit
(store/group_commit.py) the writer begins its next transaction within a millisecond of its last
COMMIT, nearly always before a checkpoint could catch up: under sustained writes the log
grew without bound (1 GB in 40 s at 2,200 moves/s) while every checkpoint copied all
it saw. So when a checkpoint finds that the log is about to pass `wal_limit` bytes,
this thread sets `restart_wanted`, and the writer, at its next batch boundary (after a
COMMIT, before the next BEGIN), runs `PRAGMA wal_checkpoint(RESTART)` itself: it copies
only the frames committed since this thread's last checkpoint, and the next write
starts the log over (`journal_size_limit` then truncates the file to `wal_limit`).
Until the writer has done so (or a second has passed) this thread leaves the checkpoint
lock alone. So that the limit holds at any rate of writes, the thread looks again
sooner than its interval when the log, at the pace it grows, would reach the limit
before then.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 0.25
# Near the limit the thread looks sooner: when the log, at the pace it grows, would
# reach the limit (but not more often than this).
SHORTEST_INTERVAL_SECONDS = 0.02
# The pace taken for the next look: the highest recently measured, fading by this per look.
PACE_FADING = 0.8
WAL_LIMIT_BYTES = 16 * 1024 * 1024
# How long the thread leaves the checkpoint lock to the writer once it asked for a
# restart (the writer may be idle: then the log no longer grows).
WRITER_GRACE_SECONDS = 1.0
_FRAME_HEADER = 24


class Checkpointer:
    """A daemon thread that checkpoints the WAL of the SQLite file at `path`."""

    def __init__(
        self, path: str, interval: float = INTERVAL_SECONDS, wal_limit: int = WAL_LIMIT_BYTES
    ) -> None:
        self._path = path
        self._interval = interval
        self._wal_limit = wal_limit
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cq-checkpoint", daemon=True)
        self.checkpoints = 0  # completed checkpoint calls (for tests and diagnostics)
        self.restart_wanted = False  # set here, cleared by the writer (`Store`)
        self.restarts = 0  # log restarts the writer made at this thread's request
        self.largest_log = 0  # the longest log a checkpoint saw, in bytes

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
            frame = int(conn.execute("PRAGMA page_size").fetchone()[0]) + _FRAME_HEADER
            wait = self._interval
            last, last_at = 0, time.monotonic()  # the log's length at the last look
            pace = 0.0  # how fast it grows, bytes per second (the recent highest, fading)
            asked_at = 0.0
            while not self._stop.wait(wait):
                now = time.monotonic()
                if self.restart_wanted and now - asked_at < WRITER_GRACE_SECONDS:
                    wait = SHORTEST_INTERVAL_SECONDS  # the writer's turn: keep off the lock
                    continue
                length = self.checkpoint(conn) * frame
                self.largest_log = max(self.largest_log, length)
                if length >= last:  # (shorter: the log started over; the pace stays)
                    measured = (length - last) / max(now - last_at, SHORTEST_INTERVAL_SECONDS)
                    pace = max(measured, pace * PACE_FADING)  # a lull does not lull us
                last, last_at = length, now
                if length + pace * SHORTEST_INTERVAL_SECONDS > self._wal_limit:
                    # once more: copies what was committed during the first one, so that
                    # the writer's RESTART has only a batch or two left to copy
                    self.checkpoint(conn)
                    self.restart_wanted = True
                    asked_at = now
                    wait = SHORTEST_INTERVAL_SECONDS
                elif pace > 0:  # look again halfway to when, at this pace, it is there
                    wait = (self._wal_limit - length) / pace / 2
                    wait = min(self._interval, max(SHORTEST_INTERVAL_SECONDS, wait))
                else:
                    wait = self._interval
            self.checkpoint(conn)
        finally:
            conn.close()

    def checkpoint(self, conn: sqlite3.Connection) -> int:
        """One PASSIVE checkpoint; returns the frames in the log (0 when it failed)."""
        try:
            row = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as error:  # the next round tries again
            log.warning("WAL checkpoint failed: %s", error)
            return 0
        self.checkpoints += 1
        return max(0, int(row[1])) if row else 0
