"""The queue of this server process's analyses (SPEC §16; issue 48 item 16): bounded, a
limit per user, and fair between users.

An analysis is computed in one worker process (`analysis_runs`), one at a time. Before,
every request went straight to the worker's own first-come queue: one user's twenty
requests kept everybody else's analysis waiting behind them. Here:

- `admit` (inside the request's transaction, before anything is written) refuses a new
  analysis when `ANALYSIS_QUEUE` of them are waiting or running in this process (503
  `analysis_queue_full`) or when the caller has `ANALYSIS_PER_USER` waiting or running
  (429 `too_many_analyses`); both with `retry_after`. Asking for an analysis that is done
  or already being computed is never refused (it costs nothing).
- the next analysis given to the worker is the one of the user whose analyses have had
  the fewest plies of the worker's work since the queue was last empty (each user's own
  in the order asked; equal work: the user who has waited longest): a short analysis of
  somebody who asked for nothing else goes before the rest of a long series.

A `Ticket` is one request's place: taken at most once (a transaction that is run again
takes it again harmlessly), given back when the request stores nothing or the analysis
ends.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from corridorquest.services.errors import RateLimited, Unavailable

log = logging.getLogger("corridorquest.analysis")

RETRY_AFTER = 10  # seconds: about one analysis of a long game at the analysis level

Run = Callable[[], Awaitable[None]]


@dataclass
class _Job:
    order: int
    user_id: int
    plies: int
    run: Run
    ticket: Ticket


@dataclass
class _Queue:
    lock: threading.Lock = field(default_factory=threading.Lock)
    held: dict[int, int] = field(default_factory=dict)  # user id -> tickets held
    waiting: list[_Job] = field(default_factory=list)
    work: dict[int, int] = field(default_factory=dict)  # user id -> plies given to the worker
    running: asyncio.Task[None] | None = None

    def total(self) -> int:
        return sum(self.held.values())


_queue = _Queue()
_orders = itertools.count()


class Ticket:
    """One request's place in the queue (see the module docstring)."""

    def __init__(self, user_id: int, per_user: int, bound: int) -> None:
        self.user_id = user_id
        self.per_user = per_user
        self.bound = bound
        self.held = False

    def admit(self) -> None:
        """Take the place, or raise 503 `analysis_queue_full` / 429 `too_many_analyses`."""
        with _queue.lock:
            if self.held:
                return
            if _queue.total() >= self.bound:
                raise Unavailable(
                    "analysis_queue_full",
                    f"the server is already computing {_queue.total()} analyses (its "
                    "ANALYSIS_QUEUE): nothing was started, ask again in a moment",
                    retry_after=RETRY_AFTER,
                )
            if _queue.held.get(self.user_id, 0) >= self.per_user:
                raise RateLimited(
                    "too_many_analyses",
                    f"you already have {self.per_user} analyses waiting or being computed "
                    "(ANALYSIS_PER_USER): ask for another once one is done",
                    retry_after=RETRY_AFTER,
                )
            _queue.held[self.user_id] = _queue.held.get(self.user_id, 0) + 1
            self.held = True

    def release(self) -> None:
        with _queue.lock:
            if not self.held:
                return
            self.held = False
            left = _queue.held.get(self.user_id, 0) - 1
            if left > 0:
                _queue.held[self.user_id] = left
            else:
                _queue.held.pop(self.user_id, None)


def submit(ticket: Ticket, plies: int, run: Run) -> None:
    """Queue `run` (the analysis of a game of `plies` plies) for `ticket`'s user; the
    ticket is given back when it ends (on the event loop)."""
    _queue.waiting.append(_Job(next(_orders), ticket.user_id, plies, run, ticket))
    if _queue.running is None or _queue.running.done():
        _queue.running = asyncio.get_running_loop().create_task(
            _serve(), name="analysis-queue"
        )


def _next() -> _Job:
    """The waiting job of the user with the least work so far; among equals the oldest."""
    job = min(_queue.waiting, key=lambda j: (_queue.work.get(j.user_id, 0), j.order))
    _queue.waiting.remove(job)
    return job


async def _serve() -> None:
    """Give the worker one analysis at a time until none waits."""
    while _queue.waiting:
        job = _next()
        _queue.work[job.user_id] = _queue.work.get(job.user_id, 0) + max(job.plies, 1)
        try:
            await job.run()
        except asyncio.CancelledError:
            job.ticket.release()
            raise
        except Exception:
            log.exception("analysis queue: a job failed")
        job.ticket.release()
    _queue.work.clear()  # the queue is empty: everybody starts again from nothing


def waiting_and_running() -> int:
    """The analyses that hold a place in this process (tests, a graceful stop)."""
    with _queue.lock:
        return _queue.total()


async def drain() -> None:
    """Until every queued analysis has run (tests, a graceful stop)."""
    while _queue.running is not None and not _queue.running.done():
        await asyncio.gather(_queue.running, return_exceptions=True)
