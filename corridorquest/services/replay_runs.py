"""The worker process of this server process's imports and replays (never the event loop,
nor a thread of the server: records/worker.py says why).

One spawned process (a fresh interpreter that imports `corridorquest.records` only, as the
analyses' worker), started at the first import or replay and kept: the positions it keeps
(records/position_cache.py) serve every later replay. Its work queues, so it never takes
more than one core. It ends with the server: `shutdown()` (the API calls it as the server
stops), or by itself when the server process is gone (a kill -9).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import ParamSpec, TypeVar

from corridorquest.records import worker
from corridorquest.worker_processes import shutdown_pool, worker_pool

P = ParamSpec("P")
T = TypeVar("T")

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def _the_pool() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = worker_pool(1, worker.start_worker)  # it ends when the server ends
        return _pool


async def run(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args)` (a function of records/worker.py) in the worker process."""
    loop = asyncio.get_running_loop()
    if kwargs:
        raise TypeError("the worker takes positional arguments only")
    return await loop.run_in_executor(_the_pool(), fn, *args)


def shutdown() -> None:
    """End the worker process (an import or replay still running is dropped: its request
    fails as the server stops)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        shutdown_pool(pool)
