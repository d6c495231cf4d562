"""Admission control for password hashing: a small pool of its own and a short queue.

An argon2id hash or verify costs about 0.1 s of CPU on purpose (SPEC §7). Handed to an
unbounded thread pool, a burst of logins took every core: moves slowed tenfold and the
logins themselves waited many seconds in the queue. So every argon2 call of the server
goes through one `PasswordPool` per process:

- at most `threads` hashes run at a time (PASSWORD_HASH_THREADS), on threads of their
  own, never on the event loop and never in the executor other blocking work uses;
- at most `queue` more wait for a thread (PASSWORD_HASH_QUEUE);
- beyond that the call is refused at once with `PasswordPoolBusy`, which says how many
  seconds a retry should wait (the queue's expected drain time, at least 1). The API
  answers it with 503 `password_hashing_busy` and a Retry-After header: waiting in a
  queue longer than that only means a client times out while the server still spends
  the CPU on its request.

The pool's threads run at a lower scheduling priority (`nice`, PASSWORD_HASH_NICE, on
systems that allow raising it per thread, such as Linux): argon2 spreads one hash over
several threads of its own (its parallelism lanes), which inherit that priority, so when
the event loop has work the operating system gives the core to the loop first.
"""

from __future__ import annotations

import asyncio
import math
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

# What one argon2id call is assumed to take until the pool has timed a few of its own.
INITIAL_SECONDS_PER_JOB = 0.15
_SMOOTHING = 0.2  # weight of the newest duration in the running average


class PasswordPoolBusy(Exception):
    """The pool's threads and queue are full: try again in `retry_after` seconds."""

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__(f"password hashing is busy; retry in {retry_after} s")


def _lower_priority(nice: int) -> None:
    """Thread initializer: raise this thread's nice value (Linux: per thread)."""
    if nice <= 0 or not hasattr(os, "setpriority"):
        return
    try:
        tid = threading.get_native_id()
        current = os.getpriority(os.PRIO_PROCESS, tid)
        os.setpriority(os.PRIO_PROCESS, tid, min(19, current + nice))
    except OSError:  # not permitted or not per-thread here: run at normal priority
        pass


class PasswordPool:
    """A bounded pool for argon2 work (see the module docstring)."""

    def __init__(self, threads: int = 1, queue: int = 4, nice: int = 10) -> None:
        if threads < 1 or queue < 0:
            raise ValueError("a password pool needs at least one thread and a queue >= 0")
        self.threads = threads
        self.capacity = threads + queue
        self._executor = ThreadPoolExecutor(
            threads,
            thread_name_prefix="cq-password",
            initializer=_lower_priority,
            initargs=(nice,),
        )
        self._lock = threading.Lock()
        self._in_flight = 0  # admitted and not finished: running plus queued
        self._seconds_per_job = INITIAL_SECONDS_PER_JOB

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def retry_after(self) -> int:
        """Seconds until the queue as it is now has drained (at least 1)."""
        with self._lock:
            return self._retry_after_locked()

    def _retry_after_locked(self) -> int:
        waves = math.ceil(max(1, self._in_flight) / self.threads)
        return max(1, math.ceil(waves * self._seconds_per_job))

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` on a pool thread; `PasswordPoolBusy` at once when full.

        A caller that is cancelled while its job waits in the queue takes the job out; a
        job that has started runs to its end (argon2 cannot be interrupted) and keeps its
        place until then, so the bound holds for the CPU actually in use.
        """
        with self._lock:
            if self._in_flight >= self.capacity:
                raise PasswordPoolBusy(self._retry_after_locked())
            self._in_flight += 1
        try:
            future = self._executor.submit(self._timed, fn, args, kwargs)
        except BaseException:
            self._release(None)
            raise
        future.add_done_callback(self._release)
        return await asyncio.wrap_future(future)

    def _timed(self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            took = time.perf_counter() - started
            with self._lock:
                self._seconds_per_job += _SMOOTHING * (took - self._seconds_per_job)

    def _release(self, _future: Future[Any] | None) -> None:
        with self._lock:
            self._in_flight -= 1

    def close(self) -> None:
        """Stop: queued jobs are dropped, a running one finishes on its own thread."""
        self._executor.shutdown(wait=False, cancel_futures=True)
