"""What an analysis worker process runs: plain data in, plain data out.

Imports the analysis (engine and bots) only, never the server: a spawned worker starts in a
fraction of a second.
"""

from __future__ import annotations

import os
from typing import Any

from corridorquest.analysis.plies import analyse

WORKER_NICE = 10  # the server's requests first (as the bots' workers)


def start_worker() -> None:
    """The initializer of a worker process: lower its priority."""
    try:
        os.nice(WORKER_NICE)
    except OSError:  # not allowed here: run at the same priority
        pass


def analyse_record(record: dict[str, Any], level: int) -> list[dict[str, Any]]:
    """The rows of `analyse(record, level)` as dicts."""
    return [row.to_dict() for row in analyse(record, level)]
