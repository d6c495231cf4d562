"""What every service function receives: settings, the store, the event bus.

On SQLite it also holds the sessions read lately (`known_sessions`,
services/known_sessions.py), dropped by the bus's events.

The API opens one `ServiceContext` per server process at start and closes it at stop;
scripts and tests may open their own. Password hashing (argon2) goes through
`password_work`: a small pool of its own with a short queue (security/hashing_pool.py),
so that it never stalls the event loop and a burst of logins cannot take the machine;
when the pool is full it answers 503 `password_hashing_busy` at once. Other blocking
work goes through `run_blocking` (the loop's default executor).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ParamSpec, TypeVar

from corridorquest.events import Event, EventBus
from corridorquest.security import passwords
from corridorquest.security.hashing_pool import PasswordPool, PasswordPoolBusy
from corridorquest.services.errors import Unavailable
from corridorquest.services.known_sessions import KnownSessions
from corridorquest.settings import Settings
from corridorquest.store import SqliteOptions, Store

P = ParamSpec("P")
T = TypeVar("T")


class PasswordHashingBusy(Unavailable):
    """503: the password pool's threads and queue are full (with `retry_after`)."""

    default_reason = "password_hashing_busy"


@dataclass
class ServiceContext:
    settings: Settings
    store: Store
    bus: EventBus
    passwords: PasswordPool | None = field(default=None, repr=False)
    # inside a write's transaction: tell the other server processes of its events
    # (corridorquest.live.relay on PostgreSQL; None: this process is the only one)
    announce: Callable[[Sequence[Event]], None] | None = field(default=None, repr=False)
    # the sessions this process read lately (SQLite only; services/known_sessions.py)
    known_sessions: KnownSessions | None = field(default=None, repr=False)

    @classmethod
    def open(cls, settings: Settings) -> ServiceContext:
        """Open (create, migrate) the database and make the bus; hash passwords with the
        settings' argon2 parameters from now on."""
        passwords.configure(
            passwords.HashParameters(
                time_cost=settings.password_hash_time_cost,
                memory_kib=settings.password_hash_memory_kib,
                parallelism=settings.password_hash_parallelism,
            )
        )
        sqlite = SqliteOptions(
            synchronous=settings.sqlite_synchronous,
            busy_timeout=settings.database_busy_timeout,
            wal_limit=settings.sqlite_wal_limit * 1024 * 1024,
        )
        store = Store.open(settings.database_url, settings.db_pool_size, sqlite=sqlite)
        store.start_server_mode()
        ctx = cls(settings=settings, store=store, bus=EventBus())
        if store.is_sqlite:  # one server process: every session write is this one's
            ctx.known_sessions = KnownSessions()
            ctx.known_sessions.subscribe(ctx.bus)
        return ctx

    async def run_blocking(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run blocking `fn` in the loop's default thread pool, off the event loop.

        Not for argon2: password work goes through `password_work`."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, functools.partial(fn, *args, **kwargs))

    async def password_work(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run argon2 work `fn` in the password pool (PASSWORD_HASH_THREADS threads, at most
        PASSWORD_HASH_QUEUE waiting); when that is full, refuse at once with 503
        `password_hashing_busy` and `retry_after` seconds."""
        if self.passwords is None:
            self.passwords = PasswordPool(
                self.settings.password_hash_threads,
                self.settings.password_hash_queue,
                self.settings.password_hash_nice,
            )
        try:
            return await self.passwords.run(fn, *args, **kwargs)
        except PasswordPoolBusy as busy:
            raise PasswordHashingBusy(
                "password_hashing_busy",
                f"the server is busy checking passwords; try again in {busy.retry_after} seconds",
                retry_after=busy.retry_after,
            ) from None

    async def close(self) -> None:
        """Shut down: let subscribers finish, close the DB (undelivered notifications wait
        in the durable outbox for the next start)."""
        await self.bus.drain()
        self.store.close()
        if self.passwords is not None:
            self.passwords.close()
