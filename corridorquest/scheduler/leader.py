"""Which server process runs the scheduler.

SQLite: one server process per database file (store/single_process.py), so it always
leads. PostgreSQL: the process holding the session-level advisory lock `LOCK_NAME` on a
connection of its own (store/leader_lock.py); the others try to take it every
RETRY_SECONDS, so when the leader dies (its connection closes and PostgreSQL releases
the lock) one of them takes over within a few seconds. The leader checks its connection
at least every RETRY_SECONDS and steps down when it is gone.
"""

from __future__ import annotations

from corridorquest.services.context import ServiceContext
from corridorquest.store.leader_lock import SessionLock

LOCK_NAME = "corridorquest-scheduler"
RETRY_SECONDS = 3.0


class Leadership:
    """Always the leader (SQLite: a single server process)."""

    recheck_seconds: float | None = None  # how often `check` must be asked while leading

    async def acquire(self) -> bool:
        return True

    async def check(self) -> bool:
        return True

    async def release(self) -> None:
        return None


class PostgresLeadership(Leadership):
    """The holder of the advisory lock leads."""

    recheck_seconds = RETRY_SECONDS

    def __init__(self, ctx: ServiceContext) -> None:
        self._ctx = ctx
        self._lock = SessionLock(ctx.settings.database_url, LOCK_NAME)

    async def acquire(self) -> bool:
        return await self._ctx.run_blocking(self._lock.try_acquire)

    async def check(self) -> bool:
        return await self._ctx.run_blocking(self._lock.still_held)

    async def release(self) -> None:
        await self._ctx.run_blocking(self._lock.release)


def leadership_for(ctx: ServiceContext) -> Leadership:
    return Leadership() if ctx.settings.is_sqlite else PostgresLeadership(ctx)
