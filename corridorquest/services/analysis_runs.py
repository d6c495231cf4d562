"""The worker process of this server process's analyses (never the event loop).

One spawned process (a fresh interpreter that imports `corridorquest.analysis` only, as
the bots' workers), started at the first analysis and kept; analyses queue for it, so
they never take more than one core. The process ends when the server process ends,
however it ends (`corridorquest/worker_processes.py`); `shutdown()` ends it (the API
calls it as the server stops).
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from corridorquest.analysis import worker
from corridorquest.worker_processes import shutdown_pool, worker_pool

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def _the_pool() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = worker_pool(1, worker.start_worker)  # it ends when the server ends
        return _pool


async def analyse(record: dict[str, Any], level: int) -> list[dict[str, Any]]:
    """The rows of the analysis of `record`, computed in the worker process."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_the_pool(), worker.analyse_record, record, level)


def shutdown() -> None:
    """End the worker process (an analysis still running is dropped: its row stays
    pending and a later request computes it again)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is None:
        return
    shutdown_pool(pool)
