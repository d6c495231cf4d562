"""Where a stream's updates go once its response has started: its connection.

The one way a live stream's bytes leave after its response's head and first chunk
(`Out`): `ConnectionOut` writes each update to the connection's transport at once (one
write per update, in HTTP/1.1 chunked framing), with no task switch per stream. A reader
whose connection holds more than its limit not yet sent is dropped, and `Unsent` bounds
what all of them hold together and drops a connection that takes nothing for a while.

(A forked writer process, fed the connections' sockets over SCM_RIGHTS, wrote them
until 2026-11-27: it no longer paid on the machine of its measurement,
benchmarks/README.md, live_load.)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol


def frame(chunk: bytes) -> bytes:
    """One HTTP/1.1 chunk (the streams' responses are chunked)."""
    return b"%x\r\n%b\r\n" % (len(chunk), chunk)


class Out(Protocol):
    """A stream's connection, as the hub and the stream's handler see it."""

    def put(self, chunk: bytes) -> None:
        """Write `chunk` now (or drop the reader: it fell behind)."""

    async def finish(self) -> None:
        """Everything put so far is out of our hands: the response's end may follow."""

    def let_go(self) -> None:
        """The stream ended: forget the connection."""


class Unsent:
    """What the stream connections hold unsent (their transports' buffers):
    at most `total` bytes for all of them (the connections that hold the most are dropped
    first), and a connection that takes nothing of it for `stall` seconds is dropped
    (looked at every `CHECK_EVERY` seconds while any holds something)."""

    CHECK_EVERY = 0.25

    def __init__(self, total: int, stall: float) -> None:
        self.total = total
        self.stall = stall
        self.held: dict[ConnectionOut, int] = {}  # connection -> its unsent bytes, last seen
        self.sum = 0  # of `held` (at least what they hold: they only shrink unseen)
        self._check: asyncio.TimerHandle | None = None

    def holds(self, out: ConnectionOut, size: int) -> None:
        """`out`'s transport holds `size` bytes unsent now."""
        before = self.held.pop(out, 0)
        self.sum -= before
        if size:
            self.held[out] = size
            self.sum += size
            if self.sum > self.total:
                self._over_total()
            if self._check is None and self.held:
                self._check = asyncio.get_running_loop().call_later(self.CHECK_EVERY, self.check)

    def _refresh(self) -> None:
        for out in list(self.held):
            size = out.transport.get_write_buffer_size() if not out.transport.is_closing() else 0
            if size:
                self.held[out] = size
            else:
                del self.held[out]
        self.sum = sum(self.held.values())

    def _over_total(self) -> None:
        self._refresh()
        for out in sorted(self.held, key=self.held.__getitem__, reverse=True):
            if self.sum <= self.total:
                return
            size = self.held.pop(out)
            self.sum -= size
            out.dropped(
                f"the streams' unsent total is at its bound ({size // 1024} KiB unsent; "
                f"{self.sum // 1024} KiB on the server's other streams)"
            )

    def check(self) -> None:
        self._check = None
        self._refresh()
        now = time.monotonic()
        for out in list(self.held):
            if out.taken_since(now) > self.stall:
                size = self.held.pop(out)
                self.sum -= size
                out.dropped(
                    f"it took nothing for a while ({size // 1024} KiB unsent; "
                    f"{self.sum // 1024} KiB on the server's other streams)"
                )
        if self.held:
            self._check = asyncio.get_running_loop().call_later(self.CHECK_EVERY, self.check)

    def forget(self, out: ConnectionOut) -> None:
        self.sum -= self.held.pop(out, 0)


class ConnectionOut:
    __slots__ = ("transport", "limit", "dropped", "gone", "unsent", "written", "sent", "since")

    def __init__(
        self,
        transport: Any,
        limit: int,
        dropped: Callable[[str], None],
        gone: Callable[[], None],
        unsent: Unsent | None = None,
    ) -> None:
        self.transport = transport
        self.limit = limit
        self.dropped = dropped  # fell behind: disconnect it
        self.gone = gone  # the connection is closing: end the stream
        self.unsent = unsent
        self.written = 0  # bytes given to the transport
        self.sent = 0  # of those, what had left its buffer when last looked at
        self.since = time.monotonic()  # when `sent` last grew

    def taken_since(self, now: float) -> float:
        """Seconds since the connection last took something of what it holds."""
        sent = self.written - self.transport.get_write_buffer_size()
        if sent > self.sent:
            self.sent, self.since = sent, now
        return now - self.since

    def put(self, chunk: bytes) -> None:
        transport = self.transport
        if transport.is_closing():
            self.gone()
            return
        held = transport.get_write_buffer_size()
        if held > self.limit:
            self.dropped(f"it fell behind ({held // 1024} KiB unsent)")
            return
        if not held:  # everything written so far has left
            self.sent, self.since = self.written, time.monotonic()
        data = frame(chunk)
        transport.write(data)
        self.written += len(data)
        if self.unsent is not None:
            self.unsent.holds(self, transport.get_write_buffer_size())

    async def finish(self) -> None:
        """Everything is already with the transport."""

    def let_go(self) -> None:
        if self.unsent is not None:
            self.unsent.forget(self)
