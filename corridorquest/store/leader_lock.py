"""A PostgreSQL session-level advisory lock on a connection of its own: "only one process
does this" across the server processes sharing one database (the scheduler).

The lock belongs to the connection, not to a transaction: it is held as long as that
connection lives and released by PostgreSQL as soon as it ends, also when the process
holding it is killed (its socket closes, its backend exits). The calls block (a
statement each): run them off the event loop.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from corridorquest.store.connection import connect

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 5  # seconds
# TCP keepalives: a holder whose machine or network is gone loses the lock within a minute
KEEPALIVES = {
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
}


class SessionLock:
    """`pg_try_advisory_lock(hashtext(name))` held on a dedicated connection."""

    def __init__(self, database_url: str, name: str) -> None:
        import psycopg2  # PostgreSQL only (an optional dependency)

        self._pg: Any = psycopg2
        db = connect(database_url, 1)
        self._params: dict[str, Any] = {
            "dbname": db.database,
            **db.connect_params,
            "connect_timeout": CONNECT_TIMEOUT,
            **KEEPALIVES,
        }
        self.name = name
        self._connection: Any = None
        self.held = False
        self._mutex = threading.Lock()  # calls come from pool threads, one at a time

    def try_acquire(self) -> bool:
        """Take the lock if nobody holds it (reconnecting when needed); whether we hold it."""
        with self._mutex:
            return self._try_acquire()

    def still_held(self) -> bool:
        """Whether the connection (and so the lock) is still alive."""
        with self._mutex:
            return self._still_held()

    def release(self) -> None:
        """Let go (closing the connection ends the session and its lock)."""
        with self._mutex:
            self._drop()

    def _try_acquire(self) -> bool:
        if self.held:
            return self._still_held()
        try:
            if self._connection is None or self._connection.closed:
                self._connection = self._pg.connect(**self._params)
                self._connection.autocommit = True
            with self._connection.cursor() as cursor:
                cursor.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (self.name,))
                self.held = bool(cursor.fetchone()[0])
        except self._pg.Error as error:
            log.warning("advisory lock %s: %s", self.name, error)
            self._drop()
        return self.held

    def _still_held(self) -> bool:
        if not self.held:
            return False
        try:
            with self._connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
        except self._pg.Error as error:
            log.warning("advisory lock %s lost: %s", self.name, error)
            self._drop()
        return self.held

    def _drop(self) -> None:
        self.held = False
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.close()
            except self._pg.Error:
                pass
