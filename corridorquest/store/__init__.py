"""Persistence: the only package that sets up peewee databases.

- `connection.py`: DATABASE_URL -> database; `facade.py`: `Store.transaction(fn, *args)`,
  the one way into the database for the async server (`group_commit.py`, `lock_wait.py`,
  `transaction_memo.py` and `row_locks.py` hold its parts).
- `models/`: every table, one module per part of the product (imported from `models`).
- `migrations/`: ordered schema steps, applied on every start.
- `check.py`, `replay.py`: `corridorquest check`; stored games read back and replayed.
"""

from peewee import DatabaseError, IntegrityError, InterfaceError, OperationalError

from corridorquest.store.connection import DatabaseUrlError, SqliteOptions, connect
from corridorquest.store.facade import Store
from corridorquest.store.lock_wait import DatabaseBusy
from corridorquest.store.migrations import current_version, latest_version, migrate_database
from corridorquest.store.models import database, utcnow
from corridorquest.store.row_locks import lock_for_update, transaction_lock
from corridorquest.store.transaction_memo import transaction_memo

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
