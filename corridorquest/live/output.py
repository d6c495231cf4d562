"""Where a stream's updates go once its response has started: its connection.

`InlineOut`: the server writes each update to the connection itself, at once (one
write per update, in HTTP/1.1 chunked framing). `writer.ConnectionOut`: a helper
process writes them (corridorquest/live/writer.py). Both drop a reader whose connection
holds more than its limit not yet sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from corridorquest.live.writer import frame


class Out(Protocol):
    def put(self, chunk: bytes) -> None: ...

    async def finish(self) -> None: ...

    def let_go(self) -> None: ...


class InlineOut:
    __slots__ = ("transport", "limit", "dropped", "gone")

    def __init__(
        self,
        transport: Any,
        limit: int,
        dropped: Callable[[str], None],
        gone: Callable[[], None],
    ) -> None:
        self.transport = transport
        self.limit = limit
        self.dropped = dropped  # fell behind: disconnect it
        self.gone = gone  # the connection is closing: end the stream

    def put(self, chunk: bytes) -> None:
        transport = self.transport
        if transport.is_closing():
            self.gone()
        elif transport.get_write_buffer_size() > self.limit:
            self.dropped("it fell behind")
        else:
            transport.write(frame(chunk))

    async def finish(self) -> None:
        """Everything is already with the transport."""

    def let_go(self) -> None:
        pass
