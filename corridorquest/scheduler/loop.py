"""The scheduler's loop: wake at the next deadline, call the sweeps that are due.

A sweep is an async function of the service context that does its work and answers the
next moment it wants to run (naive UTC, as the database stores times), or None: again
after SCHEDULER_INTERVAL. The loop never waits longer than SCHEDULER_INTERVAL, and never
waits for a sweep's deadline beyond that. A sweep that fails is logged and tried again
after SCHEDULER_INTERVAL; the loop goes on.

On SQLite the sweeps' transactions run inline on the event loop like every request's
(store/facade.py): each is short, and a sweep with much to do (a backlog after a downtime)
splits it into small transactions with requests in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from corridorquest.scheduler.leader import RETRY_SECONDS, Leadership
from corridorquest.services.context import ServiceContext
from corridorquest.store import DatabaseBusy

log = logging.getLogger("corridorquest.scheduler")

MIN_SLEEP = 0.05  # seconds: never spin on a deadline that is (just) now


@dataclass(frozen=True)
class Sweep:
    name: str
    run: Callable[[ServiceContext], Awaitable[datetime | None]]


def now_utc() -> datetime:
    """Now as a naive UTC datetime, to the microsecond."""
    return datetime.now(UTC).replace(tzinfo=None)


class Scheduler:
    def __init__(
        self, ctx: ServiceContext, sweeps: Sequence[Sweep], leadership: Leadership
    ) -> None:
        self.ctx = ctx
        self.sweeps = list(sweeps)
        self.leadership = leadership
        self.interval = timedelta(seconds=ctx.settings.scheduler_interval)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._main(), name="scheduler")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self.leadership.release()

    async def _main(self) -> None:
        waiting_logged = False
        while True:
            try:
                leading = await self.leadership.acquire()
            except Exception:
                log.exception("scheduler: cannot tell whether this process leads")
                leading = False
            if leading:
                waiting_logged = False
                log.info("scheduler: leading")
                await self._lead()
                log.warning("scheduler: no longer leading")
            elif not waiting_logged:
                log.info("scheduler: another process leads; trying every %s s", RETRY_SECONDS)
                waiting_logged = True
            await asyncio.sleep(RETRY_SECONDS)

    async def _lead(self) -> None:
        """Run the sweeps as they fall due, while this process leads."""
        due = {sweep.name: now_utc() for sweep in self.sweeps}
        while True:
            for sweep in self.sweeps:
                if due[sweep.name] <= now_utc():
                    due[sweep.name] = await self._run(sweep)
            delay = (min(due.values()) - now_utc()).total_seconds()
            if self.leadership.recheck_seconds is not None:
                delay = min(delay, self.leadership.recheck_seconds)
            await asyncio.sleep(max(MIN_SLEEP, delay))
            try:
                if not await self.leadership.check():
                    return
            except Exception:
                log.exception("scheduler: leadership check failed")
                return

    async def _run(self, sweep: Sweep) -> datetime:
        """Run `sweep`; when it is due next (within SCHEDULER_INTERVAL)."""
        latest = now_utc() + self.interval
        try:
            wanted = await sweep.run(self.ctx)
        except asyncio.CancelledError:
            raise
        except DatabaseBusy as busy:  # another program holds SQLite's write lock
            log.warning("scheduler: sweep %s put off: %s", sweep.name, busy)
            return latest
        except Exception:
            log.exception("scheduler: sweep %s failed", sweep.name)
            return latest
        return latest if wanted is None else min(wanted, latest)
