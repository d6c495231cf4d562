"""One open live stream: what the hub puts to it goes to its connection (or waits for it)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from corridorquest.live.output import Out
from corridorquest.services.auth import CurrentUser
from corridorquest.services.live_views import Cursor

log = logging.getLogger("corridorquest.live")


class Stream:
    """One open stream: a game's (`game_id`) or a user's own (`game_id` None).

    Until its handler has sent the first chunk, what the hub puts is queued (a reader
    with more than `limit` bytes queued is dropped); then the handler hands over the
    connection (`LiveHub.connect`) and each chunk goes to it at once (no task switch per
    stream; corridorquest/live/output.py).
    """

    __slots__ = (
        "user", "uid", "game_id", "code", "queue", "cursor", "plain", "present", "closed",
        "abort", "signal", "limit", "counted_as", "key", "early", "_out",
    )

    def __init__(
        self, user: CurrentUser, game_id: int | None, code: str | None, limit: int
    ) -> None:
        self.user = user
        self.uid = user.id  # (read on every look: one object less to visit per stream)
        self.counted_as: Any = user.id  # whose streams it counts among (see LiveHub.limit)
        self.game_id = game_id
        self.code = code  # the invitation code it was opened with (private games)
        self.queue: list[bytes] = []  # before the handler hands the connection over
        self.cursor: Cursor | None = None  # None until its first events are out
        self.plain = True  # could share a spectator's updates (see the module docstring)
        self.present = False  # counted in services.presence (a player's, or a user stream)
        self.closed = False
        self.abort: Callable[[], None] | None = None  # drops the connection
        self.signal = asyncio.Event()  # its handler has something to do (queued, or ended)
        self.limit = limit
        self.key: str | None = None  # its session's (services/session_ends.py)
        # while it opens (no key yet): the keys of sessions that ended meanwhile, "" when
        # its session or its user's rights are to be checked once it is open
        self.early: set[str] | None = None
        self._out: Out | None = None

    def write_to(self, out: Out) -> None:
        """The handler sent the response's head and first chunk: updates go to `out`."""
        self._out = out

    def put(self, chunk: bytes) -> None:
        if self.closed:
            return
        out = self._out
        if out is None:
            self.queue.append(chunk)
            self.signal.set()
            if sum(map(len, self.queue)) > self.limit:
                self._drop()
            return
        out.put(chunk)

    def _drop(self) -> None:
        """A reader that does not keep up."""
        log.info("live stream of %s dropped: it fell behind", self.user.username)
        self.end()
        if self.abort is not None:
            self.abort()

    def end(self) -> None:
        """No more events: the handler finishes the response."""
        if self.closed:
            return
        self.closed = True
        self.queue.clear()
        self.signal.set()
