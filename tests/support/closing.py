"""Running a client coroutine of the stdlib event loop to the end of its connections.

`asyncio.run` closes its loop as soon as the coroutine returns. A TLS connection that the
coroutine closed last (aiosmtplib's QUIT over STARTTLS or implicit TLS) is still closing
then: close_notify goes both ways before the socket itself is closed, a few turns of the
loop later. The socket's transport is left open with its loop closed, and the garbage
collector warns "unclosed transport" whenever it comes by, which pytest turns into an
error of whatever test runs at that moment (seen in tests/mail and tests/records).
`run_to_close` lets the loop turn until the connections it opened have closed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

CLOSE_TIMEOUT = 5.0  # seconds a connection may take to close after the coroutine


async def _sockets_closed(timeout: float) -> None:
    loop = asyncio.get_running_loop()
    # the selector loop's own table of its socket transports (fd -> transport, weakly)
    transports = getattr(loop, "_transports", {})
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if all(getattr(t, "_sock", None) is None for t in list(transports.values())):
            return
        await asyncio.sleep(0.01)


def run_to_close(work: Coroutine[Any, Any, T], timeout: float = CLOSE_TIMEOUT) -> T:
    """`asyncio.run(work)`, then the loop runs until the sockets `work` opened are closed
    (at most `timeout` seconds)."""

    async def run() -> T:
        try:
            return await work
        finally:
            await _sockets_closed(timeout)

    return asyncio.run(run())
