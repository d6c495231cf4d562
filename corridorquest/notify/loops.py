"""The notify worker's loops: a round, then a pause that keeps the worker to its SHARE
of the event loop's CPU time while requests wait, or a wait for a wake-up (see worker.py)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from corridorquest.store import DatabaseBusy, InterfaceError, OperationalError

log = logging.getLogger("corridorquest.notify")

POLL_SECONDS = 1.0
WAKE_DELAY = 0.05  # after a wake-up: one round for a burst of commits, not one per commit
SHARE = 0.05
BUSY_LAG = 0.002  # seconds: a loop that takes longer to come back has requests waiting
MAX_PAUSE = 2.0


PROBE = 0.001  # seconds


async def loop_is_busy() -> bool:
    """Whether other work is waiting on this event loop: how late a short timer fires.
    (A timer, not a bare yield: the loop polls its sockets before it runs timers, so the
    requests that wait there are counted; a yield comes back before they are even seen.)"""
    loop = asyncio.get_running_loop()
    began = loop.time()
    await asyncio.sleep(PROBE)
    return loop.time() - began > PROBE + BUSY_LAG


class Loops:
    async def _loop(self, round_: Callable[[], Awaitable[int]], wake: asyncio.Event) -> None:
        while True:
            wake.clear()
            started = time.thread_time()  # (waits on the network do not count)
            try:
                worked = await round_()
            except asyncio.CancelledError:
                raise
            except DatabaseBusy as busy:
                log.warning("notifications put off: %s", busy)
                worked = 0
            except (OperationalError, InterfaceError) as error:  # the database went away
                # (PostgreSQL restarted, a connection cut): expected, and said without a
                # traceback; the next round, on a new connection, takes up the work
                said = str(error).strip()
                reason = said.splitlines()[0] if said else type(error).__name__
                log.warning("notifications put off: the database is away (%s)", reason)
                worked = 0
            except Exception:
                log.exception("notify worker round failed")
                worked = 0
            if worked:
                if await loop_is_busy():
                    spent = time.thread_time() - started
                    await asyncio.sleep(min(MAX_PAUSE, spent * (1 / SHARE - 1)))
                continue
            try:
                await asyncio.wait_for(wake.wait(), POLL_SECONDS)
            except TimeoutError:
                continue
            await asyncio.sleep(WAKE_DELAY)  # what the same burst commits comes along
