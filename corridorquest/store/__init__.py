"""Persistence: the only package that sets up peewee databases.

- `db.py`: DATABASE_URL -> database, and `Store.transaction(fn, *args)`, the one way into
  the database for the async server.
- `models.py`: every table.
- `migrations/`: ordered schema steps, applied on every start.
- `check.py`, `replay.py`: `corridorquest check`; stored games read back and replayed.
"""

from peewee import DatabaseError, IntegrityError, InterfaceError, OperationalError

from corridorquest.store.db import (
    DatabaseBusy,
    DatabaseUrlError,
    SqliteOptions,
    Store,
    connect,
    lock_for_update,
    transaction_lock,
    transaction_memo,
)
from corridorquest.store.migrations import current_version, latest_version, migrate_database
from corridorquest.store.models import database, utcnow

__all__ = [
    "DatabaseBusy",
    "DatabaseError",
    "DatabaseUrlError",
    "IntegrityError",
    "InterfaceError",
    "OperationalError",
    "SqliteOptions",
    "Store",
    "connect",
    "current_version",
    "database",
    "latest_version",
    "lock_for_update",
    "migrate_database",
    "transaction_lock",
    "transaction_memo",
    "utcnow",
]
