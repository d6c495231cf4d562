"""The session of a token with its user: the lookup every authenticated request makes.

One indexed statement returning plain values (no model instances), the idle-expiry
touch of one session row, and SQLite's data version (what tells the sessions a process
keeps, services/known_sessions.py, that another connection wrote).
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

import peewee as pw

from corridorquest.store import fast
from corridorquest.store.lock_wait import is_busy
from corridorquest.store.models import Session, User
from corridorquest.store.transaction_memo import batch_memo


class SessionUser(NamedTuple):
    session_id: int
    last_seen_at: datetime
    expires_at: datetime
    user_id: int
    username: str
    email: str
    is_admin: bool
    locked: bool


_FIELDS = (
    Session.id,
    Session.last_seen_at,
    Session.expires_at,
    User.id,
    User.username,
    User.email,
    User.is_admin,
    User.locked,
)
_COLUMNS = ", ".join(
    f'{"s" if field.model is Session else "u"}."{field.column_name}"' for field in _FIELDS
)
_SQL = {
    True: f"SELECT {_COLUMNS} FROM {fast.table(Session)} AS s "
    f'JOIN {fast.table(User)} AS u ON u."id" = s."user_id" WHERE s."token_hash" = ?',
}
_SQL[False] = _SQL[True].replace("?", "%s")  # PostgreSQL's placeholder
_PLAN = fast.row_plan(_FIELDS)


def session_user(token_hash: str) -> SessionUser | None:
    """The session stored under `token_hash` and its user (None: no such session)."""
    row = fast.execute(_SQL[fast.is_sqlite()], (token_hash,)).fetchone()
    if row is None:
        return None
    return SessionUser(*fast.convert(_PLAN, row))


_DATA_VERSION = "data_version"  # its key in the batch memo


def data_version() -> int:
    """SQLite's `PRAGMA data_version` on this connection: it moves when another
    connection (another process: `corridorquest init-admin`, a hand edit) commits to the
    database file, never for this connection's own writes.

    Read once per group-commit batch: inside one transaction it cannot move (the
    transaction reads one snapshot of the file), so the requests that authenticate while
    a batch is open take the value the first of them read."""
    memo = batch_memo()
    version: int | None = memo.get(_DATA_VERSION)
    if version is None:
        version = memo[_DATA_VERSION] = int(fast.execute("PRAGMA data_version").fetchone()[0])
    return version


def touch_session(session_id: int, last_seen_at: datetime, expires_at: datetime) -> bool:
    """Record a use of the session: seen now, expiring later. False: not recorded.

    While another program holds SQLite's write lock the touch is skipped instead of
    failing the request (or waiting for the lock): the session stays valid, and the next
    request touches it again.
    """
    try:
        fast.update_by_id(Session, session_id, last_seen_at=last_seen_at, expires_at=expires_at)
    except pw.OperationalError as error:
        if not is_busy(error):
            raise
        return False
    return True
