"""PASSWORD_HASH_NICE takes effect: the password pool's threads run at a lower priority.

On Linux the nice value is per thread, and `os.getpriority(os.PRIO_PROCESS, 0)` reads the
calling thread's: a job run in the pool reads the niceness argon2 runs at (its lanes are
threads started from the pool thread, which inherit it). The thread that hands the job
over (the event loop's) keeps its own priority. The API-level tests of the pool's bounds
are in tests/api/test_password_pool.py.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from pathlib import Path
from typing import cast

import pytest

from corridorquest.events import EventBus
from corridorquest.security.hashing_pool import PasswordPool
from corridorquest.services.context import ServiceContext
from corridorquest.settings import Settings
from corridorquest.store import Store

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the nice value is per thread on Linux only"
)


def thread_nice() -> int:
    """The calling thread's nice value (Linux: per thread)."""
    return os.getpriority(os.PRIO_PROCESS, 0)


def expected(base: int, nice: int) -> int:
    return min(19, base + nice)


def in_pool(pool: PasswordPool) -> int:
    """The nice value a job run in `pool` sees."""

    async def run() -> int:
        return await pool.run(thread_nice)

    try:
        return asyncio.run(run())
    finally:
        pool.close()


@pytest.mark.parametrize("nice", [0, 3, 10])
def test_a_pool_thread_runs_at_the_pools_niceness(nice: int) -> None:
    base = thread_nice()
    assert in_pool(PasswordPool(threads=1, queue=1, nice=nice)) == expected(base, nice)
    assert thread_nice() == base  # the caller's thread is not lowered


def test_every_pool_thread_is_lowered_not_only_the_first() -> None:
    base = thread_nice()
    pool = PasswordPool(threads=3, queue=0, nice=4)
    barrier = threading.Barrier(3, timeout=10)  # each job holds its thread: three threads

    def job() -> int:
        barrier.wait()
        return thread_nice()

    async def run() -> list[int]:
        return list(await asyncio.gather(*(pool.run(job) for _ in range(3))))

    try:
        seen = asyncio.run(run())
    finally:
        pool.close()
    assert seen == [expected(base, 4)] * 3


def test_the_setting_reaches_the_servers_pool(tmp_path: Path) -> None:
    base = thread_nice()
    settings = Settings.from_env(environ={"DATA_DIR": str(tmp_path), "PASSWORD_HASH_NICE": "7"})
    assert settings.password_hash_nice == 7
    # password work needs no database: the context's store is never touched here
    ctx = ServiceContext(settings=settings, store=cast(Store, None), bus=EventBus())

    async def run() -> int:
        try:
            return await ctx.password_work(thread_nice)
        finally:
            assert ctx.passwords is not None
            ctx.passwords.close()

    assert asyncio.run(run()) == expected(base, 7)
