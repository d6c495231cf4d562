"""Many requests at the same moment, for tests of what happens under concurrency.

    answers = post_at_once(server.api + "/sessions", [(body, headers), ...])

One thread per request; each opens its own connection first and then waits at a barrier,
so the requests leave together (within a few milliseconds) instead of one after another.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

Request = tuple[dict[str, Any], dict[str, str]]  # JSON body, headers


def post_at_once(
    url: str, requests: Sequence[Request], timeout: float = 60.0
) -> list[httpx.Response]:
    """POST every (body, headers) to `url` at once; the answers in the same order."""
    barrier = threading.Barrier(len(requests))

    def send(request: Request) -> httpx.Response:
        body, headers = request
        with httpx.Client(timeout=timeout) as client:
            client.get(url.split("/api/v1", 1)[0] + "/api/v1/server/info")  # connect first
            barrier.wait(timeout)
            return client.post(url, json=body, headers=headers)

    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(send, requests))


def statuses(answers: Sequence[httpx.Response]) -> Counter[int]:
    return Counter(answer.status_code for answer in answers)
