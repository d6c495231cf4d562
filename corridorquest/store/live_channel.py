"""PostgreSQL LISTEN/NOTIFY on one channel: the live relay between server processes.

`notify(payload)` runs inside a write's transaction: PostgreSQL delivers the notification
when (and only if) that transaction commits, to every session listening, in commit order.
`Listener` is a session of its own that listens (psycopg2, non-blocking reads: the event
loop calls `read` when its socket is readable).
"""

from __future__ import annotations

from typing import Any

from corridorquest.store.connection import connect
from corridorquest.store.leader_lock import CONNECT_TIMEOUT, KEEPALIVES
from corridorquest.store.models import database

CHANNEL = "corridorquest_live"
MAX_PAYLOAD = 7900  # PostgreSQL refuses a payload of 8000 bytes or more


class ChannelLost(Exception):
    """The listening session ended (the database restarted, the network went away)."""


def notify(payload: str) -> None:
    """Inside a transaction: tell every listener `payload` once it commits."""
    database.execute_sql("SELECT pg_notify(%s, %s)", (CHANNEL, payload))


class Listener:
    def __init__(self, database_url: str) -> None:
        import psycopg2  # PostgreSQL only (an optional dependency)

        self._pg: Any = psycopg2
        db = connect(database_url, 1)
        self._params: dict[str, Any] = {
            "dbname": db.database,
            **db.connect_params,
            "connect_timeout": CONNECT_TIMEOUT,
            **KEEPALIVES,
        }
        self._connection: Any = None

    def connect(self) -> int:
        """Open the session and LISTEN (blocking: off the loop); its socket's descriptor."""
        self.close()
        connection = self._pg.connect(**self._params)
        connection.autocommit = True
        with connection.cursor() as cursor:
            cursor.execute(f"LISTEN {CHANNEL}")
        self._connection = connection
        return int(connection.fileno())

    def read(self) -> list[str]:
        """The payloads that arrived (does not block); ChannelLost when the session ended."""
        connection = self._connection
        if connection is None:
            raise ChannelLost("not connected")
        try:
            connection.poll()
        except self._pg.Error as error:
            raise ChannelLost(str(error)) from None
        found = [item.payload for item in connection.notifies]
        connection.notifies.clear()
        return found

    def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.close()
            except self._pg.Error:
                pass
