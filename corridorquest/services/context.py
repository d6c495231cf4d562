"""What every service function receives: settings, the store, the event bus, the outbox.

The API opens one `ServiceContext` per server process at start and closes it at stop;
scripts and tests may open their own. Blocking CPU work (password hashing) goes through
`run_blocking`, which runs it in a thread so that it never stalls the event loop.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from corridorquest.events import EventBus
from corridorquest.mail import MailConfig, Outbox
from corridorquest.settings import Settings
from corridorquest.store import Store

P = ParamSpec("P")
T = TypeVar("T")


@dataclass
class ServiceContext:
    settings: Settings
    store: Store
    bus: EventBus
    outbox: Outbox

    @classmethod
    def open(cls, settings: Settings) -> ServiceContext:
        """Open (create, migrate) the database and wire the bus and the outbox."""
        store = Store.open(settings.database_url, settings.db_pool_size)
        store.start_checkpoints()
        outbox = Outbox.from_config(MailConfig.from_settings(settings))
        return cls(settings=settings, store=store, bus=EventBus(), outbox=outbox)

    async def run_blocking(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run CPU-heavy `fn` (argon2) in the default thread pool, off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, functools.partial(fn, *args, **kwargs))

    async def close(self) -> None:
        """Shut down: let subscribers finish, give queued mail a few seconds, close the DB."""
        await self.bus.drain()
        await self.outbox.drain(timeout=5)
        await self.outbox.close()
        self.store.close()
