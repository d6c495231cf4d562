"""The bots' worker processes as slots, and the fair queue in front of them (issue 48 item 14).

BOT_WORKERS slots and one more kept for people's games, each a pool of one spawned worker
process (`corridorquest/worker_processes.py`: it ends with the server; started at its
first computation). A computation (a bot's move, a judged trade) first waits for a free
slot, in this order:

- people's games before games of bots only (a person waits for the answer; a game of bots
  only is watched at a pace anyway): priority `PERSON`, then `BOTS_ONLY`;
- within a priority, first come first served. The driver has at most one computation of
  a game waiting (one drive per game), and a game that was served goes to the back: one
  game, however busy, cannot starve another;
- the slot kept for people's games takes no game of bots only: a person's bot never waits
  for a level-6 search of a game of bots only to end (seconds on a busy machine).

Only then does BOT_TIME_CAP start: the cap counts the search's own time, never the time
spent queued behind other games, nor the start of a slot's process (a fresh interpreter:
up to seconds on a busy machine). A search past the cap ends its own process (its slot gets
a new one); the searches of other games in the other slots go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from corridorquest.bot_play import worker
from corridorquest.worker_processes import shutdown_pool, worker_pool

PERSON = 0  # a game with a person in it (and a person's wall offer)
BOTS_ONLY = 1  # a game of bots only

T = TypeVar("T")


class WorkerSlots:
    def __init__(self, workers: int) -> None:
        self.general = workers  # slots 0..workers-1 serve every game; the last, people's only
        slots = workers + 1
        self.pools: list[ProcessPoolExecutor] = [self._new_pool() for _ in range(slots)]
        self._started: list[Future[bool] | None] = [None] * slots  # its process is up
        self._free = list(range(workers))
        self._people_free = [workers]
        self._waiting: list[tuple[int, int, asyncio.Future[int]]] = []  # a heap
        self._order = itertools.count()

    @staticmethod
    def _new_pool() -> ProcessPoolExecutor:
        return worker_pool(1, worker.start_worker)

    def queued(self) -> int:
        """Computations waiting for a slot."""
        return sum(1 for _, _, waiter in self._waiting if not waiter.done())

    async def run(self, priority: int, cap: float, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in a worker process once a slot is free (`priority` order, then
        first come first served), given `cap` seconds of the slot."""
        async with self.taken(priority) as slot:
            return await self.compute(slot, cap, work, *args)

    @contextlib.asynccontextmanager
    async def taken(self, priority: int) -> AsyncIterator[int]:
        """A free slot (waiting for one in `priority` order, then first come first
        served), held until the block ends."""
        slot = await self._take(priority)
        try:
            yield slot
        finally:
            self._give_back(slot)

    async def compute(self, slot: int, cap: float, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in the process of `slot` (taken), given `cap` seconds. Raises
        TimeoutError past the cap (that slot's process is replaced) and what the worker
        raised."""
        pool = self.pools[slot]
        try:
            if self._started[slot] is None:  # the process starts (an interpreter: not capped)
                self._started[slot] = pool.submit(worker.ready)
            await asyncio.wrap_future(self._started[slot])
            return await asyncio.wait_for(
                asyncio.get_running_loop().run_in_executor(pool, work, *args), cap
            )
        except (TimeoutError, BrokenProcessPool):
            if self.pools[slot] is pool:  # this slot's process only: the others go on
                self.pools[slot] = self._new_pool()
                self._started[slot] = None
                shutdown_pool(pool)
            raise

    async def _take(self, priority: int) -> int:
        if priority == PERSON and self._people_free:
            return self._people_free.pop()
        if self._free and not self.queued():
            return self._free.pop()
        waiter: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), waiter))
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # given a slot as it was cancelled
                self._give_back(waiter.result())
            raise

    def _give_back(self, slot: int) -> None:
        people_only = slot >= self.general
        while self._waiting:
            priority, _, waiter = self._waiting[0]
            if waiter.done():
                heapq.heappop(self._waiting)
                continue
            if people_only and priority != PERSON:
                break  # (the heap's first is a person's when there is one)
            heapq.heappop(self._waiting)
            waiter.set_result(slot)
            return
        (self._people_free if people_only else self._free).append(slot)

    def close(self) -> None:
        """End every worker process (a search still running ends now)."""
        for waiter in (w for _, _, w in self._waiting if not w.done()):
            waiter.cancel()
        self._waiting.clear()
        for pool in self.pools:
            shutdown_pool(pool)
