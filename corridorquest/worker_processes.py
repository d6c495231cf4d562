"""Pools of worker processes that end when their server process ends, however it ends.

The bots' workers (`bot_play/driver.py`) and the analysis worker
(`services/analysis_runs.py`) are spawned processes (a fresh interpreter that imports the
worker's module alone: no fork of a server holding threads and database connections, and
it works inside the pyz). A server stopped in order shuts its pools down; a server killed
(SIGKILL, the OOM killer, a crash) cannot, and a worker blocked on its pool's queue would
wait for a parent that is gone, forever (issue 48 item 18). So each worker watches its
parent from the moment it starts:

- on Linux, PR_SET_PDEATHSIG: the kernel sends the worker SIGKILL as the server (the
  thread that spawned it: the event loop's, which lives as long as the server) dies, even
  in the middle of a search;
- everywhere, a daemon thread that polls the parent's process id every PARENT_POLL
  seconds and ends the worker once the parent is another (the worker was handed to init
  or a subreaper): it covers a parent that died before the worker set PDEATHSIG, and
  systems without it.

multiprocessing's resource tracker (a helper process that a spawned pool's semaphores
start) reads a pipe whose write ends the server and its workers hold; it ends on its own
once they have all ended.

This module imports nothing of ours: a worker process imports it before its own module.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

PARENT_POLL = 0.5  # seconds between two looks at the parent (where PDEATHSIG is missing)
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def worker_pool(max_workers: int, initializer: Callable[[], None]) -> ProcessPoolExecutor:
    """A pool of `max_workers` spawned processes, each running `initializer` first, each
    ending when this process ends. Submit to it from the event loop's thread (the thread
    that spawns a worker is the one whose end the kernel reports to it)."""
    return ProcessPoolExecutor(
        max_workers=max_workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start,
        initargs=(os.getpid(), initializer),
    )


def shutdown_pool(pool: ProcessPoolExecutor) -> None:
    """Shut `pool` down now: queued work is dropped and a worker still computing is
    terminated (a stop, a time cap)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()


def _start(parent: int, initializer: Callable[[], None]) -> None:
    """A worker's first act: watch `parent`, then the worker's own initializer."""
    watch_parent(parent)
    initializer()


def watch_parent(parent: int) -> None:
    """End this process when process `parent` (its parent) ends."""
    _die_with_parent()
    if os.getppid() != parent:  # it ended before we could ask to be told
        os._exit(0)
    threading.Thread(target=_poll_parent, args=(parent,), name="parent-watch",
                     daemon=True).start()


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        libc: Any = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


def _poll_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(0)
